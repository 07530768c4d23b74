"""A battleboard battle in the viewer (seed 002, the 5x6 battle board): the 30 cells of terrain
(a class, colour and pattern per type, elevated terrain with its level), the thick border
between the heroes' rows and the foes' rows with each section labelled, every combatant on its
cell in its side's colour with its initial, name and rank, its defense tokens as filled
(untapped) and hollow (tapped) pips, its effect tokens as chips with counts and its focus and
energy; the defeated listed off the board, whose turn and which round, this turn's movement
paths as trails, a defense the battle waits for, and the last attack's dice with the hits lit,
the rerolls marked, the Attack Value against Defense and its band. Before the sides have
arranged, a cell the viewer may not see is null: the board is still drawn, the combatants are
listed off it, and a seat sees its own side's placements as ghosts.

The boss fight (three heroes against the Cinder Drake on the Volcanic Ridge) is played in the
server's store by greedy bots from fixed seeds, each combatant first taking a step onto a free
cell of its own section when it can (so its turn leaves a trail), until a while after a moment,
after several attacks, where a combatant on the board holds effect tokens and has both tapped
and untapped defense tokens; the page scrubs back to it. A second fight is stopped while the
sides arrange. What the bots did is not pinned: the test picks its moments from the views, and
every check reads the view the server sends and the content it serves.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx
import pytest

from domain.ai import get_policy
from domain.ai.match import bot_choice, seeded_bytes
from domain.battles import Battles
from domain.engine.events import Viewer
from domain.engine.rng import Rng
from domain.engine.ruleset import get_ruleset

from ..api.helpers import auth
from ..api.server import ROOT
from .helpers import open_battle as open_page
from .helpers import position, shot

SCREENSHOT = ROOT / "docs" / "screenshots" / "battleboard-viewer.png"
PLAYERS = {"h1": "alice", "h2": "bob", "h3": "carol", "gm": "gwen"}
SETUP = {"heroes": ["aria", "bram", "cass"], "encounter": "drake_lair"}
MIN_ATTACKS = 4             # the moment shown comes after at least this many attacks
MAX_DECISIONS = 3000
AFTER = 6                   # decisions played past the fullest moment, so the page scrubs back to it
STALE = 300                 # or past a lesser moment that nothing has bettered in this many decisions
CELL_H = 96                 # battleboard.js's cell height in px


def wanted_moment(view: Mapping[str, Any], attacks: int) -> tuple[bool, ...] | None:
    """None unless the view is a moment worth showing (after several attacks, a combatant on the
    board holds effect tokens and both kinds of defense token); else how much more it shows."""
    on_board = [u for u in view["combatants"] if u["cell"] and not u["defeated"]]
    if view["phase"] != "turn" or attacks < MIN_ATTACKS or view["last_attack"] is None:
        return None
    if not any(u["tokens"] and u["untapped"] and u["tapped"] for u in on_board):
        return None
    return (any(len(u["path"]) > 1 for u in on_board), any(u["defeated"] for u in view["combatants"]),
            bool(view["last_attack"]["rerolls"]), view["waiting_defense"] is not None, bool(view["stances"]))


def step_first(view: Mapping[str, Any], seat: str, legal: list[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """A step within its own section, onto a free cell, for the seat's first combatant that has
    neither moved nor acted this turn, if it has one."""
    if view["phase"] != "turn" or view["waiting_defense"] is not None:
        return None
    for u in view["combatants"]:
        if u["seat"] != seat or u["defeated"] or not u["cell"] or len(u["path"]) > 1 or u["taken"]:
            continue
        low, high = view["sections"][u["side"]]
        taken = [o["cell"] for o in view["combatants"] if o["cell"] and not o["defeated"]]
        for cmd in legal:
            if cmd["type"] == "move" and cmd["unit"] == u["id"] and low <= cmd["to"][1] <= high \
                    and list(cmd["to"]) not in taken:
                return cmd
    return None


def next_command(ruleset: Any, game: Any, bot: Any, rng: Rng) -> tuple[str, Mapping[str, Any]]:
    """The first awaited seat, and what it plays: a step first where it can, else the bot's pick."""
    seat = sorted(ruleset.awaiting(game))[0]
    legal = ruleset.legal_commands(game, seat)
    choice = step_first(ruleset.view(game, Viewer(seat=seat)), seat, [ruleset.codec.wire(c) for c in legal])
    if choice is None:
        choice = bot_choice(bot, ruleset, game, seat, legal, rng)
    return seat, choice if isinstance(choice, Mapping) else ruleset.codec.wire(choice)


