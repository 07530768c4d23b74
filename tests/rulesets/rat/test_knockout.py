"""Seed 003, 2.1.1 Knocked Out: HP 0 knocks out (curing every other ailment), the knocked-out
entity is invulnerable for the rest of that turn and killed by any damage after it; healing
brings it back with the amount healed; how the battle ends (a dead party member, every
enemy dead, every living enemy knocked out with none dead, the whole party knocked out);
and an enemy's HP staying hidden (In-Battle UI).

Default entities (given.py): 100 HP, ATK 40, DEF 20, SPD 50; a STRIKE deals
40 x 100/(100 + 20) = 33.3 -> 33 at `params=EXACT` (every roll 100%).
"""
from __future__ import annotations

from domain.engine.events import SPECTATOR, Viewer, redact
from domain.engine.rng import Rng
from domain.rulesets.rat.events import (ActionSkipped, ActionTaken, BattleDecided, ConsumableUsed, DamageIgnored,
                                        EnemyHpChanged, HpChanged, Killed, KnockedOut, Revived, StatusRemoved,
                                        TurnEnded, TurnStarted)
from domain.rulesets.rat.hp import afflict
from domain.rulesets.rat.legal import to_plan
from domain.rulesets.rat.resolver import RESOLVING
from domain.rulesets.rat.state import ENEMIES, PARTY, Params, Stack

from .given import ailment, battle, enemy, entity, of_type, turn

EXACT = Params(roll_min_pct=100)
DOWN = {"hp": 0, "max_hp": 100, "ko": True, "ko_turn": 1}      # knocked out on turn 1
GONE = {"hp": 0, "max_hp": 100, "dead": True}


def enemy_hp(target: str, delta: int, hp: int, by: str | None = "mc", cause: str = "strike") -> EnemyHpChanged:
    return EnemyHpChanged(target=target, seat="p2", delta=delta, hp=hp, healed=delta > 0, cause=cause, by=by)


# -- knocked out -----------------------------------------------------------------------------------

