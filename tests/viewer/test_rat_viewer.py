"""A rat battle in the viewer (seed 003, In-Battle UI): the priority queue as an ordered strip,
exact HP bars for the party, ANALYZE's level bar for an analyzed enemy and no bar at all for
the others, ailment chips with the turns they have left, KNOCKED_OUT loud, the dead greyed
and out of the queue, stat levels only where not 0. While the battle runs, an enemy's exact
HP never reaches the page of a spectator or of the party's seat; once it has ended its whole
history is public (the server's rule), so exact bars show then, and as omniscient.

The battle is scripted, and the rules' AI plays the enemies from a fixed seed. On turn 1 of
the back-alley fight Pip throws sand in the Cutpurse's eyes (BLINDED, 1 turn), Ash hits the
Stray Dog, Wren raises the party's SPD and Professor Hale ANALYZEs the Stray Dog: only what
those moves always do is pinned here; the rest is read from the views the server sends.
"""
from __future__ import annotations

import json
import re
from typing import Any

import pytest

from domain.ai.match import seeded_bytes
from domain.battles import Battles

from ..api.helpers import auth
from ..api.server import ROOT
from .helpers import open_battle as open_page
from .helpers import shot, shown

SCREENSHOT = ROOT / "docs" / "screenshots" / "rat-viewer.png"
PLAYERS = {"p1": "alice"}
SETUP = {"formation": "back_alley"}          # the default party: Ash, Pip, Wren, Professor Hale
# The party's actions on turn 1 (action, target); later turns, and anyone who cannot follow
# the script, STRIKE. The enemies are the rules' AI.
TURN_1 = {"rat": ("pocket_sand", "e2"), "mc": ("quick_jab", "e1"), "girl": ("tailwind", None),
          "prof": ("analyze", "e1")}


def play(battles: Battles, battle_id: str, until_turn: int | None = None) -> None:
    """The party's seat plays until turn `until_turn` starts, or to the end."""
    while True:
        state = battles.load(battle_id)
        if state.outcome is not None or state.game.turn == until_turn:
            return
        legal = battles.legal(battle_id, "p1", state)
        action, target = (TURN_1 if state.game.turn == 1 else {}).get(legal[0]["actor"], ("strike", None))
        wanted = {"type": "act", "actor": legal[0]["actor"], "action": action, "target": target, "move": None}
        strike = next(c for c in legal if c["action"] == "strike")
        battles.submit(battle_id, "p1", wanted if wanted in legal else strike)


@pytest.fixture(scope="module")
def rat_live(db_file, server) -> dict[str, Any]:
    """The scripted battle in the server's store, still running: turn 2 has just begun."""
    with Battles(db_file) as battles:
        created = battles.create("rat", PLAYERS, SETUP, revealed=seeded_bytes(3, "viewer"))
        play(battles, created.battle_id, until_turn=2)
    return {"battle_id": created.battle_id, "token": created.seat_tokens["p1"]}


def events_of(http, battle_id: str) -> list[dict]:
    return http.get(f"/battles/{battle_id}/events").json()["events"]


def seq_of(events: list[dict], kind: str, **data) -> int:
    """The first event of `kind` whose data has these values."""
    return next(e["seq"] for e in events if e["type"] == kind and all(e["data"].get(k) == v for k, v in data.items()))


