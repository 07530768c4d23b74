"""Seed 003, In-Battle UI and 2.2 ANALYZE: "by default, an enemy's HP is completely hidden from
the player", and even after ANALYZE its current and maximum HP stay obfuscated. No event,
listing or view gives the party's seat or a spectator an enemy's HP, and nothing they see
of a heal or a hit on an enemy depends on it. Rat 1.0.0 did both; its rules still replay.

Default entities (given.py): 100 HP, ATK 40, DEF 20, SPD 50; a STRIKE deals
40 x 100/(100 + 20) = 33.3 -> 33 at `params=EXACT` (every roll 100%).
"""
from __future__ import annotations

from pathlib import Path

import msgspec
import orjson

from domain.engine.events import OMNISCIENT, SPECTATOR, Viewer, decode_record, redact, wire_event
from domain.engine.hooks import EffectTriggered
from domain.engine.rng import Rng
from domain.rulesets.rat import RULESET
from domain.rulesets.rat.content import CONTENT
from domain.rulesets.rat.events import EnemyHpChanged, RatStarted, StatLevelChanged, StatusRemoved
from domain.rulesets.rat.setup import DEFAULT_SETUP
from domain.rulesets.rat.state import RULES_1_0_0, Params, Rat, Rules, Stack
from domain.rulesets.rat.view import view

from .given import SEED, ailment, battle, enemy, entity, fold, of_type, passive, turn

EXACT = Params(roll_min_pct=100)
IDLE = {"intrinsic": (), "moves": {"war_cry": 9}}   # WAR_CRY touches no HP: ATK up, nothing else
P1, P2 = Viewer(seat="p1"), Viewer(seat="p2")
FIXTURE = Path(__file__).parents[2] / "replays" / "fixtures" / "rat_1.0.0" / "greedy.jsonl"
# 1.0.0's rules as an event records them: each rule added since at the value 1.0.0 played by
RULES_1_0_0_WIRE = {"enemy_hp_changes": "moved", "spd_at_minus_infinity": "minus_infinity",
                    "removed_statuses_react": True, "ai_version": 1}


def opening(**setup: object) -> list:
    return list(RULESET.start(RULESET.parse_setup({**DEFAULT_SETUP, **setup}), Rng(SEED)).events)


def seen_by(viewer: Viewer, events: list) -> list:
    return [redact(e, viewer, False) for e in events]


def potion_user() -> object:
    return entity("mc", spd=90, items={"potion": Stack(count=1, durability=3)})


# -- the opening ---------------------------------------------------------------------------------

def test_the_opening_gives_the_party_and_spectators_no_enemy_hp():
    # given: sewer_ambush, three Sewer Rats (261 HP) and a Gutter Roach (348 HP), the rules' AI playing them
    started = of_type(opening(), RatStarted)[0]
    # when: the party's seat and a spectator read the opening
    for viewer in (P1, SPECTATOR):
        data, whole = redact(started, viewer, False)
        # then: no enemy carries an HP number, current or maximum
        assert [sorted({"hp", "max_hp"} & set(e)) for e in data["enemies"]] == [[], [], [], []]
        assert (data["enemy_seat"], data["enemy_hp"], whole) == (None, None, False)
    assert redact(started, OMNISCIENT, False)[0]["enemy_hp"] == {"e1": 261, "e2": 261, "e3": 261, "e4": 348}


def test_the_enemy_seat_sees_its_own_enemies_hp_and_the_party_does_not():
    # given: seat p2 plays the enemies
    started = of_type(opening(enemy_seat=True), RatStarted)[0]
    # when / then: p2 reads the HP of its enemies; p1 reads none
    assert redact(started, P2, False)[0]["enemy_hp"] == {"e1": 261, "e2": 261, "e3": 261, "e4": 348}
    assert redact(started, P1, False)[0]["enemy_hp"] is None


