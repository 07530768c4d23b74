"""The answers rat works out once and gives again (`answers.py`, `legal._listed`, `legal.living`,
`hooks.in_play`, `evolve._one`, `start.member_entity`, `setup.parse_setup`, `start.start`), and the
shortcuts beside them (`legal.choosers` without a hook in play, the opening events written
straight from their structs), give exactly what working them out afresh gives."""
from __future__ import annotations

from fractions import Fraction

from pathlib import Path

import orjson
import pytest
from msgspec.structs import replace

from domain.engine.chain import canonical_event, exactly_encoded
from domain.engine.errors import RuleViolation, SetupError
from domain.engine.events import Event, decode_event, event_data
from domain.engine.rng import Rng
from domain.rulesets.rat import events as ev
from domain.rulesets.rat.commands import Act
from domain.rulesets.rat.content import CONTENT
from domain.rulesets.rat.evolve import _one
from domain.rulesets.rat.hooks import CanAct, StatQuery, in_play
from domain.rulesets.rat.legal import action_options, checked, choosers, legal_commands, options, stopped, waiting
from domain.rulesets.rat.setup import DEFAULT_SETUP, parse_setup
from domain.rulesets.rat.start import member_entity, start
from domain.rulesets.rat.state import Plan
from domain.rulesets.rat.stats import damage, order_key, stat

from .given import ailment, battle, enemy, entity

GOLDEN = Path(__file__).parents[2] / "golden"


def test_damage_is_the_floored_quotient_the_fractions_give():
    for power in (1, 40, 100, 150):
        for atk in (1, 7, 40, 999):
            for defense in (-5, 0, 20, 333):
                for roll in (85, 93, 100):
                    for scale in (1, 100, 1000):
                        exact = Fraction(power, 100) * atk * scale / (scale + max(0, defense)) * Fraction(roll, 100)
                        assert damage(power, atk, defense, roll, scale) == max(1, int(exact))


def test_a_state_lists_the_same_options_however_often_it_is_asked():
    given = battle([entity("mc", moves={"quick_jab": 2}), entity("sc")], [enemy("e1"), enemy("e2")])
    first = legal_commands(given, "p1")
    assert legal_commands(given, "p1") == first
    assert list(options(replace(given), given.entities["mc"])) == first   # a copy works them out afresh
    assert [o.target for o in first if o.action == "strike"] == ["e1", "e2"]


def test_the_options_of_one_action_are_those_options_lists_for_it():
    given = battle([entity("mc", moves={"quick_jab": 2}), entity("sc")], [enemy("e1")])
    mc = given.entities["mc"]
    for action in ("quick_jab", "strike", "protect"):
        assert list(action_options(given, mc, action)) == [o for o in options(given, mc) if o.action == action]


def test_a_listed_command_and_a_fresh_check_agree():
    given = battle([entity("mc"), entity("sc")], [enemy("e1")])
    first = waiting(given, "party")[0]
    listed = legal_commands(given, "p1")
    for cmd in listed:
        assert checked(given, "p1", cmd) is cmd                  # found among the listed options
        assert checked(replace(given), "p1", cmd) is cmd         # every check made afresh
    wrong = Act(actor=first, action="strike", target=first)
    for s in (given, replace(given)):
        with pytest.raises(RuleViolation, match="cannot target"):
            checked(s, "p1", wrong)


def test_who_waits_follows_each_state_not_an_earlier_one():
    given = battle([entity("mc"), entity("sc")], [enemy("e1")])
    assert set(waiting(given, "party")) == {"mc", "sc"}
    stunned = replace(given, effects=(ailment("stunned", "mc"),))
    assert waiting(stunned, "party") == ("sc",)


def test_the_living_follow_each_dict_of_entities_not_the_last_one_asked():
    given = battle([entity("mc"), entity("sc")], [enemy("e1"), enemy("e2")])
    assert [o.target for o in options(given, given.entities["mc"]) if o.action == "strike"] == ["e1", "e2"]
    dead = replace(given, entities={**given.entities, "e1": replace(given.entities["e1"], dead=True, hp=0)})
    assert [o.target for o in options(dead, dead.entities["mc"]) if o.action == "strike"] == ["e2"]
    again = replace(given)
    assert [o.target for o in options(again, again.entities["sc"]) if o.action == "strike"] == ["e1", "e2"]


def test_equal_effects_are_one_tuple_and_keep_their_hooks():
    first = _one((ailment("stunned", "mc"), ailment("burned", "e1")))
    assert _one((ailment("stunned", "mc"), ailment("burned", "e1"))) is first
    assert _one((ailment("burned", "e1"), ailment("stunned", "mc"))) is not first    # the order is part of the value
    assert [row[0].kind for row in in_play(CanAct, first)] == ["stunned"]
    assert in_play(CanAct, (ailment("burned", "e1"),)) == []
    assert [row[0].kind for row in in_play(CanAct, first)] == ["stunned"]


def test_a_state_asked_again_after_another_keeps_its_own_answers():
    given = battle([entity("mc"), entity("sc")], [enemy("e1")])
    stunned = replace(given, effects=(ailment("stunned", "mc"),))
    assert set(waiting(given, "party")) == {"mc", "sc"}
    assert waiting(stunned, "party") == ("sc",)
    assert set(waiting(given, "party")) == {"mc", "sc"}
    assert legal_commands(stunned, "p1")[0].actor == "sc"


def test_the_queue_key_without_a_stat_hook_is_the_one_the_stat_gives():
    given = battle([entity("mc", spd=70, levels={"spd": 1}), entity("sc", spd=30, priority=2, boost=1)],
                   [enemy("e1", spd=55)], effects=(ailment("chilled", "e1"), ailment("paralyzed", "mc")))
    hooks = in_play(StatQuery, given.effects)
    for e in given.entities.values():
        assert order_key(given, e, hooks) == (-(e.priority + e.boost), -stat(given, e, "spd"), e.name)
        assert order_key(given, e, []) == (-(e.priority + e.boost), -stat(replace(given, effects=()), e, "spd"),
                                           e.name)