def play(battles: Battles, battle_id: str) -> dict[str, Any]:
    """Greedy bots play every seat, each from its own view, stepping first where they can, until
    a while after the fullest moment (or after one nothing betters for a while), or the end.
    Returns that moment's seq."""
    ruleset = get_ruleset("battleboard")
    bot, rng = get_policy("greedy", "battleboard"), Rng(seeded_bytes(2, "bots"))
    best: tuple[tuple[bool, ...], int] | None = None
    attacks, left, since = 0, None, 0
    for _ in range(MAX_DECISIONS):
        state = battles.load(battle_id)
        game = state.game
        score = wanted_moment(ruleset.view(game, Viewer()), attacks)
        if score is not None and (best is None or sum(score) > sum(best[0])):
            best, since = (score, state.seq), 0
            left = AFTER if all(score) else None
        if state.outcome is not None or left == 0 or (best is not None and since >= STALE):
            break
        left = None if left is None else left - 1
        since += 1
        done = battles.submit(battle_id, *next_command(ruleset, game, bot, rng))
        attacks += sum(1 for rec in done.records if rec.event.TOPIC == "battleboard.DiceRolled")
    assert best is not None, "no moment with effect tokens and tapped defense tokens after several attacks"
    return {"moment": best[1], "score": best[0]}


@pytest.fixture(scope="module")
def battleboard_live(db_file, server) -> dict[str, Any]:
    """The boss fight in the server's store, played a little past its fullest moment."""
    with Battles(db_file) as battles:
        created = battles.create("battleboard", PLAYERS, SETUP, revealed=seeded_bytes(2, "viewer"))
        played = play(battles, created.battle_id)
    return {"battle_id": created.battle_id, "tokens": created.seat_tokens, **played}


@pytest.fixture(scope="module")
def battleboard_arranging(db_file, server) -> dict[str, Any]:
    """Another boss fight, stopped while it is arranged: one side has placed all its combatants,
    the other some of them, and nothing is revealed yet."""
    ruleset = get_ruleset("battleboard")
    bot, rng = get_policy("greedy", "battleboard"), Rng(seeded_bytes(3, "bots"))
    with Battles(db_file) as battles:
        created = battles.create("battleboard", PLAYERS, SETUP, revealed=seeded_bytes(3, "viewer"))
        for _ in range(MAX_DECISIONS):
            state = battles.load(created.battle_id)
            game = state.game
            assert state.outcome is None and game.phase in ("order", "arrange"), "revealed before both sides placed"
            if {game.units[k].side for k in game.placed} == {"heroes", "foes"}:
                break
            battles.submit(created.battle_id, *next_command(ruleset, game, bot, rng))
    return {"battle_id": created.battle_id, "tokens": created.seat_tokens, "seq": state.seq}


@pytest.fixture(scope="module")
def content(server) -> dict[str, Any]:
    rulesets = httpx.get(f"{server}/rulesets", timeout=10).json()["rulesets"]
    return next(r for r in rulesets if r["id"] == "battleboard")["content"]