def test_each_enemy_starts_at_its_max_hp_and_only_its_side_sees_it():
    # given / when: the opening folded
    state = fold(None, opening(enemy_seat=True))
    # then: 261, 261, 261 and 348 HP, full; p2's view shows them, p1's shows no HP for any enemy
    full = [(261, 261), (261, 261), (261, 261), (348, 348)]
    assert [(e.hp, e.max_hp) for e in state.side("enemies")] == full
    assert [(e["hp"], e["max_hp"]) for e in view(state, P2)["enemies"]] == full
    assert [sorted({"hp", "max_hp", "hp_pct"} & set(e)) for e in view(state, P1)["enemies"]] == [["hp_pct"]] * 4
    assert [e["hp_pct"] for e in view(state, P1)["enemies"]] == [None, None, None, None]


def test_the_content_listing_leaves_out_every_enemys_base_hp():
    # given / when: the content as GET /rulesets lists it
    enemies = CONTENT.as_json()["enemies"]
    # then: every enemy is listed, none with its HP; the Rat King still shows its THORN_MAIL
    assert sorted(enemies) == sorted(CONTENT.enemies)
    assert [k for k, e in enemies.items() if "hp" in e] == []
    assert sorted(enemies["rat_king"]) == ["ai_value", "atk", "boss", "def", "equipment", "id", "immune", "intrinsic",
                                           "moves", "name", "priority", "spd", "text"]
    assert enemies["rat_king"]["equipment"] == ("thorn_mail",)
    assert CONTENT.enemies["rat_king"].hp == 1170       # the server keeps it


def test_a_rat_1_0_0_opening_reaches_the_party_without_enemy_hp():
    # given: a battle recorded under 1.0.0, whose RatStarted wrote each enemy's HP in public
    line = orjson.loads(FIXTURE.read_bytes().splitlines()[3])
    assert (line["type"], line["data"]["enemies"][0]["hp"]) == ("rat.RatStarted", 50)
    rec = decode_record(line["seq"], line["type"], line["data"], line["chain"])
    # when: the party's seat reads it before the battle is public
    wire = wire_event(rec, P1, False)
    # then: it gets today's form, the HP withheld; an omniscient viewer gets the bytes as written
    assert [sorted({"hp", "max_hp"} & set(e)) for e in wire["data"]["enemies"]] == [[], [], []]
    assert (wire["data"]["enemy_hp"], wire["data"]["rules"], wire["v"]) == (None, RULES_1_0_0_WIRE, 5)
    assert wire_event(rec, OMNISCIENT, False)["data"] == line["data"]


def test_the_1_0_0_release_starts_its_battles_with_1_0_0s_rules():
    # given: rat 1.0.0 as this code still plays it, on its kept content
    old = RULESET.release("1.0.0", RULESET.releases["1.0.0"].content)    # type: ignore[index]
    assert old is not None
    # when: it opens the default battle
    started = of_type(list(old.start(old.parse_setup(DEFAULT_SETUP), Rng(SEED)).events), RatStarted)[0]
    # then: the battle records 1.0.0's rules, where today's records today's
    assert (old.version, started.rules) == ("1.0.0", RULES_1_0_0_WIRE)
    assert of_type(opening(), RatStarted)[0].rules == {"enemy_hp_changes": "made", "spd_at_minus_infinity": "zero",
                                                      "removed_statuses_react": False, "ai_version": 2}


def test_a_state_stored_before_1_1_0_plays_1_0_0s_rules():
    # given: a battle's state as 1.0.0 stored it (a snapshot), which had no rules in it
    stored = msgspec.to_builtins(battle())
    del stored["rules"]
    # when / then: read back, it plays 1.0.0's rules; a battle started today records today's
    assert msgspec.convert(stored, type=Rat).rules == RULES_1_0_0 == Rules(
        enemy_hp_changes="moved", spd_at_minus_infinity="minus_infinity", removed_statuses_react=True, ai_version=1)
    assert fold(None, opening()).rules == Rules()


# -- heals and hits on an enemy --------------------------------------------------------------------

