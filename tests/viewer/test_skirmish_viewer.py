"""A skirmish battle in the viewer (seed 001, a tactical card game on tiles): the board as a
grid with each character on its tile in its seat's colour, its class, its damage against its
armor as text and a bar, its effects as chips named as the content names them, rocks as
rocks; each seat's AP, Storm counter, hand, deck and discard counts; fainted characters
listed off the board. While the battle runs, no card a hand holds reaches the spectator's
page (nor the other seat's), and a seat sees its own hand face-up.

The battle is played by two greedy bots from fixed seeds on the Ruins board (it has rocks)
until, in combat, a character on the board has an effect and one has fainted. What the bots
did is not pinned: every check reads the view the server sends and the content it serves.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import httpx
import pytest

from domain.ai import get_policy
from domain.ai.match import bot_choice, seeded_bytes
from domain.battles import Battles
from domain.engine.rng import Rng
from domain.engine.ruleset import get_ruleset

from ..api.helpers import auth
from ..api.server import ROOT
from .helpers import open_battle as open_page
from .helpers import position, shot

SCREENSHOT = ROOT / "docs" / "screenshots" / "skirmish-viewer.png"
PLAYERS = {"p1": "alice", "p2": "bob"}
SETUP = {"mode": "duel", "board": "ruins", "p1": {"team": ["ember", "cinder", "flint", "sigil"]},
         "p2": {"team": ["wisp", "sable", "thorn", "brick"]}}


def in_combat_with_effect_and_fainted(game: Any) -> bool:
    units = game.units.values()
    return game.phase == "combat" and any(u.on_board and u.chips for u in units) and any(u.fainted for u in units)


def play(battles: Battles, battle_id: str, ready: Callable[[Any], bool]) -> None:
    """Greedy bots play every seat, each from its own view, until `ready` or the end."""
    ruleset = get_ruleset("skirmish")
    bot, rng = get_policy("greedy", "skirmish"), Rng(seeded_bytes(1, "bots"))
    while True:
        state = battles.load(battle_id)
        if state.outcome is not None or ready(state.game):
            return
        seat = sorted(ruleset.awaiting(state.game))[0]
        choice = bot_choice(bot, ruleset, state.game, seat, ruleset.legal_commands(state.game, seat), rng)
        battles.submit(battle_id, seat, choice if isinstance(choice, Mapping) else ruleset.codec.wire(choice))


@pytest.fixture(scope="module")
def skirmish_live(db_file, server) -> dict[str, Any]:
    """The battle in the server's store, still running, in combat."""
    with Battles(db_file) as battles:
        created = battles.create("skirmish", PLAYERS, SETUP, revealed=seeded_bytes(1, "viewer"))
        play(battles, created.battle_id, in_combat_with_effect_and_fainted)
        assert battles.load(created.battle_id).outcome is None
    return {"battle_id": created.battle_id, "tokens": created.seat_tokens}


@pytest.fixture(scope="module")
def content(server) -> dict[str, Any]:
    rulesets = httpx.get(f"{server}/rulesets", timeout=10).json()["rulesets"]
    return next(r for r in rulesets if r["id"] == "skirmish")["content"]


