"""Seed 003, 2.1.4 Example Status Conditions (and 2.1.x Status Ailments): each ailment's life
cycle - gained, its elapsed counter advanced at the start of each turn (`StatusesAged`),
removed once the counter reaches its duration - and what it does meanwhile.

Default entities (given.py): 100 HP, ATK 40, DEF 20, SPD 50; a STRIKE deals
40 x 100/(100 + 20) = 33.3 -> 33 at `params=EXACT` (every roll 100%).
"""
from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.engine.hooks import EffectTriggered
from domain.engine.rng import Rng
from domain.rulesets.rat.events import (ActionSkipped, ActionTaken, BattleDecided, DamageIgnored, EnemyHpChanged,
                                        HpChanged, Killed, KnockOutAverted, StatusesAged, StatusGained,
                                        StatusRemoved, TurnEnded, TurnEnding, TurnStarted)
from domain.rulesets.rat.hp import afflict
from domain.rulesets.rat.legal import stopped, to_plan
from domain.rulesets.rat.resolver import RESOLVING
from domain.rulesets.rat.state import PARTY, Params, Rat, Stack

from .given import ailment, battle, enemy, entity, of_type, passive, started_turn, turn

EXACT = Params(roll_min_pct=100)
IDLE = {"intrinsic": (), "moves": {"war_cry": 9}}   # WAR_CRY touches no HP: ATK up, nothing else


def afflicted(s: Rat, target: str, kind: str, by: str = "mc") -> tuple[list, Rat]:
    r = RESOLVING(s, Rng(b"unused"))
    afflict(r, target, kind, by)
    return r.events, r.state


def turn_end(events: list) -> list:
    """The end-of-turn effects: what follows the first TurnEnding, up to TurnEnded (without the
    TurnEnding markers themselves, one per entity with an effect)."""
    names = [type(e).__name__ for e in events]
    start = names.index("TurnEnding") if "TurnEnding" in names else names.index("TurnEnded")
    return [e for e in events[start:names.index("TurnEnded")] if not isinstance(e, TurnEnding)]


def idle_pair(**mc: object) -> tuple[list, list]:
    return [entity("mc", **IDLE, **mc)], [enemy("e1", **IDLE)]


def idle_turns(s: Rat, count: int) -> tuple[list[list], Rat]:
    """`count` turns in which every entity only raises its own ATK."""
    turns = []
    for _ in range(count):
        then, s = turn(s, {key: ("war_cry", key) for key in s.entities})
        turns.append(then)
    return turns, s


def aged(events: list) -> list[tuple]:
    return [x for e in of_type(events, StatusesAged) for x in e.elapsed]


# -- STUNNED: 1 turn, may not act ------------------------------------------------------------------

def test_a_stun_landing_before_the_targets_action_skips_it():
    given = battle([entity("mc", spd=10)], [enemy("e1", moves={"crushing_blow": 3})], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("crushing_blow", "mc")}, seed=b"f")
    # seed b"f": the roll, then the 50% stun draws 32 -> stunned; 150% x 40 x 100/120 = 50
    assert then[4:] == [ActionTaken(actor="e1", action="crushing_blow", target="mc", pp=2),
                        HpChanged(target="mc", delta=-50, hp=50, cause="crushing_blow", by="e1"),
                        StatusGained(target="mc", kind="stunned", turn=1, by="e1"),
                        ActionSkipped(actor="mc", reason="stunned"),
                        TurnEnding(turn=1, entity="mc"),
                        TurnEnded(turn=1, party_hp={"mc": 50}),
                        StatusesAged(turn=2, elapsed=(("mc", "stunned", 1),)),
                        StatusRemoved(target="mc", kind="stunned", reason="expired"),
                        TurnStarted(turn=2, queue=("e1", "mc"))]
    assert to_plan(state, PARTY) == ["mc"]