def test_a_member_is_built_anew_when_its_content_changes(monkeypatch):
    setup = parse_setup(DEFAULT_SETUP)
    m = setup.party[0]
    first = member_entity(m, setup.params)
    assert member_entity(m, setup.params) is first
    monkeypatch.setitem(CONTENT.members, m.member, replace(CONTENT.members[m.member],
                                                           hp=CONTENT.members[m.member].hp + 17))
    assert member_entity(m, setup.params).max_hp == first.max_hp + 17
    monkeypatch.undo()
    assert member_entity(m, setup.params) == first


def test_a_setup_is_parsed_once_and_anew_when_what_it_reads_changes(monkeypatch):
    raw = {**DEFAULT_SETUP, "formation": [DEFAULT_SETUP["formation"]]}
    first = parse_setup(raw)
    assert parse_setup({**raw}) is first
    with pytest.raises(SetupError):         # a tuple is not a list: the kept setup does not answer
        parse_setup({**raw, "formation": tuple(raw["formation"])})
    with pytest.raises(SetupError):         # nor is True the stage 1
        parse_setup({**raw, "stage": True})
    member = CONTENT.members[raw["party"][0]["member"]]
    monkeypatch.setitem(CONTENT.members, member.id, replace(member, consumable_slots=0))
    with pytest.raises(SetupError):         # the member's record changed: its items no longer fit
        parse_setup(raw)
    monkeypatch.undo()
    assert parse_setup(raw) == first


def test_an_opening_is_worked_out_once_and_anew_when_its_content_changes(monkeypatch):
    setup = parse_setup(DEFAULT_SETUP)
    first = start(setup, Rng(b"a"))
    assert start(setup, Rng(b"b")) is first         # the opening draws nothing
    kind = CONTENT.formations[setup.formation].enemies[0].enemy
    monkeypatch.setitem(CONTENT.enemies, kind, replace(CONTENT.enemies[kind], spd=CONTENT.enemies[kind].spd + 1))
    changed = start(setup, Rng(b"a"))
    assert changed is not first and changed.state.entities["e1"].spd == first.state.entities["e1"].spd + 1
    monkeypatch.undo()
    assert start(setup, Rng(b"a")).events == first.events


def test_a_setup_that_is_not_json_s_own_types_is_parsed_afresh_each_time():
    raw = {**DEFAULT_SETUP, "formation": [DEFAULT_SETUP["formation"]]}
    first = parse_setup(raw)

    class Name(str):
        pass
    renamed = {**raw, "formation": [Name(DEFAULT_SETUP["formation"])]}
    again = parse_setup(renamed)
    assert again == first and again is not first and parse_setup(renamed) is not again   # never kept
    with pytest.raises(SetupError):         # 1.0 is not the stage 1
        parse_setup({**raw, "stage": 1.0})
    with pytest.raises(SetupError):         # bytes are no formation, however marshal writes them
        parse_setup({**raw, "formation": [DEFAULT_SETUP["formation"].encode()]})
    assert parse_setup({**raw}) is first


def test_answers_dropped_for_later_states_are_worked_out_again_alike():
    given = battle([entity("mc"), entity("sc")], [enemy("e1")])
    others = [replace(given, effects=(ailment("stunned", key),)) for key in ("mc", "sc", "e1")]
    first = legal_commands(given, "p1")
    for s in others:
        legal_commands(s, "p1")
    assert legal_commands(given, "p1") == first
    assert waiting(others[0], "party") == ("sc",)


def test_who_chooses_without_a_hook_in_play_is_who_stopped_lets_choose():
    given = battle([entity("mc"), entity("sc", ko=True), entity("ann"), entity("bo", dead=True, hp=0)],
                   [enemy("e1"), enemy("e2", ko=True)])
    planned = replace(given, plans={"ann": Plan(actor="ann", action="strike", target="e1")})
    stunned = replace(given, effects=(ailment("stunned", "ann"),))
    for s in (given, planned, stunned):
        for side in ("party", "enemies"):
            assert choosers(s, side) == tuple(k for k in s.order if k not in s.plans
                                              and s.entities[k].side == side and not stopped(s, s.entities[k]))
    assert set(choosers(given, "party")) == {"ann", "mc"} and choosers(planned, "party") == ("mc",)


def _both_ways(seq: int, event: Event) -> tuple[bytes, bytes]:
    """An event's canonical bytes as the chain writes them, and through its builtins."""
    through = orjson.dumps({"seq": seq, "type": event.TOPIC, "data": event_data(event)}, option=orjson.OPT_SORT_KEYS)
    return canonical_event(seq, event), through


def test_the_opening_events_are_written_straight_from_their_structs_as_through_builtins():
    assert all(exactly_encoded(cls) for cls in (ev.RatStarted, ev.PartyJoined, ev.PartyShown))
    setup = parse_setup(DEFAULT_SETUP)
    for seq, event in enumerate(start(setup, Rng(b"a")).events, start=3):
        direct, through = _both_ways(seq, event)
        assert direct == through
    found = 0
    for path in sorted(GOLDEN.glob("rat_*.jsonl")):
        for line in path.read_bytes().splitlines():
            rec = orjson.loads(line)
            if rec.get("type") in ("rat.RatStarted", "rat.PartyJoined", "rat.PartyShown"):
                event = decode_event(rec["type"], rec["data"], rec.get("v", 1))
                direct, through = _both_ways(rec["seq"], event)
                assert direct == through
                found += 1
    assert found