def state_at(http, battle_id: str, seq: int, token: str | None = None) -> dict:
    answer = http.get(f"/battles/{battle_id}/at/{seq}", headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    return answer.json()["state"]


def shown(page, seq: int) -> None:
    """Wait until the panel shows the view at `seq`, with the content's names."""
    page.wait_for_selector(f'#state[data-seq="{seq}"] .battleboard-view[data-names="content"]')
    assert position(page)[0] == seq


def scrub(page, seq: int) -> None:
    page.locator("#scrubber").fill(str(seq))
    shown(page, seq)


def unit_card(page, unit: str):
    return page.locator(f'.bb-board .bb-unit[data-unit="{unit}"]')


def final_dice(attack: Mapping[str, Any]) -> list[int]:
    dice = list(attack["dice"])
    for index, value in attack["rerolls"]:
        dice[index] = value
    return dice


def board_digest(page) -> list:
    """Each cell with its terrain and who stands there: what two viewers must see alike."""
    return page.locator(".bb-board .bb-cell").evaluate_all(
        "cs => cs.map(c => [c.dataset.cell, c.dataset.terrain, c.dataset.level,"
        " [...c.querySelectorAll('.bb-unit')].map(u => [u.dataset.unit, u.querySelectorAll('.bb-pip.untapped').length,"
        " u.querySelectorAll('.bb-pip.tapped').length, u.querySelectorAll('.bb-effect').length])])")


def assert_board(page, view: dict) -> None:
    """All 30 cells in reading order with their terrain, the border and the section labels."""
    cells = page.locator(".bb-board .bb-cell").evaluate_all(
        "cs => cs.map(c => [c.dataset.cell, c.dataset.terrain, Number(c.dataset.level),"
        " [...c.classList].filter(k => k.startsWith('t-'))])")
    wanted = [[f"{c},{r}", t["terrain"], t["level"], [f"t-{t['terrain']}"]]
              for r, row in enumerate(view["tiles"]) for c, t in enumerate(row)]
    assert len(cells) == 30 and cells == wanted
    elevated = page.locator(".bb-board .bb-cell.t-elevated")
    assert elevated.locator(".bb-terrain").all_inner_texts() == [
        f"▲{t['level']}" for row in view["tiles"] for t in row if t["terrain"] == "elevated"]
    border = page.locator(".bb-board .bb-border")
    assert border.count() == 1 and border.get_attribute("data-border") == str(view["border"])
    assert border.evaluate("b => b.offsetTop + b.offsetHeight / 2") == pytest.approx(view["border"] * CELL_H, abs=1.5)
    assert border.evaluate("b => b.offsetHeight") >= 4 and border.is_visible()
    for side, (low, high) in view["sections"].items():
        band = page.locator(f'.bb-band[data-side="{side}"]')
        assert band.get_attribute("data-rows") == f"{low}-{high}"
        assert band.locator(".bb-band-name").inner_text().lower() == side
        box = band.bounding_box()
        assert box["height"] == pytest.approx((high - low + 1) * CELL_H, abs=2)


def assert_combatants(page, view: dict, content: dict) -> None:
    """Each combatant on its cell with its side, name, rank, pips, chips, focus and energy; the
    defeated (and those not on the board) listed off it."""
    for u in view["combatants"]:
        card = unit_card(page, u["id"])
        if u["defeated"] or not u["cell"]:
            assert card.count() == 0, u["id"]
            group = "defeated" if u["defeated"] else "waiting"
            assert page.locator(f'.bb-off-group.{group} .bb-off-item[data-unit="{u["id"]}"]').count() == 1, u["id"]
            continue
        assert card.count() == 1, u["id"]
        assert card.evaluate("u => u.closest('.bb-cell').dataset.cell") == f"{u['cell'][0]},{u['cell'][1]}"
        assert f"side-{u['side']}" in card.get_attribute("class")
        assert card.locator(".bb-name").inner_text() == u["name"]
        assert card.locator(".bb-initial").inner_text().startswith(u["name"][0])
        if u["rank"] != "character":
            assert u["rank"] in card.locator(".bb-rank").text_content()
        assert card.locator(".bb-pip.untapped").count() == u["untapped"], u["id"]
        assert card.locator(".bb-pip.tapped").count() == u["tapped"], u["id"]
        if u.get("untaps_left") is not None:
            assert f"{u['untaps_left']} more may be untapped this round" in card.get_attribute("title"), u["id"]
        chips = card.locator(".bb-effect").evaluate_all(
            "cs => cs.map(c => [c.dataset.kind, c.querySelector('.bb-effect-name').textContent,"
            " c.querySelector('.bb-effect-n').textContent])")
        assert chips == [[k, content["tokens"][k]["name"], f"×{n}"] for k, n in u["tokens"].items() if n], u["id"]
        for stat, value, has in (("focus", u["focus"], u["focus_stat"] or u["focus"]),
                                 ("energy", u["energy"], u["energy_stat"] or u["energy"])):
            shown_stat = card.locator(f'[data-stat="{stat}"]')
            assert shown_stat.count() == (1 if has else 0), (u["id"], stat)
            if has:
                assert shown_stat.inner_text().split()[-1] == str(value), (u["id"], stat)
        trail = page.locator(f'.bb-overlay .bb-trail[data-unit="{u["id"]}"]')
        assert trail.count() == (1 if len(u["path"]) > 1 else 0), u["id"]
        if len(u["path"]) > 1:
            assert trail.get_attribute("data-steps") == str(len(u["path"]) - 1)
            assert trail.get_attribute("data-turn") == ("this-turn" if u["side"] == view["active"] else "last-turn")


def assert_attack(page, view: dict) -> None:
    """The last attack's dice as finally rolled, the hits lit, the rerolls marked, AV against
    Defense and the band."""
    attack = view["last_attack"]
    card = page.locator(".bb-card.bb-attack")
    names = {u["id"]: u["name"] for u in view["combatants"]}
    assert card.locator(".bb-who").all_inner_texts() == [names[attack["attacker"]], names[attack["target"]]]
    assert card.locator(".bb-expression").inner_text() == attack["expression"]
    dice = card.locator(".bb-die")
    assert dice.evaluate_all("ds => ds.map(d => Number(d.dataset.value))") == final_dice(attack)
    assert card.locator(".bb-die.hit").count() == attack["hits"]
    hit_values = card.locator(".bb-die.hit").evaluate_all("ds => ds.map(d => Number(d.dataset.value))")
    miss_values = card.locator(".bb-die.miss").evaluate_all("ds => ds.map(d => Number(d.dataset.value))")
    assert not hit_values or not miss_values or min(hit_values) > max(miss_values)
    rerolled = card.locator(".bb-die.rerolled").evaluate_all("ds => ds.map(d => Number(d.dataset.was))")
    assert rerolled == [attack["dice"][i] for i, _ in sorted(attack["rerolls"])]
    assert card.locator(".bb-die-reroll").count() == len(attack["rerolls"])
    assert card.locator(".bb-av").inner_text().split() == ["AV", str(attack["av"])]
    assert card.locator(".bb-defense-value").inner_text().split() == ["Defense", str(attack["defense"])]
    assert card.locator(".bb-band-result").inner_text().lower() == attack["band"]
    assert card.get_attribute("data-band") == attack["band"]


def assert_turn(page, view: dict, content: dict) -> None:
    facts = page.locator(".headline .fact").evaluate_all(
        "fs => Object.fromEntries(fs.map(f => [f.querySelector('.k').textContent, f.querySelector('.v').textContent]))")
    assert (facts["round"], facts["turn"], facts["map"]) == (str(view["round"]), str(view["turn"]),
                                                             content["maps"][view["map"]]["name"])
    turn = page.locator(".bb-card.bb-turn")
    if view["active"]:
        assert turn.get_attribute("data-active") == view["active"]
        assert turn.locator(".bb-turn-side").inner_text().lower().startswith(f"{view['active']} to act")
    waiting = page.locator(".bb-card.bb-waiting")
    if view["waiting_defense"] is None:
        assert waiting.count() == 0
    else:
        assert waiting.get_attribute("data-unit") == view["waiting_defense"]["unit"]
        assert f"AV {view['waiting_defense']['av']}" in waiting.inner_text()
        assert "defending" in unit_card(page, view["waiting_defense"]["unit"]).get_attribute("class")


def assert_shows(page, view: dict, content: dict) -> None:
    assert_board(page, view)
    assert_combatants(page, view, content)
    assert_turn(page, view, content)
    if view["last_attack"] is not None:
        assert_attack(page, view)


def test_a_running_battleboard_scrubbed_to_a_moment_after_several_attacks(page, server, http, battleboard_live,
                                                                           content):
    bid, moment = battleboard_live["battle_id"], battleboard_live["moment"]
    head = http.get(f"/battles/{bid}").json()["seq"]
    view = state_at(http, bid, moment)
    holders = [u for u in view["combatants"] if u["cell"] and not u["defeated"] and u["tokens"]
               and u["untapped"] and u["tapped"]]
    assert holders and view["last_attack"] is not None and moment < head
    terrains = {t["terrain"] for row in view["tiles"] for t in row}
    assert len(terrains) >= 3
    ended = http.get(f"/battles/{bid}").json()["outcome"] is not None

    # when the spectator opens the running battle, at its head
    open_page(page, server, bid)
    shown(page, head)
    assert page.locator("#status-badge").inner_text() == ("ended" if ended else "live")
    assert_shows(page, state_at(http, bid, head), content)
    # and scrubs the timeline back to the moment
    scrub(page, moment)
    # then the board, the combatants, the turn and the last attack are the view's
    assert_shows(page, view, content)
    assert {c for c in page.locator(".bb-board .bb-cell").evaluate_all(
        "cs => cs.flatMap(c => [...c.classList].filter(k => k.startsWith('t-')))")} == {f"t-{t}" for t in terrains}
    # the holder's tokens: filled pips untapped, hollow pips tapped, chips with their counts
    holder = unit_card(page, holders[0]["id"])
    assert holder.locator(".bb-pip.untapped").count() == holders[0]["untapped"] > 0
    assert holder.locator(".bb-pip.tapped").count() == holders[0]["tapped"] > 0
    filled, hollow = (holder.locator(f".bb-pip.{kind}").first.evaluate("p => getComputedStyle(p).backgroundColor")
                      for kind in ("untapped", "tapped"))
    assert filled != hollow and hollow in ("rgba(0, 0, 0, 0)", "transparent")
    chips = holder.locator(".bb-effect").evaluate_all("cs => cs.map(c => c.textContent)")
    assert chips == [f"{content['tokens'][k]['name']} ×{n}" for k, n in holders[0]["tokens"].items() if n]
    # the last attack's dice are on the page, one per die
    assert page.locator(".bb-attack .bb-die").count() == len(view["last_attack"]["dice"]) > 0
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))

    # when a hero's seat opens the battle at the same moment, the layout is the same
    page.goto("about:blank")
    open_page(page, server, bid, query=f"?seq={moment}", token=battleboard_live["tokens"]["h1"])
    shown(page, moment)
    assert page.locator("#perspective").input_value() == "h1"
    assert state_at(http, bid, moment, battleboard_live["tokens"]["h1"])["combatants"] == view["combatants"]
    assert_shows(page, view, content)