def state_at(http, battle_id: str, seq: int, token: str | None = None, view_as: str | None = None) -> dict:
    answer = http.get(f"/battles/{battle_id}/at/{seq}", params={"as": view_as} if view_as else {},
                      headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    return answer.json()["state"]


def exact_hp(db_file: str, battle_id: str, seq: int) -> dict[str, tuple[int, int]]:
    """Each enemy's (hp, max_hp) at `seq`, from the battle's state itself."""
    with Battles(db_file) as battles:
        game = battles.load(battle_id, at=seq).game
    return {e.id: (e.hp, e.max_hp) for e in game.entities.values() if e.side == "enemies"}


def card(page, entity: str):
    return page.locator(f'.rat-entity[data-id="{entity}"]')


def queue_shown(page, which: str = "") -> list[str]:
    return page.locator(f".rat-queue .q-item{which}").evaluate_all("items => items.map(i => i.dataset.id)")


def chips(page, entity: str) -> list[str]:
    """An entity's ailment chips as shown: "BLINDED 1", "KNOCKED OUT"."""
    return [" ".join(text.split()) for text in card(page, entity).locator(".ailment").all_inner_texts()]


def chips_of(entity: dict) -> list[str]:
    """The chips an entity of a view should show."""
    return [" ".join([a["kind"].replace("_", " ").upper(), *([str(a["left"])] if a["left"] is not None else [])])
            for a in entity["ailments"]]


def numbers(value: Any) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", json.dumps(value))}


def assert_no_exact_enemy_hp(page, exact: dict[str, tuple[int, int]], public: dict) -> None:
    """No enemy's HP anywhere on the page (markup included: the state panel, the event log
    and the event detail): never "hp / max" nor "hp: n"; and no such number on the enemy's
    card, nor anywhere in the state panel, unless the viewer's own view (`public`) has that
    number for another reason (the turn, some PP, a party member's HP)."""
    html = page.content()
    panel = page.locator("#state").inner_text()
    enemies = {e["id"]: e for e in public["enemies"]}
    assert set(exact) == set(enemies)
    for entity, (hp, max_hp) in exact.items():
        assert not re.search(rf"\b{hp}\s*/\s*{max_hp}\b", html), (entity, hp, max_hp)
        found = re.search(rf"\bhp\W{{0,4}}{hp}\b", html, re.IGNORECASE)
        assert not found, (entity, hp, html[found.start() - 200:found.end() + 50])
        on_card = card(page, entity).inner_text()
        for number in {hp, max_hp} - numbers(enemies[entity]):
            assert not re.search(rf"\b{number}\b", on_card), (entity, number, on_card)
        for number in {hp, max_hp} - numbers(public):
            assert not re.search(rf"\b{number}\b", panel), (entity, number, panel)


def assert_shows(page, view: dict) -> None:
    """The page shows `view`: the queue in its order with who acted dimmed, each entity's HP
    as far as the view tells it, its ailment chips, its non-zero levels."""
    entities = {e["id"]: e for e in view["party"] + view["enemies"]}
    alive = [k for k in view["queue"] if not entities[k]["dead"]]
    assert queue_shown(page) == alive
    assert page.locator(".rat-queue .q-name").all_inner_texts() == [entities[k]["name"] for k in alive]
    assert queue_shown(page, ".acted") == [k for k in alive if k in view["acted"]]
    for key, e in entities.items():
        shown_card = card(page, key)
        assert chips(page, key) == chips_of(e), key
        levels = [f"{stat.upper()} {'+' if n > 0 else ''}{n}" for stat, n in e["levels"].items() if n and abs(n) < 4]
        assert sorted(shown_card.locator(".lvl[data-stat]").all_inner_texts()) == sorted(levels), key
        if "hp" in e:
            assert shown_card.locator(".bar.rat-hp.exact .bar-value").inner_text() == f"{e['hp']}/{e['max_hp']}", key
        elif e["hp_pct"] is not None:
            assert shown_card.locator(".bar.rat-hp.gauge .bar-value").inner_text() == f"{e['hp_pct']}%", key
        else:
            assert shown_card.locator(".bar, .bar-fill, .bar-track").count() == 0, key
        assert ("is-ko" in shown_card.get_attribute("class")) == e["ko"], key


def test_a_running_rat_battle_as_the_spectator(page, server, http, db_file, rat_live):
    bid = rat_live["battle_id"]
    events = events_of(http, bid)
    analyzed = seq_of(events, "rat.HpGauge", target="e1")
    view = state_at(http, bid, analyzed)
    by_id = {e["id"]: e for e in view["party"] + view["enemies"]}
    # the script did what those moves always do: the Stray Dog analyzed after being hit, the
    # others not, the Cutpurse blinded for 1 turn, the party's SPD a level up
    assert by_id["e1"]["analyzed"] and 0 <= by_id["e1"]["hp_pct"] < 100
    assert [e["id"] for e in view["enemies"] if e["analyzed"] or e["hp_pct"] is not None] == ["e1"]
    assert {"kind": "blinded", "left": 1} in by_id["e2"]["ailments"]
    assert by_id["mc"]["levels"]["spd"] == 1
    exact = exact_hp(db_file, bid, analyzed)
    assert by_id["e1"]["hp_pct"] == 100 * exact["e1"][0] // exact["e1"][1]

    # when the spectator opens the running battle, jumps to turn 1 and seeks, by the event
    # log, to the moment ANALYZE shows the Stray Dog's bar
    open_page(page, server, bid)
    assert page.locator("#status-badge").inner_text() == "live"
    turn_1 = seq_of(events, "rat.TurnStarted", turn=1)
    page.fill("#jump-turn", "1")
    page.press("#jump-turn", "Enter")
    shown(page, turn_1)
    assert queue_shown(page) == state_at(http, bid, turn_1)["queue"] and queue_shown(page, ".acted") == []
    page.locator(f'#log-list li[data-seq="{analyzed}"]').click()
    shown(page, analyzed)

    # then the queue strip lists every entity in the turn's order, those who acted dimmed
    assert_shows(page, view)
    assert len(queue_shown(page)) == 7 and "prof" in queue_shown(page, ".acted")
    dimmed = page.locator('.rat-queue .q-item[data-id="prof"]').evaluate("i => Number(getComputedStyle(i).opacity)")
    assert dimmed < 0.6
    # the party's bars are exact, with widths to match
    hp, max_hp = by_id["mc"]["hp"], by_id["mc"]["max_hp"]
    width = card(page, "mc").locator(".bar-fill").evaluate("f => parseFloat(f.style.width)")
    assert width == pytest.approx(100 * hp / max_hp, abs=0.05)
    # the analyzed enemy has a level bar of its percent, and no HP numbers
    gauge = card(page, "e1").locator(".bar.rat-hp.gauge")
    pct = by_id["e1"]["hp_pct"]
    assert gauge.count() == 1 and gauge.locator(".bar-fill").evaluate("f => f.style.width") == f"{pct}%"
    track, fill = gauge.locator(".bar-track").bounding_box(), gauge.locator(".bar-fill").bounding_box()
    assert abs(fill["width"] - (track["width"] - 2) * pct / 100) < 1.5       # the track has a 1px border
    assert card(page, "e1").locator(".rat-mark.analyzed").count() == 1
    # the enemies nobody analyzed have no bar at all, neither empty nor full
    for unseen in ("e2", "e3"):
        assert card(page, unseen).locator(".bar, .bar-fill, .bar-track").count() == 0
        assert "not analyzed" in card(page, unseen).locator(".rat-hp-hidden").inner_text()
    # ailments are chips with their turns left; levels show only where not 0
    assert "BLINDED 1" in chips(page, "e2")
    assert card(page, "e2").locator('.ailment[data-kind="blinded"] .left').inner_text() == "1"
    assert "SPD +1" in card(page, "mc").locator(".lvl").all_inner_texts()
    assert_no_exact_enemy_hp(page, exact, view)
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT))

    # when it steps on event by event to the end of turn 1: the view always matches
    ended = seq_of(events, "rat.TurnEnded", turn=1)
    for seq in range(analyzed + 1, ended + 1):
        page.keyboard.press("ArrowRight")
        shown(page, seq)
    now = state_at(http, bid, ended)
    assert_shows(page, now)
    assert_no_exact_enemy_hp(page, exact_hp(db_file, bid, ended), now)