def state_at(http, battle_id: str, seq: int, token: str | None = None) -> dict:
    answer = http.get(f"/battles/{battle_id}/at/{seq}", headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    return answer.json()["state"]


def events_of(http, battle_id: str, token: str | None = None) -> list[dict]:
    return http.get(f"/battles/{battle_id}/events", headers=auth(token) if token else {}).json()["events"]


def shown(page, seq: int) -> None:
    """Wait until the panel shows the view at `seq`, with the content's names."""
    page.wait_for_selector(f'#state[data-seq="{seq}"] .skirmish-view[data-names="content"]')
    assert position(page)[0] == seq


def tile(page, unit: str):
    return page.locator(f'.sk-board .sk-tile[data-unit="{unit}"]')


def seat_panel(page, seat: str):
    return page.locator(f'.sk-seat[data-seat="{seat}"]')


def chips(page, unit: str) -> list[str]:
    return tile(page, unit).locator(".sk-effect").all_inner_texts()


def assert_board(page, view: dict, content: dict) -> None:
    """Every tile in order: a character's key where the view has it, rocks as rocks."""
    shown_tiles = page.locator(".sk-board .sk-tile").evaluate_all(
        "ts => ts.map(t => [t.dataset.cell, t.dataset.unit ?? '', t.classList.contains('rock')])")
    wanted = [[f"{c},{r}", value if value not in ("", "#") else "", value == "#"]
              for r, row in enumerate(view["tiles"]) for c, value in enumerate(row)]
    assert shown_tiles == wanted
    seats = list(view["seats"])
    for key, u in view["units"].items():
        on_board = u["cell"] is not None and not u["fainted"]
        assert tile(page, key).count() == (1 if on_board else 0), key
        if not on_board:
            continue
        shown_tile = tile(page, key)
        assert shown_tile.get_attribute("data-cell") == f"{u['cell'][0]},{u['cell'][1]}"
        assert f"seat-{seats.index(u['seat'])}" in shown_tile.get_attribute("class")
        assert shown_tile.locator(".sk-name").inner_text() == content["characters"][u["character"]]["name"]
        assert shown_tile.locator(".sk-class").inner_text() == content["classes"][u["class"]]["name"]
        assert shown_tile.locator(".sk-dmg").inner_text() == f"{u['damage']}/{u['armor']}", key
        assert shown_tile.locator(".sk-power").inner_text() == f"pow {u['power']}", key
        left = max(0, u["armor"] - u["damage"]) / u["armor"]
        width = shown_tile.locator(".bar-fill").evaluate("f => parseFloat(f.style.width)")
        assert width == pytest.approx(100 * left, abs=0.05), key
        assert chips(page, key) == [content["effects"][kind]["name"] for kind in u["effects"]], key


def assert_seats(page, view: dict, content: dict) -> None:
    """Each seat's AP, Storm, pile counts, its hand (face-up only where the view has it) and
    the characters off the board."""
    for seat, part in view["seats"].items():
        panel = seat_panel(page, seat)
        assert panel.locator(".sk-ap .v").inner_text() == f"{part['ap']}/{part['max_ap']}"
        assert panel.locator(".sk-ap .sk-pip.full").count() == part["ap"]
        assert panel.locator(".sk-storm .v").inner_text() == str(part["storm"])
        for pile, count in (("hand", part["hand_count"]), ("deck", part["deck_count"]),
                            ("discard", len(part["discard"]))):
            assert panel.locator(f'[data-pile="{pile}"] .count').inner_text() == str(count), (seat, pile)
        hand = panel.locator('[data-pile="hand"]')
        if part["hand"] is None:
            assert hand.locator(".card.face").count() == 0
            assert " ".join(hand.locator(".card.back").inner_text().split()) == f"▦ ×{part['hand_count']}"
        else:
            assert hand.locator(".card.face").evaluate_all("cs => cs.map(c => c.dataset.card)") == part["hand"]
            names = hand.locator(".card.face .sk-card-name").all_inner_texts()
            assert names == [content["cards"][c]["name"] for c in part["hand"]]
        fainted = [k for k, u in view["units"].items() if u["seat"] == seat and u["fainted"]]
        assert panel.locator(".sk-off.fainted").evaluate_all("ls => ls.map(l => l.dataset.unit)") == fainted


def assert_shows(page, view: dict, content: dict) -> None:
    assert_board(page, view, content)
    assert_seats(page, view, content)
    facts = page.locator(".headline .fact").evaluate_all(
        "fs => Object.fromEntries(fs.map(f => [f.querySelector('.k').textContent, f.querySelector('.v').textContent]))")
    assert (facts["turn"], facts["round"], facts["mode"]) == (str(view["turn"]), str(view["round"]), "Duel")


def secret_cards(db_file: str, battle_id: str, seats: tuple[str, ...], public: str) -> set[str]:
    """The cards `seats` hold that nothing this viewer may see names (a discard, a card played)."""
    with Battles(db_file) as battles:
        game = battles.load(battle_id).game
    return {card for seat in seats for card in game.player(seat).hand if not re.search(rf"\b{card}\b", public)}


def assert_no_secret_cards(page, secrets: set[str], content: dict) -> None:
    html = page.content()
    for card in secrets:
        assert card not in html, card
        assert content["cards"][card]["name"] not in html, card


def test_a_running_skirmish_as_the_spectator(page, server, http, db_file, skirmish_live, content):
    bid = skirmish_live["battle_id"]
    head = http.get(f"/battles/{bid}").json()["seq"]
    view = state_at(http, bid, head)
    assert view["phase"] == "combat" and view["board"]["id"] == "ruins"
    with_effects = {k: u for k, u in view["units"].items() if u["effects"] and u["cell"] and not u["fainted"]}
    fainted = [k for k, u in view["units"].items() if u["fainted"]]
    assert with_effects and fainted
    assert all(part["hand"] is None for part in view["seats"].values())

    # when the spectator opens the running battle, at its head
    open_page(page, server, bid)
    shown(page, head)
    assert page.locator("#status-badge").inner_text() == "live"
    # then the board has every character on its tile, rocks as rocks, numbers and chips
    assert_shows(page, view, content)
    assert page.locator(".sk-board .sk-tile.rock").count() == sum(row.count("#") for row in view["tiles"])
    for key, u in with_effects.items():
        assert chips(page, key) == [content["effects"][kind]["name"] for kind in u["effects"]]
        kinds = tile(page, key).locator(".sk-effect").evaluate_all("cs => cs.map(c => c.dataset.kind)")
        assert kinds == u["effects"]
    # the fainted are listed off the board, on their seat's panel, with their damage
    for key in fainted:
        u = view["units"][key]
        listed = seat_panel(page, u["seat"]).locator(f'.sk-off.fainted[data-unit="{key}"]')
        assert listed.locator(".sk-name").inner_text() == content["characters"][u["character"]]["name"]
        assert listed.locator(".sk-dmg").inner_text() == f"{u['damage']}/{u['armor']}"
    assert "to act" in seat_panel(page, view["active"]).locator(".side-head").inner_text()
    # and no card a hand holds reaches the page
    public = json.dumps([view, events_of(http, bid)])
    secrets = secret_cards(db_file, bid, ("p1", "p2"), public)
    assert secrets
    assert_no_secret_cards(page, secrets, content)
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))

    # when it seeks, by the event log, to the moment the last effect was given: it shows then
    events = events_of(http, bid)
    given = [e for e in events if e["type"] == "skirmish.EffectGiven"][-1]
    page.locator(f'#log-list li[data-seq="{given["seq"]}"]').click()
    shown(page, given["seq"])
    then = state_at(http, bid, given["seq"])
    assert given["data"]["effect"] in then["units"][given["data"]["unit"]]["effects"]
    assert_shows(page, then, content)
    # and one event before it, the chip is not there yet
    page.keyboard.press("ArrowLeft")
    shown(page, given["seq"] - 1)
    before = state_at(http, bid, given["seq"] - 1)
    assert given["data"]["effect"] not in before["units"][given["data"]["unit"]]["effects"]
    assert_shows(page, before, content)
    assert content["effects"][given["data"]["effect"]]["name"] not in chips(page, given["data"]["unit"])
    assert_no_secret_cards(page, secrets, content)