def test_before_the_arrangement_is_revealed(page, server, http, battleboard_arranging, content):
    bid, seq = battleboard_arranging["battle_id"], battleboard_arranging["seq"]
    spectator = state_at(http, bid, seq)
    assert spectator["phase"] == "arrange" and all(u["cell"] is None for u in spectator["combatants"])

    # the spectator sees the board and its sections, and every combatant listed off it
    open_page(page, server, bid, query=f"?seq={seq}")
    shown(page, seq)
    assert_board(page, spectator)
    assert page.locator(".bb-board .bb-unit").count() == 0
    waiting = page.locator(".bb-off-group.waiting")
    assert waiting.locator(".field-label").inner_text().upper().startswith("NOT ON THE BOARD YET")
    assert waiting.locator(".bb-off-item").evaluate_all("ls => ls.map(l => l.dataset.unit)") == [
        u["id"] for u in spectator["combatants"]]
    assert page.locator(".bb-card.bb-attack .none").inner_text() == "no attack yet"

    # a seat sees its own side's placements, as ghosts, and nothing of the other side's
    ghosts = 0
    for seat in ("gm", "h1"):
        mine = state_at(http, bid, seq, battleboard_arranging["tokens"][seat])
        page.goto("about:blank")
        open_page(page, server, bid, query=f"?seq={seq}", token=battleboard_arranging["tokens"][seat])
        shown(page, seq)
        placed = {u["id"]: u["cell"] for u in mine["combatants"] if u["cell"]}
        side = "foes" if seat == "gm" else "heroes"
        assert all(u["side"] == side for u in mine["combatants"] if u["cell"])
        cards = page.locator(".bb-board .bb-unit").evaluate_all(
            "us => us.map(u => [u.dataset.unit, u.closest('.bb-cell').dataset.cell, u.classList.contains('placing')])")
        assert sorted(cards) == sorted([k, f"{c[0]},{c[1]}", True] for k, c in placed.items())
        ghosts += len(cards)
        shot(page, f"battleboard-arranging-as-{seat}")
    assert ghosts > 0