def test_a_running_rat_battle_as_the_party(page, server, http, db_file, rat_live):
    bid, token = rat_live["battle_id"], rat_live["token"]
    head = http.get(f"/battles/{bid}").json()["seq"]
    mine = state_at(http, bid, head, token)
    # when the party's seat opens the battle with its token, at turn 2's start
    open_page(page, server, bid, token=token)
    shown(page, head)
    assert page.locator("#perspective").input_value() == "p1"
    # then its own stats and whose choice it is show, and still no enemy HP but ANALYZE's percent
    assert_shows(page, mine)
    chooser = {e["id"]: e for e in mine["party"]}[mine["to_choose"]]
    assert f"to choose{chooser['name']}" in page.locator(".headline").inner_text().replace("\n", "")
    assert "choosing" in page.locator(f'.q-item[data-id="{chooser["id"]}"]').get_attribute("class")
    assert card(page, "prof").locator(".rat-stats .fact").count() == 3                   # ATK, DEF, SPD
    assert card(page, "e1").locator(".bar.rat-hp.gauge").count() == 1
    assert card(page, "e2").locator(".bar").count() == card(page, "e3").locator(".bar").count() == 0
    assert_no_exact_enemy_hp(page, exact_hp(db_file, bid, head), mine)
    shot(page, "rat-live-as-party")