def test_a_stun_landing_after_the_targets_action_is_spent_by_the_next_turn():
    given = battle([entity("mc", spd=90)], [enemy("e1", moves={"crushing_blow": 3})], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("crushing_blow", "mc")}, seed=b"d")
    # seed b"d": mc's roll, e1's roll, then the 50% stun draws 18 -> stunned, after mc acted
    assert StatusGained(target="mc", kind="stunned", turn=1, by="e1") in then
    assert ActionSkipped(actor="mc", reason="stunned") not in then
    assert StatusRemoved(target="mc", kind="stunned", reason="expired") in then
    assert to_plan(state, PARTY) == ["mc"]


def test_a_stunned_entity_is_not_asked_to_choose_and_does_not_act():
    given = battle(effects=[ailment("stunned", "mc")], params=EXACT)
    assert (stopped(given, given.entities["mc"]), to_plan(given, PARTY)) == ("stunned", [])
    then, state = turn(given, {"e1": ("strike", "mc")})
    assert [e.actor for e in of_type(then, ActionTaken)] == ["e1"]
    assert aged(then) == [("mc", "stunned", 1)]
    assert StatusRemoved(target="mc", kind="stunned", reason="expired") in then
    assert to_plan(state, PARTY) == ["mc"]


# -- BLEEDING: 5 turns, 1/8 of max HP at each turn end, any healing stops it -----------------------