def test_a_running_skirmish_as_a_seat(page, server, http, db_file, skirmish_live, content):
    bid, token = skirmish_live["battle_id"], skirmish_live["tokens"]["p1"]
    head = http.get(f"/battles/{bid}").json()["seq"]
    mine = state_at(http, bid, head, token)
    assert mine["seats"]["p1"]["hand"] is not None and mine["seats"]["p2"]["hand"] is None
    # when p1 opens the battle with its token
    open_page(page, server, bid, token=token)
    shown(page, head)
    assert page.locator("#perspective").input_value() == "p1"
    # then its own hand is face-up with the cards' names and costs, the other's face-down
    assert_shows(page, mine, content)
    costs = seat_panel(page, "p1").locator('[data-pile="hand"] .sk-cost').all_inner_texts()
    assert costs == [str(content["cards"][c]["cost"]) for c in mine["seats"]["p1"]["hand"]]
    public = json.dumps([mine, events_of(http, bid, token)])
    assert_no_secret_cards(page, secret_cards(db_file, bid, ("p2",), public), content)
    shot(page, "skirmish-live-as-p1")


# A made-up raid moment, for what the bots' duel may not show: a boss, a character that will
# return (Second Chance), one not fielded, a seat's own placements before they are revealed.
def unit(seat: str, character: str, cls: str, cell: list[int] | None, **more: Any) -> dict[str, Any]:
    return {"seat": seat, "character": character, "class": cls, "ranged": cls in ("caster", "ranger"),
            "boss": False, "power": 14, "armor": 70, "damage": 0, "talent": "last_will", "effects": [],
            "fielded": True, "cell": cell, "fainted": False, "returning": False, "moved": False,
            "attacked": False, "countered": False, **more}


SEAT = {"ap": 4, "max_ap": 6, "storm": 2, "deck_count": 20, "hand_count": 2, "hand": None,
        "discard": ["fighter_skill"], "placed": 3, "placements": None}