def test_an_ended_rat_battle(page, server, http, db_file, rat_live):
    bid = rat_live["battle_id"]
    with Battles(db_file) as battles:
        play(battles, bid)
    last = http.get(f"/battles/{bid}").json()["seq"]
    final = state_at(http, bid, last)
    # when the battle has ended and the spectator opens it
    open_page(page, server, bid)
    shown(page, last)
    assert page.locator("#status-badge").inner_text() == "ended"
    # then the outcome names the winning side, the dead are greyed and out of the queue, and
    # (the battle being public now) every enemy's bar is exact
    assert re.match(r"(Winner: (Party · alice|Enemies · the rules' AI)|Draw) \(", page.locator(".outcome").inner_text())
    assert_shows(page, final)
    for e in final["party"] + final["enemies"]:
        if e["dead"]:
            assert e["id"] not in queue_shown(page)
            assert card(page, e["id"]).locator(".rat-dead").inner_text() == "DEAD"
            assert card(page, e["id"]).evaluate("c => getComputedStyle(c).filter") == "grayscale(1)"
    for entity, (hp, max_hp) in exact_hp(db_file, bid, last).items():
        assert card(page, entity).locator(".bar-value").inner_text() == f"{hp}/{max_hp}"
    shot(page, "rat-ended")

    # when the omniscient view is chosen and the log seeks to turn 1's end: exact bars there too
    turn_1_end = seq_of(events_of(http, bid), "rat.TurnEnded", turn=1)
    page.select_option("#perspective", "all")
    page.wait_for_url(re.compile("as=all"))
    page.locator(f'#log-list li[data-seq="{turn_1_end}"]').click()
    shown(page, turn_1_end)
    assert_shows(page, state_at(http, bid, turn_1_end, view_as="all"))
    for entity, (hp, max_hp) in exact_hp(db_file, bid, turn_1_end).items():
        assert card(page, entity).locator(".bar.rat-hp.exact .bar-value").inner_text() == f"{hp}/{max_hp}"
    shot(page, "rat-omniscient")


# A made-up moment of some other rat battle, for what the scripted one may not show: infinite
# levels, ailments without an end, a dead enemy, a knocked-out one, exact enemy HP (as its own
# side or an omniscient viewer sees it), a side's plans.
PIP = {"id": "rat", "name": "Pip", "kind": "rat", "priority": 1, "levels": {"atk": 4, "def": 0, "spd": -2},
       "ailments": [{"kind": "burned", "left": None}, {"kind": "accelerated_status", "left": None}],
       "ko": False, "dead": False, "protected": True, "wish": None, "moves": {"lunge": 3}, "intrinsic": ["strike"],
       "hp": 40, "max_hp": 100, "atk": "+inf", "def": 20, "spd": 60, "max_pp": {"lunge": 10}}