def test_a_potion_on_a_full_enemy_reads_to_the_party_as_one_on_a_hurt_enemy():
    # given: e1 at 100/100 HP, or at 60/100
    full = battle([potion_user()], [enemy("e1", **IDLE)])
    hurt = battle([potion_user()], [enemy("e1", hp=60, max_hp=100, **IDLE)])
    # when: mc gives e1 a POTION (1 HP)
    plans = {"mc": ("potion", "e1"), "e1": ("war_cry", "e1")}
    (on_full, _), (on_hurt, _) = turn(full, plans), turn(hurt, plans)
    # then: full 100 -> 100, hurt 60 -> 61; both a heal, and the party reads the two turns alike
    assert of_type(on_full, EnemyHpChanged) == [EnemyHpChanged(target="e1", seat="p2", delta=0, hp=100, healed=True,
                                                               cause="potion", by="mc")]
    assert of_type(on_hurt, EnemyHpChanged) == [EnemyHpChanged(target="e1", seat="p2", delta=1, hp=61, healed=True,
                                                               cause="potion", by="mc")]
    assert seen_by(P1, on_full) == seen_by(P1, on_hurt)
    assert seen_by(SPECTATOR, on_full) == seen_by(SPECTATOR, on_hurt)


def test_rat_1_0_0_told_the_party_that_a_heal_found_the_enemy_full():
    # given: 1.0.0's rules, e1 at 100/100
    given = battle([potion_user()], [enemy("e1", **IDLE)], rules=RULES_1_0_0)
    # when: mc gives e1 a POTION
    then, _ = turn(given, {"mc": ("potion", "e1"), "e1": ("war_cry", "e1")})
    # then: 100 -> 100 moved no HP, and `healed` said so in public (kept so 1.0.0 battles replay)
    assert of_type(then, EnemyHpChanged) == [EnemyHpChanged(target="e1", seat="p2", delta=0, hp=100, healed=False,
                                                            cause="potion", by="mc")]


def test_a_heal_stops_an_enemys_bleeding_even_at_full_hp():
    # given: e1 bleeding at 100/100 HP
    given = battle([potion_user()], [enemy("e1", **IDLE)], effects=[ailment("bleeding", "e1")])
    # when: mc gives e1 a POTION
    then, state = turn(given, {"mc": ("potion", "e1"), "e1": ("war_cry", "e1")})
    # then: healed by 0 HP is healed: the bleeding stops, so no 100 / 8 = 12 at the turn end
    heal = then.index(EnemyHpChanged(target="e1", seat="p2", delta=0, hp=100, healed=True, cause="potion", by="mc"))
    assert then[heal + 1:heal + 3] == [EffectTriggered(kind="bleeding", owner="e1", on="rat.EnemyHpChanged"),
                                       StatusRemoved(target="e1", kind="bleeding", reason="healed")]
    assert (state.statuses("e1"), state.entities["e1"].hp) == ([], 100)


def test_rat_1_0_0_kept_a_full_enemy_bleeding_after_a_heal():
    # given: 1.0.0's rules, e1 bleeding at 100/100 HP
    given = battle([potion_user()], [enemy("e1", **IDLE)], effects=[ailment("bleeding", "e1")], rules=RULES_1_0_0)
    # when: mc gives e1 a POTION
    then, state = turn(given, {"mc": ("potion", "e1"), "e1": ("war_cry", "e1")})
    # then: the bleeding stays and ticks 100 / 8 = 12.5 -> 12 at the turn end
    assert of_type(then, StatusRemoved) == []
    assert state.entities["e1"].hp == 88