def test_hp_reaching_zero_cures_every_other_ailment_then_knocks_out():
    given = battle([entity("mc", spd=90)], [enemy("e1", hp=30), enemy("e2", spd=10)],
                   effects=[ailment("bleeding", "e1"), ailment("chilled", "e1")], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc"), "e2": ("strike", "mc")})
    hit = then.index(ActionTaken(actor="mc", action="strike", target="e1"))
    assert then[hit + 1:hit + 6] == [enemy_hp("e1", -30, 0),
                                     StatusRemoved(target="e1", kind="bleeding", reason="knocked_out"),
                                     StatusRemoved(target="e1", kind="chilled", reason="knocked_out"),
                                     KnockedOut(target="e1", turn=1),
                                     ActionSkipped(actor="e1", reason="knocked_out")]
    e1 = state.entities["e1"]
    assert (e1.hp, e1.ko, e1.dead, state.statuses("e1")) == (0, True, False, [])


def test_a_knocked_out_entity_is_invulnerable_for_the_rest_of_that_turn():
    given = battle([entity("m1", spd=90), entity("m2", spd=80, atk=400)], [enemy("e1", hp=30), enemy("e2", spd=10)],
                   params=EXACT)
    then, state = turn(given, {"m1": ("strike", "e1"), "m2": ("strike", "e1"), "e1": ("strike", "m1"),
                               "e2": ("strike", "m1")})
    down = then.index(KnockedOut(target="e1", turn=1))
    # m2's 400 ATK would deal 333: it lands on a knocked-out e1, and does nothing
    assert then[down + 1:down + 4] == [ActionTaken(actor="m2", action="strike", target="e1"),
                                       DamageIgnored(target="e1", reason="knocked_out", by="m2"),
                                       ActionSkipped(actor="e1", reason="knocked_out")]
    assert not state.entities["e1"].dead
    assert to_plan(state, ENEMIES) == ["e2"]        # still in the queue, but not choosing
    assert state.order == ("m1", "m2", "e1", "e2")


def test_any_damage_on_a_later_turn_kills_the_knocked_out_enemy_for_good():
    given = battle([entity("mc", atk=1, spd=90)], [enemy("e1", defense=999, **DOWN), enemy("e2", spd=10)],
                   turn=2, params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e2": ("strike", "mc")})
    # 1 x 100/1099 = 0.09: the least hit, 1, is enough
    # e1, knocked out, chooses nothing (ActionSkipped at the reveal)
    assert then[5:7] == [ActionTaken(actor="mc", action="strike", target="e1"), Killed(target="e1", cause="strike")]
    assert (state.entities["e1"].dead, state.killed, state.result) == (True, ("e1",), None)
    assert of_type(then, TurnStarted) == [TurnStarted(turn=3, queue=("mc", "e2"))]


def test_a_knocked_out_entity_gains_no_ailment():
    r = RESOLVING(battle(enemies=[enemy("e1", **DOWN), enemy("e2")]), Rng(b"unused"))
    afflict(r, "e1", "poisoned", "mc")
    assert (r.events, r.state.statuses("e1")) == ([], [])


def test_killing_a_knocked_out_party_member_is_a_game_over():
    given = battle([entity("mc", spd=10, **DOWN), entity("m2", spd=20)], [enemy("e1", spd=90)], turn=2,
                   params=EXACT)
    then, state = turn(given, {"m2": ("strike", "e1"), "e1": ("strike", "mc")})
    assert then[-3:] == [ActionTaken(actor="e1", action="strike", target="mc"),
                         Killed(target="mc", cause="strike"),
                         BattleDecided(winner="enemies", reason="party_member_killed")]
    assert state.result == ("enemies", "party_member_killed")


# -- healing the knocked out -----------------------------------------------------------------------

def test_healing_a_knocked_out_member_revives_it_with_the_amount_healed():
    salts = {"smelling_salts": Stack(count=1, durability=3)}
    given = battle([entity("mc", **DOWN), entity("m2", spd=90, items=salts)], [enemy("e1", spd=10)], turn=2,
                   params=EXACT)
    then, state = turn(given, {"m2": ("smelling_salts", "mc"), "e1": ("strike", "m2")})
    # SMELLING_SALTS heals 25% of max HP 100 = 25: from 0, so HP 25
    assert then[5:8] == [ConsumableUsed(actor="m2", item="smelling_salts", target="mc", seat="p1", left=0),
                         HpChanged(target="mc", delta=25, hp=25, cause="smelling_salts", by="m2"),
                         Revived(target="mc")]
    mc = state.entities["mc"]
    assert (mc.hp, mc.ko, mc.dead) == (25, False, False)
    assert to_plan(state, PARTY) == ["m2", "mc"]     # back in the choosing from the next turn


def test_a_potion_first_saves_a_knocked_out_member_from_a_faster_strike():
    potion = {"potion": Stack(count=1, durability=3)}
    given = battle([entity("mc", **DOWN), entity("m2", spd=1, items=potion)], [enemy("e1", spd=90)], turn=2,
                   params=EXACT)
    then, state = turn(given, {"m2": ("potion", "mc"), "e1": ("strike", "mc")})
    # POTION's +2 priority beats e1's SPD: mc is back at 1 HP, so the strike knocks it out again
    assert then[6:] == [ConsumableUsed(actor="m2", item="potion", target="mc", seat="p1", left=0),
                        HpChanged(target="mc", delta=1, hp=1, cause="potion", by="m2"),
                        Revived(target="mc"),
                        ActionTaken(actor="e1", action="strike", target="mc"),
                        HpChanged(target="mc", delta=-1, hp=0, cause="strike", by="e1"),
                        KnockedOut(target="mc", turn=2),
                        TurnEnded(turn=2, party_hp={"mc": 0, "m2": 100}),
                        TurnStarted(turn=3, queue=("e1", "mc", "m2"))]
    assert (state.result, state.entities["mc"].ko_turn) == (None, 2)


# -- how the battle ends ---------------------------------------------------------------------------

def test_every_living_enemy_knocked_out_with_none_dead_ends_the_non_standard_way():
    given = battle([entity("mc", spd=90)], [enemy("e1", hp=30), enemy("e2", **DOWN)], turn=2, params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert then[-3:] == [enemy_hp("e1", -30, 0), KnockedOut(target="e1", turn=2),
                         BattleDecided(winner="party", reason="all_enemies_knocked_out")]
    assert state.result == ("party", "all_enemies_knocked_out")


def test_every_living_enemy_knocked_out_after_one_died_does_not_end_the_battle():
    given = battle([entity("mc", spd=90)], [enemy("e1", hp=30), enemy("e2", **GONE)], turn=2, killed=("e2",),
                   params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert KnockedOut(target="e1", turn=2) in then
    assert of_type(then, BattleDecided) == []
    assert of_type(then, TurnStarted) == [TurnStarted(turn=3, queue=("mc", "e1"))]


def test_every_enemy_dead_is_a_victory():
    given = battle([entity("mc", spd=90)], [enemy("e1", **DOWN), enemy("e2", **GONE)], turn=2, killed=("e2",),
                   params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1")})
    assert then[-2:] == [Killed(target="e1", cause="strike"),
                         BattleDecided(winner="party", reason="enemies_defeated")]
    assert state.killed == ("e2", "e1")


def test_the_whole_party_knocked_out_at_the_turn_end_loses():
    given = battle([entity("mc", hp=10, max_hp=100)], [enemy("e1", spd=90)], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert then[-6:] == [ActionTaken(actor="e1", action="strike", target="mc"),
                         HpChanged(target="mc", delta=-10, hp=0, cause="strike", by="e1"),
                         KnockedOut(target="mc", turn=1),
                         ActionSkipped(actor="mc", reason="knocked_out"),
                         TurnEnded(turn=1, party_hp={"mc": 0}),
                         BattleDecided(winner="enemies", reason="party_knocked_out")]


def test_one_member_standing_keeps_the_battle_going():
    given = battle([entity("mc", hp=10, max_hp=100), entity("m2", spd=10)], [enemy("e1", spd=90)], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "m2": ("strike", "e1"), "e1": ("strike", "mc")})
    assert KnockedOut(target="mc", turn=1) in then
    assert (of_type(then, BattleDecided), state.turn) == ([], 2)


# -- an enemy's HP is secret -----------------------------------------------------------------------

def test_an_enemys_hp_change_hides_its_numbers_from_all_but_the_enemy_seat():
    hit = enemy_hp("e1", -33, 67)
    public_part = {"target": "e1", "seat": "p2", "healed": False, "cause": "strike", "by": "mc"}
    assert redact(hit, SPECTATOR, public=False) == ({**public_part, "delta": None, "hp": None}, False)
    assert redact(hit, Viewer(seat="p1"), public=False) == ({**public_part, "delta": None, "hp": None}, False)
    assert redact(hit, Viewer(seat="p2"), public=False) == ({**public_part, "delta": -33, "hp": 67}, True)
    assert redact(hit, SPECTATOR, public=True) == ({**public_part, "delta": -33, "hp": 67}, True)


def test_with_the_ai_playing_the_enemies_no_seat_sees_their_hp():
    given = battle([entity("mc", spd=90)], [enemy("e1")], params=EXACT, ai=True)
    then, _ = turn(given, {"mc": ("strike", "e1")})
    hit = of_type(then, EnemyHpChanged)[0]
    assert hit == EnemyHpChanged(target="e1", seat=None, delta=-33, hp=67, healed=False, cause="strike", by="mc")
    assert redact(hit, Viewer(seat="p1"), public=False)[0]["hp"] is None


def test_a_party_members_hp_change_is_public():
    hit = HpChanged(target="mc", delta=-33, hp=67, cause="strike", by="e1")
    assert redact(hit, SPECTATOR, public=False) == ({"target": "mc", "delta": -33, "hp": 67, "cause": "strike",
                                                    "by": "e1"}, True)