# A made-up moment, for what the bots' fight may not show: every terrain type, a boss with
# many tokens and a stance, a break with rerolls, a defense awaited, a row open to take; and a
# view with its fields null, as before anything is known.
TERRAINS = ["plain", "difficult", "challenging", "barrier", "hazardous", "obscuring", "liquid", "elevated"]


def combatant(uid: str, name: str, side: str, rank: str, cell: list[int] | None, **more: Any) -> dict[str, Any]:
    return {"id": uid, "name": name, "side": side, "seat": "gm" if side == "foes" else uid, "rank": rank,
            "cell": cell, "defeated": False, "placed": cell is not None, "speed": 4, "evasion": 5, "defense": 6,
            "resilience": 5, "focus_stat": 0, "energy_stat": 0, "untapped": 3, "tapped": 1, "tokens": {},
            "focus": 0, "energy": 0, "mp": 0, "teleport": 0, "movement": [], "lifted": False, "actions": [],
            "taken": [], "slots": 2, "doubled": False, "path": [cell] if cell else [], "build": {}, **more}


TILES = [[{"terrain": TERRAINS[(r * 5 + c) % 8], "level": 1 + (r + c) % 3 if TERRAINS[(r * 5 + c) % 8] == "elevated"
           else 0} for c in range(5)] for r in range(6)]