def test_regen_gear_on_an_enemy_heals_at_full_hp_as_it_does_when_hurt():
    # given: e1 wears a REGEN_SCARF at 100/100 HP, or at 50/100
    worn = [passive("regen_scarf", "e1")]
    full = battle([entity("mc", **IDLE)], [enemy("e1", **IDLE)], effects=worn)
    hurt = battle([entity("mc", **IDLE)], [enemy("e1", hp=50, max_hp=100, **IDLE)], effects=worn)
    # when: a turn in which nobody touches HP ends
    plans = {"mc": ("war_cry", "mc"), "e1": ("war_cry", "e1")}
    (on_full, _), (on_hurt, _) = turn(full, plans), turn(hurt, plans)
    # then: 100 / 16 = 6 each time: 100 -> 100 and 50 -> 56, which the party reads alike
    assert [(e.delta, e.hp, e.healed) for e in of_type(on_full, EnemyHpChanged)] == [(0, 100, True)]
    assert [(e.delta, e.hp, e.healed) for e in of_type(on_hurt, EnemyHpChanged)] == [(6, 56, True)]
    assert seen_by(P1, on_full) == seen_by(P1, on_hurt)


def test_regen_gear_waits_for_a_hurt_wearer_on_the_party_and_under_rat_1_0_0():
    # given: mc at full HP with a REGEN_SCARF; e1 at full HP with one under 1.0.0's rules
    party = battle([entity("mc", **IDLE)], [enemy("e1", **IDLE)], effects=[passive("regen_scarf", "mc")])
    old = battle([entity("mc", **IDLE)], [enemy("e1", **IDLE)], effects=[passive("regen_scarf", "e1")],
                 rules=RULES_1_0_0)
    # when: a quiet turn ends
    plans = {"mc": ("war_cry", "mc"), "e1": ("war_cry", "e1")}
    (on_party, _), (on_old, _) = turn(party, plans), turn(old, plans)
    # then: neither scarf acts: the party's HP is public, and 1.0.0 healed only the hurt
    assert of_type(on_party, EffectTriggered) == of_type(on_old, EffectTriggered) == []


def test_thorn_mail_answers_a_hit_that_poison_left_at_1_hp_whatever_hp_it_took():
    # given: e1 POISONED in THORN_MAIL, at 1/100 HP or at 20/100
    worn = [ailment("poisoned", "e1"), passive("thorn_mail", "e1")]
    at_1 = battle([entity("mc", spd=90)], [enemy("e1", hp=1, max_hp=100, **IDLE)], effects=worn, params=EXACT)
    at_20 = battle([entity("mc", spd=90)], [enemy("e1", hp=20, max_hp=100, **IDLE)], effects=worn, params=EXACT)
    # when: mc STRIKEs for 33, which POISONED turns into HP 1
    plans = {"mc": ("strike", "e1"), "e1": ("war_cry", "e1")}
    (hit_1, _), (hit_20, _) = turn(at_1, plans), turn(at_20, plans)
    # then: 1 -> 1 and 20 -> 1 are both a hit: mc's ATK drops a level, and the party reads them alike
    assert [(e.delta, e.hp) for e in of_type(hit_1, EnemyHpChanged)] == [(0, 1)]
    assert [(e.delta, e.hp) for e in of_type(hit_20, EnemyHpChanged)] == [(-19, 1)]
    assert of_type(hit_1, StatLevelChanged) == [StatLevelChanged(target="mc", stat="atk", level=-1, by="e1"),
                                                StatLevelChanged(target="e1", stat="atk", level=1, by="e1")]
    assert seen_by(P1, hit_1) == seen_by(P1, hit_20)


def test_rat_1_0_0_let_thorn_mail_pass_a_hit_that_took_no_hp():
    # given: 1.0.0's rules, e1 POISONED in THORN_MAIL at 1/100 HP
    worn = [ailment("poisoned", "e1"), passive("thorn_mail", "e1")]
    given = battle([entity("mc", spd=90)], [enemy("e1", hp=1, max_hp=100, **IDLE)], effects=worn, params=EXACT,
                   rules=RULES_1_0_0)
    # when: mc STRIKEs for 33, which POISONED turns into HP 1
    then, _ = turn(given, {"mc": ("strike", "e1"), "e1": ("war_cry", "e1")})
    # then: 1 -> 1 took nothing, so only e1's own WAR_CRY changes a level
    assert of_type(then, StatLevelChanged) == [StatLevelChanged(target="e1", stat="atk", level=1, by="e1")]