CROW = {"id": "e1", "name": "Hex Crow A", "kind": "hex_crow", "priority": 0, "levels": {}, "ailments": [],
        "ko": False, "dead": True, "protected": False, "wish": None, "moves": {}, "intrinsic": ["strike"],
        "ai": "memory", "analyzed": False, "hp_pct": None}
SENTRY = {**CROW, "id": "e2", "name": "Clockwork Sentry", "kind": "clockwork_sentry", "dead": False,
          "levels": {"def": -4}, "ailments": [{"kind": "at_risk", "left": 2}], "hp_pct": 75, "hp": 120, "max_hp": 160}
DOWN = {**CROW, "id": "e3", "name": "Hex Crow B", "dead": False, "ko": True, "analyzed": True, "hp_pct": 0,
        "ailments": [{"kind": "knocked_out", "left": None}]}
VIEW = {"battle_id": "b", "ruleset": "rat", "seq": 40, "players": {"p1": "ann"}, "outcome": None,
        "state": {"turn": 4, "formation": "clockwork_vault", "queue": ["rat", "e2", "e3"], "acted": ["rat"],
                  "party": [PIP], "enemies": [CROW, SENTRY, DOWN], "result": None,
                  "plans": {"e2": {"action": "shock_bolt", "target": "rat", "move": None}}}}
RENDER = """async (view) => {
  const { renderView } = await import("/viewer/assets/render.js");
  const { hintsFor, loadGame } = await import("/viewer/assets/games.js");
  await loadGame("rat");
  document.querySelector("#list-page").hidden = false;
  document.querySelector("#list-page").replaceChildren(renderView(view, hintsFor("rat")));
}"""


def test_rat_levels_endless_ailments_the_knocked_out_and_the_dead(page, server):
    page.goto(f"{server}/viewer/")
    page.evaluate(RENDER, VIEW)
    assert queue_shown(page) == ["rat", "e2", "e3"] and queue_shown(page, ".acted") == ["rat"]
    assert page.locator('.q-item[data-id="rat"] .q-prio').inner_text() == "+1"
    assert page.locator('.q-item[data-id="e3"] .q-ko').inner_text() == "KO"
    pip = card(page, "rat")
    assert pip.locator(".lvl").all_inner_texts() == ["ATK +inf", "SPD -2", "PRI +1"]
    assert chips(page, "rat") == ["BURNED", "ACCELERATED"] and pip.locator(".ailment .left").count() == 0
    assert "protected" in pip.locator(".rat-marks").inner_text()
    assert pip.locator(".rat-moves").inner_text() == "Lunge 3/10"
    crow = card(page, "e1")
    assert "is-dead" in crow.get_attribute("class") and crow.locator(".bar").count() == 0
    assert crow.evaluate("c => getComputedStyle(c).filter") == "grayscale(1)"
    sentry = card(page, "e2")
    assert sentry.locator(".bar.rat-hp.exact .bar-value").inner_text() == "120/160"   # exact beats the percent
    assert sentry.locator(".lvl").all_inner_texts() == ["DEF -inf"]
    assert chips(page, "e2") == ["AT RISK 2"]
    assert "plans Shock Bolt → Pip" in sentry.locator(".rat-marks").inner_text()
    down = card(page, "e3")
    assert chips(page, "e3") == ["KNOCKED OUT"] and "is-ko" in down.get_attribute("class")
    assert down.locator(".bar.rat-hp.gauge .bar-value").inner_text() == "0%"
    size = "c => parseFloat(getComputedStyle(c).fontSize)"
    assert down.locator(".ailment-ko").evaluate(size) > sentry.locator(".ailment").evaluate(size)
    shot(page, "rat-made-up")