MADE_UP = {"battle_id": "b", "ruleset": "battleboard", "seq": 120, "outcome": None,
           "players": {"h1": "ann", "h2": "ben", "gm": {"bot": "greedy"}},
           "state": {"map": "volcanic_ridge", "tiles": TILES, "border": 4,
                     "sections": {"heroes": [0, 3], "foes": [4, 5]},
                     "phase": "turn", "round": 5, "turn": 9, "active": "heroes", "half": False, "first": "foes",
                     "fatigue": 0,
                     "done": ["h2"], "row_open": 4,
                     "combatants": [
                         combatant("h1", "Aria", "heroes", "character", [1, 3], focus_stat=6, focus=4, energy_stat=3,
                                   energy=1, mp=3, untapped=2, tapped=3, tokens={"poisoned": 2, "heroic": 1},
                                   taken=["strike"], path=[[1, 2], [2, 2], [2, 3], [1, 3]]),
                         combatant("h2", "Bram", "heroes", "character", None, defeated=True, untapped=0, tapped=0),
                         combatant("f1", "Cinder Drake", "foes", "boss", [2, 4], focus_stat=3, focus=1, energy_stat=6,
                                   energy=6, untapped=9, tapped=3, resilience=12, tokens={"vulnerable": 1}),
                         combatant("f2", "Goblin Archer", "foes", "mob", [4, 5]),
                         combatant("f3", "Goblin Archer", "foes", "mob", [0, 5], tokens={"weakened": 3})],
                     "stances": [{"unit": "f1", "stance": "shield_wall", "amount": 2}],
                     "waiting_defense": {"unit": "f1", "attacker": "h1", "action": "heavy_blow", "av": 13},
                     "last_attack": {"attacker": "h1", "target": "f1", "expression": "3d*4+1", "dice": [12, 2, 4],
                                     "rerolls": [[1, 9]], "hits": 3, "av": 13, "defense": 6, "band": "break"},
                     "result": None}}
