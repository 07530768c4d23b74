"""A status removed earlier in the same batch reacts no more (since 1.2.0): at a turn's end a
heal that cures BLEEDING stops that bleed, and a POISONED that spared its holder is gone
before its own tick. Showdown's `runEvent` skips a status its holder no longer has; rat 1.0.0
and 1.1.0 recorded such reactions, so their battles keep them (`Rules.removed_statuses_react`).

Entities come from given.py; `IDLE` entities only raise their own ATK, so each turn's end is
all that moves HP.
"""
from __future__ import annotations

from domain.engine.hooks import EffectTriggered
from domain.engine.rng import Rng
from domain.rulesets.rat.events import HpChanged, KnockedOut, KnockOutAverted, StatusRemoved
from domain.rulesets.rat.resolver import RESOLVING
from domain.rulesets.rat.state import Rules

from .given import RULES_1_1_0, SEED, ailment, battle, enemy, entity, passive, turn
from .test_ailments import IDLE, turn_end

IDLE_TURN = {"mc": ("war_cry", "mc"), "e1": ("war_cry", "e1")}


def bleeding_under_a_scarf(rules: Rules = Rules()):
    """mc at 50 / 160 HP wears a REGEN_SCARF (its passive first, as a battle puts worn gear
    before any ailment) and bleeds."""
    return battle([entity("mc", hp=50, max_hp=160, **IDLE)], [enemy("e1", **IDLE)], rules=rules,
                  effects=[passive("regen_scarf", "mc"), ailment("bleeding", "mc")])


def poisoned_and_bleeding(rules: Rules = Rules()):
    """mc at 10 / 160 HP bleeds, then is poisoned."""
    return battle([entity("mc", hp=10, max_hp=160, **IDLE)], [enemy("e1", **IDLE)], rules=rules,
                  effects=[ailment("bleeding", "mc"), ailment("poisoned", "mc")])


REGEN_CURES_BLEEDING = [
    EffectTriggered(kind="regen_scarf", owner="mc", on="rat.TurnEnding"),
    HpChanged(target="mc", delta=10, hp=60, cause="regen_scarf", by="mc"),
    EffectTriggered(kind="bleeding", owner="mc", on="rat.HpChanged"),
    StatusRemoved(target="mc", kind="bleeding", reason="healed"),
]
POISON_SPARES = [
    EffectTriggered(kind="bleeding", owner="mc", on="rat.TurnEnding"),
    EffectTriggered(kind="poisoned", owner="mc", on="KoCheck"),
    KnockOutAverted(target="mc", by="poisoned"),
    HpChanged(target="mc", delta=-9, hp=1, cause="bleeding"),
    StatusRemoved(target="mc", kind="poisoned", reason="averted_knock_out"),
]


def test_a_bleeding_cured_by_a_regen_heal_at_the_turn_end_does_not_bleed():
    # seed 003, BLEEDING: "Target takes 1/8 * target.max_hp damage at the end of each turn. If
    # the target is healed by any amount, this status is removed."
    # given: mc bleeds under a REGEN_SCARF, whose end-of-turn heal comes first
    # when: turn 1 ends
    then, state = turn(bleeding_under_a_scarf(), IDLE_TURN)
    # then: the scarf heals 160 / 16 = 10 (50 -> 60) and cures the bleeding, which, removed,
    # no longer takes its 160 / 8 = 20
    assert turn_end(then) == REGEN_CURES_BLEEDING
    assert (state.entities["mc"].hp, state.statuses("mc")) == (60, [passive("regen_scarf", "mc")])


def test_a_poison_that_spared_its_holder_at_the_turn_end_does_not_tick_it_out():
    # seed 003, POISONED: "If the target would be knocked out, this status is cured instead and
    # target.current_hp is set to 1"
    # given: mc at 10 HP bleeds, then is poisoned
    # when: turn 1 ends
    then, state = turn(poisoned_and_bleeding(), IDLE_TURN)
    # then: the bleed's 160 / 8 = 20 would knock mc out; the poison leaves it at 1 HP and is
    # cured, so its own 160 / 16 = 10 never comes: mc stands at 1 HP, still bleeding
    assert turn_end(then) == POISON_SPARES
    assert (state.entities["mc"].hp, state.entities["mc"].ko) == (1, False)
    assert [x.kind for x in state.statuses("mc")] == ["bleeding"]
    assert state.result is None


def test_a_battle_of_rat_1_1_0_bleeds_after_the_cure_as_it_recorded():
    # given: the scarf and the bleed, under 1.1.0's rules
    # when: turn 1 ends
    then, state = turn(bleeding_under_a_scarf(RULES_1_1_0), IDLE_TURN)
    # then: the cured bleeding still takes its 20: 60 - 20 = 40
    assert turn_end(then) == [*REGEN_CURES_BLEEDING,
                              EffectTriggered(kind="bleeding", owner="mc", on="rat.TurnEnding"),
                              HpChanged(target="mc", delta=-20, hp=40, cause="bleeding")]
    assert state.entities["mc"].hp == 40


def test_a_battle_of_rat_1_1_0_ticks_the_cured_poison_as_it_recorded():
    # given: the bleed and the poison at 10 HP, under 1.1.0's rules
    # when: turn 1 ends
    then, state = turn(poisoned_and_bleeding(RULES_1_1_0), IDLE_TURN)
    # then: the cured poison still takes 10 from 1 HP, which knocks mc out (and cures its bleeding)
    assert turn_end(then) == [*POISON_SPARES,
                              EffectTriggered(kind="poisoned", owner="mc", on="rat.TurnEnding"),
                              HpChanged(target="mc", delta=-1, hp=0, cause="poisoned"),
                              StatusRemoved(target="mc", kind="bleeding", reason="knocked_out"),
                              KnockedOut(target="mc", turn=1)]
    assert state.entities["mc"].ko


def test_the_resolver_reads_the_switch_from_the_battles_rules():
    # 1.1.0's snapshot records only `enemy_hp_changes`; the rules added since play their `Older` value
    assert RULES_1_1_0 == Rules(spd_at_minus_infinity="minus_infinity", removed_statuses_react=True, ai_version=1)
    assert RESOLVING(battle(), Rng(SEED)).react_when_gone is False
    assert RESOLVING(battle(rules=RULES_1_1_0), Rng(SEED)).react_when_gone is True