RAID = {"battle_id": "b", "ruleset": "skirmish", "seq": 90, "players": {"p1": "ann", "p2": {"bot": "greedy"}},
        "outcome": None,
        "state": {"mode": "raid", "phase": "combat", "turn": 6, "round": 3, "active": "p2", "first_player": "p1",
                  "awaiting": ["p2"], "board": {"id": "colosseum", "name": "Colosseum", "width": 3, "height": 2},
                  "tiles": [["p1.sable", "#", ""], ["", "p2.tempest_wyrm", ""]],
                  "units": {"p1.sable": unit("p1", "sable", "ranger", [0, 0], damage=12, moved=True),
                            "p1.brick": unit("p1", "brick", "fighter", None, fainted=True, returning=True,
                                             damage=95, armor=90),
                            "p1.quill": unit("p1", "quill", "caster", None, fielded=False),
                            "p2.tempest_wyrm": unit("p2", "tempest_wyrm", "caster", [1, 1], boss=True, power=20,
                                                    armor=300, damage=40, effects=["fortified", "concealed"])},
                  "seats": {"p1": {**SEAT, "hand": ["kindle", "not_a_card"]}, "p2": SEAT}}}
PLACING = {**RAID, "state": {**RAID["state"], "phase": "place", "turn": 0, "round": 0, "active": None,
                             "tiles": [["", "#", ""], ["", "", ""]],
                             "units": {**RAID["state"]["units"], "p1.sable": unit("p1", "sable", "ranger", None),
                                       "p2.tempest_wyrm": unit("p2", "tempest_wyrm", "caster", None, boss=True)},
                             "seats": {"p1": {**SEAT, "placements": {"sable": [2, 0]}}, "p2": SEAT}}}
RENDER = """async (view) => {
  const { renderView } = await import("/viewer/assets/render.js");
  const { hintsFor, loadGame } = await import("/viewer/assets/games.js");
  await loadGame("skirmish");
  document.querySelector("#list-page").hidden = false;
  document.querySelector("#list-page").replaceChildren(renderView(view, hintsFor("skirmish")));
}"""


def test_a_boss_the_returning_the_bench_and_placements(page, server, content):
    page.goto(f"{server}/viewer/")
    page.evaluate(RENDER, RAID)
    page.wait_for_selector('.skirmish-view[data-names="content"]')
    wyrm = tile(page, "p2.tempest_wyrm")
    assert wyrm.locator(".sk-name").inner_text() == "Tempest Wyrm" and wyrm.locator(".sk-boss").count() == 1
    assert chips(page, "p2.tempest_wyrm") == ["Fortified", "Concealed"]
    assert "lasts-timed" in wyrm.locator('.sk-effect[data-kind="concealed"]').get_attribute("class")
    assert wyrm.locator(".sk-dmg").inner_text() == "40/300"
    assert tile(page, "p1.sable").locator('.sk-mark[data-mark="moved"]').count() == 1
    p1 = seat_panel(page, "p1")
    brick = p1.locator('.sk-off.fainted[data-unit="p1.brick"]')
    assert brick.locator(".sk-dmg").inner_text() == "95/90" and "returns next turn" in brick.inner_text()
    assert p1.locator('.sk-off.bench[data-unit="p1.quill"] .sk-name').inner_text() == "Quill"
    assert p1.locator('[data-pile="hand"] .sk-card-name').all_inner_texts() == ["Kindle", "Not A Card"]
    assert p1.locator('[data-pile="hand"] .sk-cost').all_inner_texts() == ["1"]
    assert p1.locator('[data-pile="discard"] .sk-card-name').inner_text() == "Challenge"
    assert p1.locator(".sk-storm .v").inner_text() == "2"
    assert seat_panel(page, "p2").locator(".player-name").inner_text() == "house greedy"
    assert "to act" in seat_panel(page, "p2").locator(".side-head").inner_text()
    shot(page, "skirmish-made-up")

    page.evaluate(RENDER, PLACING)
    page.wait_for_selector('.skirmish-view[data-names="content"] .sk-tile.ghost')
    ghost = page.locator('.sk-tile.ghost[data-cell="2,0"]')
    assert ghost.get_attribute("data-placed") == "p1.sable" and ghost.inner_text() == "Sable"
    assert "placement" in page.locator(".headline").inner_text()
    assert p1.locator('.sk-off.waiting[data-unit="p1.sable"]').count() == 1
    assert p1.locator(".sk-off-group.waiting .field-label").inner_text().startswith("TO PLACE")