NULLS = {**MADE_UP, "state": {"map": None, "tiles": [[None] * 5 for _ in range(6)], "border": None, "sections": None,
                              "phase": "order", "round": 0, "turn": 0, "active": None, "done": None,
                              "row_open": None, "stances": None, "waiting_defense": None, "last_attack": None,
                              "result": None,
                              "combatants": [{"id": "h1", "name": "Aria", "side": "heroes", "rank": "character",
                                              "cell": None, "defeated": False, "tokens": None, "path": None,
                                              "untapped": None, "tapped": None}]}}
RENDER = """async (view) => {
  const { renderView } = await import("/viewer/assets/render.js");
  const { hintsFor, loadGame } = await import("/viewer/assets/games.js");
  await loadGame("battleboard");
  document.querySelector("#list-page").hidden = false;
  document.querySelector("#list-page").replaceChildren(renderView(view, hintsFor("battleboard")));
}"""


def test_every_terrain_a_boss_a_break_and_null_fields(page, server, content):
    page.goto(f"{server}/viewer/")
    page.evaluate(RENDER, MADE_UP)
    page.wait_for_selector('.battleboard-view[data-names="content"]')
    classes = page.locator(".bb-board .bb-cell").evaluate_all(
        "cs => cs.map(c => [...c.classList].find(k => k.startsWith('t-')))")
    assert len(classes) == 30 and set(classes) == {f"t-{t}" for t in TERRAINS}
    colours = {page.locator(f".bb-cell.t-{t}").first.evaluate(
        "c => getComputedStyle(c).backgroundImage + getComputedStyle(c).backgroundColor") for t in TERRAINS}
    assert len(colours) == len(TERRAINS)
    levels = page.locator(".bb-cell.t-elevated .bb-terrain").all_inner_texts()
    assert levels == [f"▲{t['level']}" for row in TILES for t in row if t["terrain"] == "elevated"]
    # the border has moved: the heroes hold four rows, and the foes' row 4 is open to take
    assert page.locator(".bb-border").get_attribute("data-border") == "4"
    assert page.locator('.bb-band[data-side="heroes"] .bb-band-rows').inner_text() == "rows 0–3"
    assert page.locator('.bb-band[data-side="foes"] .bb-band-rows').inner_text() == "rows 4–5"
    assert page.locator(".bb-cell.row-open").count() == 5
    assert "Row 4 is open" in page.locator(".bb-row-open").inner_text()
    facts = page.locator(".bb-turn .fact").evaluate_all(
        "fs => fs.map(f => [f.children[0].textContent, f.children[1].textContent])")
    assert facts == [["round", "5"], ["first", "Foes"], ["done", "Bram"]]       # no fatigue before its round
    drake = unit_card(page, "f1")
    assert drake.locator(".bb-rank").text_content() == "♛boss" and "rank-boss" in drake.get_attribute("class")
    assert drake.locator(".bb-defense.many").count() == 1
    assert (drake.locator(".bb-pip.untapped").count(), drake.locator(".bb-pip.tapped").count()) == (9, 3)
    assert drake.locator(".bb-stance").inner_text() == "Shield Wall 2"
    assert "defending" in drake.get_attribute("class") and "target" in drake.get_attribute("class")
    assert drake.locator(".bb-effect").text_content() == "Vulnerable ×1"
    aria = unit_card(page, "h1")
    assert aria.locator(".bb-effect").evaluate_all("cs => cs.map(c => c.textContent)") == ["Poisoned ×2", "Heroic ×1"]
    assert "bad" in aria.locator('.bb-effect[data-kind="poisoned"]').get_attribute("class")
    assert "good" in aria.locator('.bb-effect[data-kind="heroic"]').get_attribute("class")
    assert aria.locator('[data-stat="focus"]').inner_text().split()[-1] == "4"
    assert aria.locator(".bb-act.taken").count() == 1 and aria.locator(".bb-act").count() == 2
    assert page.locator('.bb-trail[data-unit="h1"]').get_attribute("data-steps") == "3"
    assert page.locator(".bb-cell.on-trail.trail-heroes").count() == 4
    assert "attacker" in aria.get_attribute("class")
    archers = [page.locator(f'.bb-unit[data-unit="{k}"] .bb-initial').inner_text() for k in ("f2", "f3")]
    assert archers == ["G2", "G3"]
    assert unit_card(page, "f2").locator("[data-stat=focus], [data-stat=energy]").count() == 0      # a mob
    waiting = page.locator(".bb-waiting")
    assert " ".join(waiting.locator(".bb-waiting-line").inner_text().split()) == \
        "Cinder Drake takes AV 13 from Aria (Heavy Blow)"
    dice = page.locator(".bb-attack .bb-die")
    shown_dice = dice.evaluate_all(
        "ds => ds.map(d => [Number(d.dataset.value), d.classList.contains('hit'), d.dataset.was ?? null])")
    assert shown_dice == [[12, True, None], [9, True, "2"], [4, True, None]]
    assert page.locator(".bb-band-result.band-break").inner_text().lower() == "break"
    assert page.locator('.bb-off-item.defeated[data-unit="h2"] .bb-name').inner_text() == "Bram"
    shot(page, "battleboard-made-up")

    # in round 22 fatigue's toll is 3 (rounds 20, 21 and 22 at fatigue_toll 1): the turn card says so
    page.evaluate(RENDER, {**MADE_UP, "state": {**MADE_UP["state"], "round": 22, "fatigue": 3}})
    page.wait_for_selector('.bb-turn .fact:has-text("fatigue")')
    facts = page.locator(".bb-turn .fact").evaluate_all(
        "fs => fs.map(f => [f.children[0].textContent, f.children[1].textContent])")
    assert facts == [["round", "22"], ["first", "Foes"], ["fatigue", "3 tokens tapped a turn"], ["done", "Bram"]]

    # once the battle is over, the winning side is named
    won = {"winner": "heroes", "reason": "every combatant of the foes was defeated"}
    page.evaluate(RENDER, {**MADE_UP, "outcome": won})
    page.wait_for_selector('.battleboard-view[data-names="content"] .outcome')
    assert page.locator(".outcome").inner_text() == "Winner: Heroes (every combatant of the foes was defeated)"

    # a view with its fields null still draws: 30 cells, nobody on them, Aria off the board
    page.evaluate(RENDER, NULLS)
    page.wait_for_selector('.battleboard-view[data-names="content"] .bb-off-item[data-unit="h1"]')
    assert page.locator(".bb-board .bb-cell").count() == 30
    assert page.locator(".bb-board .bb-unit, .bb-border, .bb-band, .bb-trail").count() == 0
    assert page.locator(".bb-attack .none").inner_text() == "no attack yet"
    assert page.locator(".bb-waiting").count() == 0
    shot(page, "battleboard-nulls")
