"""Tournaments, sets and players in the viewer: a Swiss tournament's standings and round
blocks, an elimination bracket with its champion, a set's battles, a player's ratings and
history, each page read from the JSON API alone and linked to the next, down to a battle.

Both tournaments are simulated straight into the server's store, house entrants only (seed
"v"): six in three Swiss rounds, and five in a bracket of eight.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from domain.battles import Battles
from domain.sets import Sets
from domain.tournaments.service import Tournaments

from ..api.server import ROOT, wait_until
from .helpers import shot

SCREENSHOT = ROOT / "docs" / "screenshots" / "tournament-viewer.png"
HOUSE = "house:greedy"          # every house entrant sits in its sets as the greedy house bot


@pytest.fixture(scope="module")
def tournaments(db_file: str, server: str) -> dict[str, str]:
    with Battles(db_file) as battles:
        made = Tournaments(battles, Sets(battles))
        swiss = made.simulate("deckduel", "swiss", players=6, rounds=3, seed="v")
        elimination = made.simulate("deckduel", "elimination", players=5, rounds=None, seed="v")
    return {"swiss": swiss.tournament_id, "elimination": elimination.tournament_id}


def read(http: Any, path: str) -> dict[str, Any]:
    answer = http.get(path)
    assert answer.status_code == 200, answer.text
    return answer.json()


def counted(value: int, scale: int) -> str:
    """What the page shows for a count kept in 1/scale units: 3 half-points -> "1.5"."""
    return f"{value / scale:g}"


def number_text(value: float) -> str:
    """A JSON number as the page writes it (JavaScript drops a whole float's ".0")."""
    return str(int(value)) if float(value).is_integer() else repr(value)


def texts(page: Any, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("nodes => nodes.map(n => n.textContent.trim())")


def attrs(page: Any, selector: str, name: str) -> list[Any]:
    """Each match's attribute `name` (None where it has none)."""
    return page.locator(selector).evaluate_all(f"nodes => nodes.map(n => n.getAttribute({name!r}))")


def rows(page: Any, table: str) -> list[list[str]]:
    return page.locator(f"#{table} tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))")


def open_info(page: Any, url: str, ready: str) -> list[str]:
    """Open a page, wait for `ready`, and hand back the script errors it raised (to be none)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector(ready)
    return errors


def test_a_swiss_tournament_shows_its_standings_and_one_block_a_round(page: Any, server: str, http: Any,
        tournaments: dict[str, str]) -> None:
    # given the Swiss tournament as the API gives it
    found = read(http, f"/tournaments/{tournaments['swiss']}")
    # when its page opens
    errors = open_info(page, f"{server}/viewer/tournaments/{tournaments['swiss']}", "#standings tbody tr")
    # then the standings list the entrants in the API's order, points as half-points / 2,
    # Buchholz / 2 and Sonneborn-Berger / 4
    assert rows(page, "standings") == [[str(s["rank"]), s["id"], counted(s["points"], 2), counted(s["buchholz"], 2),
                                        counted(s["sonneborn_berger"], 4), str(s["wins"])] for s in found["standings"]]
    # the leader won its 3 rounds: 3 x 2 = 6 half-points, shown as 3 points; 16 SB quarters as 4
    assert found["standings"][0]["points"] == 6 and rows(page, "standings")[0][2] == "3"
    assert found["standings"][0]["sonneborn_berger"] == 16 and rows(page, "standings")[0][4] == "4"
    assert attrs(page, "#standings tr.champion", "data-entrant") == [found["champion"]]
    assert page.locator(".champion-banner").inner_text() == f"Champion: {found['champion']}"
    assert page.locator("#status-badge").inner_text() == "finished"
    assert texts(page, "#title span") == ["deckduel", "deckduel swiss"]
    # and one block a round: 3 rounds of 6 / 2 = 3 pairings, each with its result and set link
    assert attrs(page, "#rounds .round", "data-round") == ["1", "2", "3"]
    for number, played in enumerate(found["rounds"], 1):
        block = f'#rounds .round[data-round="{number}"]'
        assert texts(page, f"{block} .pairing .entry") == [x for p in played["pairings"] for x in (p["a"], p["b"])]
        results = {(r["a"], r["b"]): r for r in played["results"]}
        # a win is 2 half-points: "1 – 0"; a draw 1 each: "½ – ½"
        shown = {(2, 0): "1 – 0", (0, 2): "0 – 1", (1, 1): "½ – ½"}
        assert texts(page, f"{block} .pairing .result") == [
            shown[results[p["a"], p["b"]]["points_a"], results[p["a"], p["b"]]["points_b"]] for p in played["pairings"]]
        assert attrs(page, f"{block} .pairing a.set-link", "href") == [f"/viewer/sets/{p['set_id']}"
                                                                       for p in played["pairings"]]
    # and house entrants have no player page to link
    assert page.locator("#tournament-page a.entrant").count() == 0
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))
    assert errors == []


def test_an_elimination_tournament_shows_a_bracket_with_its_champion(page: Any, server: str, http: Any,
        tournaments: dict[str, str]) -> None:
    # given the elimination tournament: 5 entrants in a bracket of 8
    found = read(http, f"/tournaments/{tournaments['elimination']}")
    errors = open_info(page, f"{server}/viewer/tournaments/{tournaments['elimination']}", "#bracket .match")
    champion = found["champion"]
    # then one column a round, 8 / 2 = 4 matches, then 2, then the final
    assert attrs(page, "#bracket .bracket-round", "data-round") == ["1", "2", "3"]
    assert [page.locator(f'#bracket .bracket-round[data-round="{n}"] .match').count() for n in (1, 2, 3)] == [4, 2, 1]
    # and 8 - 5 = 3 byes in round 1, each sending its entrant through
    assert page.locator('#bracket .bracket-round[data-round="1"] .slot.bye').count() == 3
    # and in every match the side with more half-points (or the one given a bye) is marked
    went_through = [[r["a"] if r["b"] is None or r["points_a"] > r["points_b"] else r["b"] for r in played["results"]]
                    for played in found["rounds"]]
    column = '#bracket .bracket-round[data-round="{}"] '
    winners = [attrs(page, column.format(n) + ".slot.winner", "data-entrant") for n in (1, 2, 3)]
    assert [sorted(w) for w in winners] == [sorted(w) for w in went_through]
    # and the columns line up as a bracket: a column's winners, two by two, are the next one's matches
    entrants = [attrs(page, column.format(n) + ".slot[data-entrant]", "data-entrant") for n in (1, 2, 3)]
    assert winners[0] == entrants[1] and winners[1] == entrants[2]
    assert texts(page, '#bracket .bracket-round[data-round="3"] .slot.winner') == [f"{champion}1 ✓"]
    # the champion highlighted wherever it played (every pairing, a bye included) and on top
    assert set(attrs(page, "#bracket .slot.champion", "data-entrant")) == {champion}
    assert page.locator("#bracket .slot.champion").count() == sum(w.count(champion) for w in went_through) == 3
    assert page.locator(".champion-banner").inner_text() == f"Champion: {champion}"
    assert [r[1] for r in rows(page, "standings")] == [s["id"] for s in found["standings"]]
    assert rows(page, "standings")[0][1:3] == [champion, counted(found["standings"][0]["points"], 2)]
    shot(page, "tournament-bracket")
    assert errors == []


def test_the_pages_link_a_tournament_to_its_set_and_the_set_to_its_battle(page: Any, server: str, http: Any,
        tournaments: dict[str, str]) -> None:
    # given the Swiss tournament's page, and its first pairing's set as the API gives it
    found = read(http, f"/tournaments/{tournaments['swiss']}")
    set_id = found["rounds"][0]["pairings"][0]["set_id"]
    played = read(http, f"/sets/{set_id}")
    errors = open_info(page, f"{server}/viewer/tournaments/{tournaments['swiss']}", "#rounds .pairing")
    # when the pairing's set link is clicked
    page.locator('#rounds .round[data-round="1"] .pairing').first.locator("a.set-link").click()
    page.wait_for_selector("#set-battles tbody tr")
    # then the set page lists its battles, its score and its winner
    assert page.url == f"{server}/viewer/sets/{set_id}"
    assert attrs(page, "#set-battles tbody tr", "data-battle") == [b["battle_id"] for b in played["battles"]]
    assert len(played["battles"]) == 1 and played["finished"]          # one game a pairing
    winner = played["winner"]
    assert page.locator("#set-winner").inner_text() == f"Winner: {winner} · house greedy"
    assert texts(page, "#set-score .score-wins") == [str(played["score"][side]) for side in ("p1", "p2")]
    assert page.locator("#status-badge").inner_text() == "finished"
    # and each seat's player links its player page, a house seat as house:<policy>
    assert attrs(page, "#set-players a.player-link", "href") == ["/viewer/players/house%3Agreedy"] * 2
    shot(page, "tournament-set")
    # when its battle is clicked, the battle page plays it
    battle_id = played["battles"][0]["battle_id"]
    page.locator(f'#set-battles tr[data-battle="{battle_id}"] a').click()
    page.wait_for_selector("#state .view")
    # (the path: the viewer writes the seat and seq it shows into the query once playback settles)
    assert urlsplit(page.url).path == f"/viewer/battles/{battle_id}"
    assert page.locator("#battle-page").is_visible() and not page.locator("#set-page").is_visible()
    assert errors == []


def settled_player(http: Any, player: str, battle_ids: set[str]) -> dict[str, Any]:
    """The player's page once the projections hold every battle of `battle_ids` with its result,
    and it reads the same twice running (the read models are moments behind the store)."""
    seen: list[dict[str, Any]] = []

    def settled() -> bool:
        answer = http.get(f"/players/{player}")
        if answer.status_code != 200:
            return False
        seen.append(answer.json())
        ended = {b["battle_id"] for b in seen[-1]["battles"] if b["result"] is not None}
        return battle_ids <= ended and len(seen) > 1 and seen[-1] == seen[-2]

    wait_until(settled, what=f"{player}'s history")
    return seen[-1]


def test_a_house_players_page_shows_its_ratings_and_history(page: Any, server: str, http: Any,
        tournaments: dict[str, str]) -> None:
    # given every battle of the Swiss tournament's 3 x 3 sets, and the player page once it holds them
    found = read(http, f"/tournaments/{tournaments['swiss']}")
    battle_ids = {b["battle_id"] for r in found["rounds"] for p in r["pairings"]
                  for b in read(http, f"/sets/{p['set_id']}")["battles"]}
    assert len(battle_ids) == 9
    player = settled_player(http, HOUSE, battle_ids)
    # when the page opens
    errors = open_info(page, f"{server}/viewer/players/house%3Agreedy", "#player-battles tbody tr")
    # then its ratings, as the API gives them
    shown = dict(zip(attrs(page, "#player-ratings tbody tr", "data-ruleset"), rows(page, "player-ratings")))
    assert list(shown) == list(player["ratings"])
    rated = player["ratings"]["deckduel"]
    assert shown["deckduel"] == ["deckduel", number_text(rated["rating"]), number_text(rated["mu"]),
                                 number_text(rated["sigma"]), str(rated["games"]), str(rated["wins"])]
    # and every battle it played, with the result of its side, linked to the battle page
    assert attrs(page, "#player-battles tbody tr", "data-battle") == [b["battle_id"] for b in player["battles"]]
    assert battle_ids <= set(attrs(page, "#player-battles tbody tr", "data-battle"))
    assert texts(page, "#player-battles tbody tr .result-chip") == [b["result"] for b in player["battles"]]
    assert attrs(page, "#player-battles tbody tr a", "href") == [f"/viewer/battles/{b['battle_id']}"
                                                                for b in player["battles"]]
    # and every set, linked to the set page
    assert attrs(page, "#player-sets tbody tr", "data-set") == [s["set_id"] for s in player["sets"]]
    assert attrs(page, "#player-sets tbody tr a", "href") == [f"/viewer/sets/{s['set_id']}" for s in player["sets"]]
    assert texts(page, "#title span") == ["player", HOUSE]
    shot(page, "player-house-greedy")
    assert errors == []


@pytest.mark.parametrize(("path", "heading"), [
    ("tournaments/not-a-uuid", "Not found: no tournament “not-a-uuid”"),
    ("sets/not-a-uuid", "Not found: no set “not-a-uuid”"),
    ("players/nobody-here", "Not found: no player “nobody-here”"),
])
def test_an_unknown_id_says_not_found_without_a_script_error(page: Any, server: str, path: str, heading: str) -> None:
    errors = open_info(page, f"{server}/viewer/{path}", ".page-error")
    assert page.locator(".page-error h1").inner_text() == heading
    assert page.locator(".page-error a").get_attribute("href") == "/viewer/"
    assert page.locator("#status-badge").is_hidden()
    assert errors == []


# A Swiss tournament under way, as GET /tournaments/{id} would give it: round 1 ended (a draw
# and a bye), round 2 paired and being played.
RUNNING = {
    "tournament_id": "spring", "name": "spring cup", "ruleset": "deckduel", "format": "swiss", "rounds_planned": 3,
    "games": 3, "clock": {"bank_ms": 180_000, "increment_ms": 2000}, "champion": None, "finished": False, "head": None,
    "entrants": [{"id": x, "rating": 25.0} for x in ("alice", "bob", "house:greedy#3")],
    "rounds": [
        {"round": 1,
         "pairings": [{"a": "alice", "b": "house:greedy#3", "set_id": "s1"}, {"a": "bob", "b": None, "set_id": None}],
         "results": [
             {"a": "alice", "b": "house:greedy#3", "points_a": 1, "points_b": 1, "set_id": "s1", "tiebreaks": []},
             {"a": "bob", "b": None, "points_a": 2, "points_b": 0, "set_id": None, "tiebreaks": []}]},
        {"round": 2,
         "pairings": [{"a": "bob", "b": "alice", "set_id": "s2"}, {"a": "house:greedy#3", "b": None, "set_id": None}],
         "results": None}],
    "standings": [{"id": "bob", "rank": 1, "points": 2, "buchholz": 0, "sonneborn_berger": 0, "wins": 0},
                  {"id": "alice", "rank": 2, "points": 1, "buchholz": 1, "sonneborn_berger": 1, "wins": 0},
                  {"id": "house:greedy#3", "rank": 3, "points": 1, "buchholz": 1, "sonneborn_berger": 1, "wins": 0}],
}


def test_a_tournament_under_way_shows_draws_byes_and_the_round_being_played(page: Any, server: str) -> None:
    # given the API's answer for a Swiss tournament in round 2 of 3
    page.route(f"{server}/tournaments/spring", lambda route: route.fulfill(json=RUNNING))
    # when its page opens
    errors = open_info(page, f"{server}/viewer/tournaments/spring", "#rounds .pairing")
    # then it is in progress, with no champion yet, 2 rounds of 3 paired
    assert page.locator("#status-badge").inner_text() == "in progress"
    assert page.locator(".champion-banner").count() == 0
    assert texts(page, ".info-head .fact") == ["rulesetdeckduel", "formatswiss", "entrants3", "rounds2 of 3",
                                               "games a pairing3", "clock3:00 + 2.0 s"]
    # and the standings so far: bob's bye is 2 half-points = 1 point; alice's draw 1 = 0.5,
    # her Buchholz (her opponent's 1 half-point) 0.5, her SB (1 x 1 quarter) 0.25
    assert rows(page, "standings") == [["1", "bob", "1", "0", "0", "0"], ["2", "alice", "0.5", "0.5", "0.25", "0"],
                                       ["3", "house:greedy#3", "0.5", "0.5", "0.25", "0"]]
    # and registered entrants link their player pages, the house entrant none
    assert attrs(page, "#standings a.entrant", "href") == ["/viewer/players/bob", "/viewer/players/alice"]
    # and round 1 shows the draw as ½ – ½ and bob's bye; round 2 is being played
    assert texts(page, '.round[data-round="1"] .result') == ["½ – ½", "+1"]
    assert texts(page, '.round[data-round="1"] .bye-mark') == ["bye"]
    assert texts(page, ".round h3") == ["Round 1", "Round 2 · playing"]
    assert texts(page, '.round[data-round="2"] .result') == ["playing", ""]
    assert attrs(page, '.round[data-round="2"] a.set-link', "href") == ["/viewer/sets/s2"]
    assert errors == []


LINKS = """async () => {
  const { entrantLink, playerLink } = await import("/viewer/assets/pages.js");
  const look = (node) => [node.tagName, node.getAttribute("href"), node.textContent];
  return [entrantLink("alice"), entrantLink("house:greedy#3"), playerLink({ bot: "random" }), playerLink("bob#1")]
    .map(look);
}"""


def test_a_registered_entrant_links_its_player_page_and_a_house_entrant_none(page: Any, server: str) -> None:
    page.goto(f"{server}/viewer/")
    assert page.evaluate(LINKS) == [["A", "/viewer/players/alice", "alice"], ["SPAN", None, "house:greedy#3"],
                                    ["A", "/viewer/players/house%3Arandom", "house random"],
                                    ["A", "/viewer/players/bob%231", "bob#1"]]


def test_an_entrants_page_lists_the_tournaments_it_entered_linked_to_them(page: Any, server: str, http: Any,
                                                                          tournaments: dict[str, str]) -> None:
    # given the first entrant of the Swiss tournament, once the views have taken it in
    entrant = read(http, f"/tournaments/{tournaments['swiss']}")["entrants"][0]["id"]
    wait_until(lambda: http.get(f"/players/{entrant.replace('#', '%23')}").status_code == 200
               and read(http, f"/players/{entrant.replace('#', '%23')}")["tournaments"], what="the entrant's history")
    # when its page opens
    errors = open_info(page, f"{server}/viewer/players/{entrant.replace('#', '%23')}", "#player-tournaments tbody tr")
    # then both tournaments it entered (house:greedy#1 is in each) are listed in order, linked to their pages
    assert attrs(page, "#player-tournaments tbody tr a", "href") == [
        f"/viewer/tournaments/{tournaments['swiss']}", f"/viewer/tournaments/{tournaments['elimination']}"]
    assert [row[1:3] for row in rows(page, "player-tournaments")] == [["deckduel", "swiss"],
                                                                       ["deckduel", "elimination"]]
    assert errors == []