def test_a_long_night_knife_strike_makes_the_target_bleed():
    given = battle([entity("mc", spd=90)], effects=[passive("long_night_knife", "mc")], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert StatusGained(target="e1", kind="bleeding", turn=1, by="mc") in then
    assert aged(then) == [("e1", "bleeding", 1)]


def test_bleeding_ticks_an_eighth_at_five_turn_ends_then_expires():
    given = battle(*idle_pair(), effects=[ailment("bleeding", "mc")])
    turns, state = idle_turns(given, 6)
    ticks = [e for then in turns for e in of_type(then, HpChanged)]
    assert ticks == [HpChanged(target="mc", delta=-12, hp=100 - 12 * n, cause="bleeding") for n in range(1, 6)]
    assert [aged(then) for then in turns[:5]] == [[("mc", "bleeding", n)] for n in range(1, 6)]
    assert StatusRemoved(target="mc", kind="bleeding", reason="expired") in turns[4]    # at the start of turn 6
    assert state.entities["mc"].hp == 40        # 100 - 5 x 12 (100 / 8 = 12.5)


def test_any_healing_stops_the_bleeding():
    given = battle([entity("mc", hp=50, max_hp=100, items={"potion": Stack(count=1, durability=3)})],
                   [enemy("e1", **IDLE)], effects=[ailment("bleeding", "mc")])
    then, state = turn(given, {"mc": ("potion", "mc"), "e1": ("war_cry", "e1")})
    heal = then.index(HpChanged(target="mc", delta=1, hp=51, cause="potion", by="mc"))
    assert then[heal + 1:heal + 3] == [EffectTriggered(kind="bleeding", owner="mc", on="rat.HpChanged"),
                                       StatusRemoved(target="mc", kind="bleeding", reason="healed")]
    assert turn_end(then) == []
    assert TurnEnded(turn=1, party_hp={"mc": 51}) in then


# -- POISONED: infinite, 1/16 at each turn end, cured instead of a knock-out -----------------------

def test_venom_dart_poisons_and_the_poison_ticks_a_sixteenth():
    given = battle([entity("mc", spd=90, moves={"venom_dart": 8})], [enemy("e1", hp=160, **IDLE)],
                   params=EXACT)
    then, state = turn(given, {"mc": ("venom_dart", "e1"), "e1": ("war_cry", "e1")})
    # 60% x 40 x 100/120 = 20; then 160 / 16 = 10 at the turn end
    assert StatusGained(target="e1", kind="poisoned", turn=1, by="mc") in then
    assert turn_end(then) == [EffectTriggered(kind="poisoned", owner="e1", on="rat.TurnEnding"),
                              EnemyHpChanged(target="e1", seat="p2", delta=-10, hp=130, healed=False,
                                             cause="poisoned")]


def test_poison_never_expires():
    then, state = started_turn(battle(effects=[ailment("poisoned", "mc", turns=99)]))
    assert then == [StatusesAged(turn=2, elapsed=(("mc", "poisoned", 100),)), TurnStarted(turn=2, queue=("e1", "mc"))]


def test_poison_that_would_knock_out_is_cured_at_one_hp():
    given = battle(*idle_pair(hp=5, max_hp=160), effects=[ailment("poisoned", "mc")])
    then, state = turn(given, {"mc": ("war_cry", "mc"), "e1": ("war_cry", "e1")})
    assert turn_end(then)[1:] == [EffectTriggered(kind="poisoned", owner="mc", on="KoCheck"),
                                  KnockOutAverted(target="mc", by="poisoned"),
                                  HpChanged(target="mc", delta=-4, hp=1, cause="poisoned"),
                                  StatusRemoved(target="mc", kind="poisoned", reason="averted_knock_out")]
    assert (state.entities["mc"].hp, state.entities["mc"].ko, state.statuses("mc")) == (1, False, [])


def test_a_hit_that_would_knock_out_a_poisoned_target_leaves_it_at_one_hp():
    given = battle([entity("mc", spd=90)], [enemy("e1", hp=10)], effects=[ailment("poisoned", "e1")], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert then[5:9] == [EffectTriggered(kind="poisoned", owner="e1", on="KoCheck"),
                         KnockOutAverted(target="e1", by="poisoned"),
                         EnemyHpChanged(target="e1", seat="p2", delta=-9, hp=1, healed=False, cause="strike", by="mc"),
                         StatusRemoved(target="e1", kind="poisoned", reason="averted_knock_out")]
    assert turn_end(then) == []                 # cured, so no tick
    assert state.entities["e1"].hp == 1


def test_poison_spares_an_at_risk_target_before_at_risk_can_kill():
    given = battle([entity("mc", spd=90)], [enemy("e1", hp=10)],
                   effects=[ailment("at_risk", "e1"), ailment("poisoned", "e1")], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    # README: POISONED acts first (HP 1, cured), so the knock-out, and AT_RISK's death, never come
    assert KnockOutAverted(target="e1", by="poisoned") in then
    assert (state.entities["e1"].hp, state.entities["e1"].dead, [x.kind for x in state.statuses("e1")]) == (
        1, False, ["at_risk"])


def test_an_ailment_tick_takes_at_least_one_hp():
    given = battle(*idle_pair(hp=15), effects=[ailment("poisoned", "mc")])
    then, _ = turn(given, {"mc": ("war_cry", "mc"), "e1": ("war_cry", "e1")})
    assert turn_end(then)[1] == HpChanged(target="mc", delta=-1, hp=14, cause="poisoned")    # 15 / 16 = 0 -> 1


def test_end_of_turn_ticks_run_in_queue_order():
    mc, e1 = idle_pair(spd=90)
    # e1's bleeding came first, but mc (SPD 90) is ahead of e1 (SPD 50) in the queue
    given = battle(mc, e1, effects=[ailment("bleeding", "e1"), ailment("bleeding", "mc")])
    then, _ = turn(given, {"mc": ("war_cry", "mc"), "e1": ("war_cry", "e1")})
    # TurnEnding's docstring: "the moment on_turn_end effects react to, in queue order"
    assert [e.target for e in turn_end(then) if isinstance(e, (HpChanged, EnemyHpChanged))] == ["mc", "e1"]


def test_an_ailment_already_there_is_not_gained_again():
    then, state = afflicted(battle(effects=[ailment("poisoned", "e1", turns=3)]), "e1", "poisoned")
    assert then == []
    assert [x.turns for x in state.statuses("e1")] == [3]


# -- BURNED: infinite, DEF -50%, 1/16 at each turn end ---------------------------------------------

def test_burned_is_gained_halves_def_and_ticks():
    then, state = afflicted(battle(), "e1", "burned")
    assert then == [StatusGained(target="e1", kind="burned", turn=1, by="mc")]
    given = battle([entity("mc", spd=90)], [enemy("e1", hp=160, **IDLE)], effects=state.effects,
                   params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("war_cry", "e1")})
    # DEF 20 x 50% = 10: 40 x 100/110 = 36.4 -> 36; then 160 / 16 = 10
    assert [e.hp for e in of_type(then, EnemyHpChanged)] == [124, 114]
    assert aged(then) == [("e1", "burned", 1)]


# -- CHILLED: infinite, SPD -50%; CHILLED again freezes --------------------------------------------

def test_chilled_is_gained_and_halves_spd_in_the_next_queue():
    then, state = afflicted(battle([entity("mc", spd=60)]), "mc", "chilled", by="e1")
    assert then == [StatusGained(target="mc", kind="chilled", turn=1, by="e1")]
    then, _ = started_turn(state)
    assert then == [StatusesAged(turn=2, elapsed=(("mc", "chilled", 1),)), TurnStarted(turn=2, queue=("e1", "mc"))]


def test_flash_freeze_chills_then_freezes():
    given = battle([entity("mc", spd=90, moves={"flash_freeze": 3})], [enemy("e1", spd=60, **IDLE)])
    then, state = turn(given, {"mc": ("flash_freeze", "e1"), "e1": ("war_cry", "e1")})
    assert then[5:9] == [StatusGained(target="e1", kind="chilled", turn=1, by="mc"),
                         EffectTriggered(kind="chilled", owner="e1", on="Affliction"),
                         StatusRemoved(target="e1", kind="chilled", reason="replaced"),
                         StatusGained(target="e1", kind="frozen", turn=1, by="mc")]
    assert [x.kind for x in state.statuses("e1")] == ["frozen"]


# -- FROZEN: infinite, SPD -infinity; BURNED, CHILLED and FROZEN cure each other -------------------

def test_frozen_never_expires_and_always_acts_last():
    given = battle([entity("mc", spd=999, levels={"spd": 3})], [enemy("e1", spd=1)],
                   effects=[ailment("frozen", "mc", turns=50)])
    then, _ = started_turn(given)
    assert then == [StatusesAged(turn=2, elapsed=(("mc", "frozen", 51),)), TurnStarted(turn=2, queue=("e1", "mc"))]


@pytest.mark.parametrize("has, gets", [("burned", "chilled"), ("chilled", "burned"), ("frozen", "burned")])
def test_the_incoming_ailment_cures_the_one_it_meets_instead(has, gets):
    # seed 003: BURNED meeting CHILLED is cured, CHILLED and FROZEN meeting BURNED are cured
    then, state = afflicted(battle(effects=[ailment(has, "e1")]), "e1", gets)
    assert then == [EffectTriggered(kind=has, owner="e1", on="Affliction"),
                    StatusRemoved(target="e1", kind=has, reason=f"cured_by_{gets}")]
    assert state.statuses("e1") == []


def test_burning_a_frozen_and_chilled_target_cures_both():
    # FROZEN, then CHILLED again (a frozen target has no CHILLED to turn into FROZEN)
    chilled, state = afflicted(battle(effects=[ailment("frozen", "e1")]), "e1", "chilled")
    assert chilled == [StatusGained(target="e1", kind="chilled", turn=1, by="mc")]
    then, state = afflicted(state, "e1", "burned")
    # seed 003: FROZEN and CHILLED each say "would it receive BURNED, it is cured instead"
    assert of_type(then, StatusRemoved) == [StatusRemoved(target="e1", kind="frozen", reason="cured_by_burned"),
                                            StatusRemoved(target="e1", kind="chilled", reason="cured_by_burned")]
    assert state.statuses("e1") == []


# -- BLINDED: 1 turn, ATK 0 ------------------------------------------------------------------------

def test_pocket_sand_blinds_the_strike_that_follows_for_one_turn():
    given = battle([entity("mc", spd=10, moves={"pocket_sand": 5})], [enemy("e1", spd=90)], params=EXACT)
    then, state = turn(given, {"mc": ("pocket_sand", "e1"), "e1": ("strike", "mc")})
    # pocket_sand's priority 1 puts the slower mc first
    assert then[5:] == [ActionTaken(actor="mc", action="pocket_sand", target="e1", pp=4),
                        StatusGained(target="e1", kind="blinded", turn=1, by="mc"),
                        ActionTaken(actor="e1", action="strike", target="mc"),
                        DamageIgnored(target="mc", reason="no_damage", by="e1"),
                        TurnEnding(turn=1, entity="e1"),
                        TurnEnded(turn=1, party_hp={"mc": 100}),
                        StatusesAged(turn=2, elapsed=(("e1", "blinded", 1),)),
                        StatusRemoved(target="e1", kind="blinded", reason="expired"),
                        TurnStarted(turn=2, queue=("e1", "mc"))]
    assert state.entities["mc"].hp == 100


# -- AT_RISK: 3 turns, a knock-out becomes death ---------------------------------------------------

def test_mark_for_death_puts_the_target_at_risk():
    given = battle([entity("mc", spd=90, moves={"mark_for_death": 3})], [enemy("e1", **IDLE)])
    then, state = turn(given, {"mc": ("mark_for_death", "e1"), "e1": ("war_cry", "e1")})
    assert StatusGained(target="e1", kind="at_risk", turn=1, by="mc") in then
    assert aged(then) == [("e1", "at_risk", 1)]


def test_an_at_risk_target_knocked_out_dies():
    given = battle([entity("mc", spd=90)], [enemy("e1", hp=10)], effects=[ailment("at_risk", "e1")], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert then[5:] == [EffectTriggered(kind="at_risk", owner="e1", on="KoCheck"),
                        EnemyHpChanged(target="e1", seat="p2", delta=-10, hp=0, healed=False, cause="strike", by="mc"),
                        Killed(target="e1", cause="strike"),
                        BattleDecided(winner="party", reason="enemies_defeated")]
    assert state.entities["e1"].dead


def test_at_risk_expires_after_three_turns():
    then, state = started_turn(battle(effects=[ailment("at_risk", "e1", turns=2)]))
    assert then[:2] == [StatusesAged(turn=2, elapsed=(("e1", "at_risk", 3),)),
                        StatusRemoved(target="e1", kind="at_risk", reason="expired")]


# -- ACCELERATED_STATUS: infinite, counters advance by 2 -------------------------------------------

def test_hasten_decay_doubles_the_targets_counters_only():
    given = battle([entity("mc", spd=90, moves={"hasten_decay": 4})], [enemy("e1", **IDLE)],
                   effects=[ailment("bleeding", "e1"), ailment("bleeding", "mc")])
    then, state = turn(given, {"mc": ("hasten_decay", "e1"), "e1": ("war_cry", "e1")})
    assert StatusGained(target="e1", kind="accelerated_status", turn=1, by="mc") in then
    assert aged(then) == [("e1", "bleeding", 2), ("mc", "bleeding", 1), ("e1", "accelerated_status", 2)]


def test_accelerated_counters_expire_sooner():
    given = battle(effects=[ailment("accelerated_status", "e1"), ailment("at_risk", "e1", turns=1)])
    then, _ = started_turn(given)
    assert of_type(then, StatusesAged) == [StatusesAged(turn=2, elapsed=(("e1", "accelerated_status", 2),
                                                                         ("e1", "at_risk", 3)))]
    assert StatusRemoved(target="e1", kind="at_risk", reason="expired") in then     # 1 + 2 >= 3


# -- DECELERATED_STATUS: 3 turns, no other counter advances on even turns --------------------------

def test_decelerated_holds_the_other_counters_on_even_turns():
    state = battle(effects=[ailment("decelerated_status", "e1"), ailment("bleeding", "e1"), ailment("bleeding", "mc")])
    counters = []
    for _ in range(4):
        then, state = started_turn(state)
        counters.append(aged(then))
    assert counters == [
        [("e1", "decelerated_status", 1), ("e1", "bleeding", 0), ("mc", "bleeding", 1)],    # turn 2: held
        [("e1", "decelerated_status", 2), ("e1", "bleeding", 1), ("mc", "bleeding", 2)],    # turn 3
        [("e1", "decelerated_status", 3), ("e1", "bleeding", 1), ("mc", "bleeding", 3)],    # turn 4: held, then gone
        [("e1", "bleeding", 2), ("mc", "bleeding", 4)],                                     # turn 5
    ]
    assert [x.kind for x in state.statuses("e1")] == ["bleeding"]


def test_time_lock_decelerates_the_target():
    given = battle([entity("mc", spd=90, moves={"time_lock": 4})], [enemy("e1", **IDLE)],
                   effects=[ailment("blinded", "e1")])
    then, _ = turn(given, {"mc": ("time_lock", "e1"), "e1": ("war_cry", "e1")})
    assert StatusGained(target="e1", kind="decelerated_status", turn=1, by="mc") in then
    # turn 2 is even: BLINDED's counter holds at 0, so it does not expire
    assert aged(then) == [("e1", "blinded", 0), ("e1", "decelerated_status", 1)]
    assert StatusRemoved(target="e1", kind="blinded", reason="expired") not in then


def test_accelerated_and_decelerated_on_an_even_turn_hold():
    given = battle(effects=[ailment("accelerated_status", "e1"), ailment("decelerated_status", "e1"),
                            ailment("bleeding", "e1")])
    then, _ = started_turn(given)
    assert aged(then) == [("e1", "accelerated_status", 0), ("e1", "decelerated_status", 2), ("e1", "bleeding", 0)]


# -- PARALYZED: infinite, SPD +50%, no action every 2nd turn after it was gained -------------------

def test_static_charge_paralyzes_and_the_target_misses_every_second_turn():
    given = battle([entity("mc", spd=90, moves={"static_charge": 5, "war_cry": 9})],
                   [enemy("e1", spd=50, **IDLE)])
    then, state = turn(given, {"mc": ("static_charge", "e1"), "e1": ("war_cry", "e1")})
    assert StatusGained(target="e1", kind="paralyzed", turn=1, by="mc") in then
    turns, state = idle_turns(state, 4)
    acted = [[e.actor for e in of_type(t, ActionTaken)] for t in turns]
    assert acted == [["mc", "e1"], ["mc"], ["mc", "e1"], ["mc"]]    # turns 2..5: skips 3 (1 + 2) and 5 (1 + 4)
    assert aged(turns[-1]) == [("e1", "paralyzed", 5)]              # never expires


def test_paralyzed_raises_spd_by_half():
    given = battle([entity("mc", spd=40)], [enemy("e1", spd=50)], effects=[ailment("paralyzed", "mc")])
    then, _ = started_turn(given)
    assert then[-1] == TurnStarted(turn=2, queue=("mc", "e1"))      # 40 x 150% = 60 > 50


# -- Immunity: an enemy's content `immune` (README, "Bosses") ----------------------------------------

@pytest.mark.parametrize("kind, gained", [("blinded", False), ("stunned", False), ("bleeding", False),
                                          ("poisoned", False), ("burned", False), ("at_risk", False),
                                          ("chilled", True), ("paralyzed", True)])
def test_a_boss_never_gains_the_ailments_its_content_makes_it_immune_to(kind, gained):
    # given the Rat King (content: immune to BLINDED, STUNNED, BLEEDING, POISONED, BURNED and AT_RISK)
    given = battle(enemies=[replace(enemy("e1", hp=500), kind="rat_king")])
    # when an ailment is added to it
    then, state = afflicted(given, "e1", kind)
    # then it gains it only if its content does not list it, and nothing else happens
    assert then == ([StatusGained(target="e1", kind=kind, turn=1, by="mc")] if gained else [])
    assert state.has("e1", kind) is gained


def test_immunity_is_the_enemys_content_not_its_side():
    # given an enemy of a kind with no immunities (a Sewer Rat), when it is BLINDED, then it is
    then, _ = afflicted(battle(enemies=[replace(enemy("e1"), kind="sewer_rat")]), "e1", "blinded")
    assert then == [StatusGained(target="e1", kind="blinded", turn=1, by="mc")]
