"""Guard actions (seed 002, Actions > Guard) take stances that last until the start of their
owner's next turn: Shield Wall (+Defense), Evade (+Evasion), Bulwark (+Defense to adjacent
allies), Sentinel (an enemy stepping into the owner's zone of control taps a token) and Riposte
(an enemy attacking the owner from next to it taps a token). Each is a hook in effects.py."""
from __future__ import annotations

from domain.engine.hooks import Effect, EffectTriggered
from domain.rulesets.battleboard.commands import Act, EndTurn, Move
from domain.rulesets.battleboard.hooks import defense_of, evasion_of
from domain.rulesets.battleboard.events import (ActionTaken, AttackIgnored, Charged, CombatEnded, Defeated, DiceRolled, Moved, StanceEnded,
                                                StanceTaken, TokenDiscarded, TokenTapped)
from domain.rulesets.battleboard.state import FOES

from .given import ACTIONS, battle, of_type, play, unit


def test_the_content_numbers_these_tests_quote():
    stances = {k: [(s.stance, s.amount) for s in ACTIONS[k].steps if s.do == "stance"]
               for k in ("raise_shield", "sidestep", "blur", "tide_ward", "hold_the_line", "parry", "flame_ward")}
    assert stances == {"raise_shield": [("shield_wall", 1)], "sidestep": [("evade", 1)], "blur": [("evade", 2)],
                       "tide_ward": [("bulwark", 1)], "hold_the_line": [("sentinel", 1)], "parry": [("riposte", 1)],
                       "flame_ward": [("riposte", 1)]}


def stance(kind, owner="h1", amount=1):
    return Effect(kind=kind, owner=owner, severity=amount)


def test_a_guard_action_takes_its_stance():
    given = battle(unit("h1", (2, 1), actions=("raise_shield",)), unit("f1", (2, 4)))
    then, state = play(given, "h1", Act(unit="h1", action="raise_shield"))
    assert then == [ActionTaken(seat="h1", unit="h1", action="raise_shield", kind="guard"),
                    StanceTaken(unit="h1", stance="shield_wall", amount=1)]
    assert state.stances == (stance("shield_wall"),)


def test_shield_wall_raises_the_owners_defense():
    given = battle(unit("h1", (2, 2), defense=4), unit("f1", (2, 3)), active=FOES, stances=(stance("shield_wall"),))
    then, state = play(given, "gm", Act(unit="f1", action="strike", targets=("h1",)), [5, 6])
    # 2 hits x 2 + 1 = 5: against Defense 4 + 1 only a tap
    assert then[1:] == [EffectTriggered(kind="shield_wall", owner="h1", on="DefenseQuery"),
                        DiceRolled(attacker="f1", target="h1", origin=(2, 2), expression="2d*2+1", dice=[5, 6],
                                   rerolls=[], evasion=4, hits=2, av=5, defense=5, band="tap"),
                        TokenTapped(unit="h1", reason="tap")]
    assert defense_of(state, state.units["h1"]) == 5


def test_evade_raises_the_owners_evasion():
    given = battle(unit("h1", (2, 2), evasion=4), unit("f1", (2, 3)), active=FOES, stances=(stance("evade", amount=2),))
    then, _ = play(given, "gm", Act(unit="f1", action="strike", targets=("h1",)), [5, 6])
    # evasion 4 + 2: 5 and 6 both miss; 0 hits x 2 + 1 = 1
    assert then[1] == EffectTriggered(kind="evade", owner="h1", on="EvasionQuery")
    rolled = of_type(then, DiceRolled)[0]
    assert (rolled.evasion, rolled.hits, rolled.av) == (6, 0, 1)


def test_blur_costs_focus_for_two_evasion():
    given = battle(unit("h1", (2, 2), focus=1, actions=("blur",)), unit("f1", (2, 5)))
    _, state = play(given, "h1", Act(unit="h1", action="blur"))
    assert (evasion_of(state, state.units["h1"]), state.units["h1"].focus) == (6, 0)


def test_bulwark_raises_the_defense_of_adjacent_allies_only():
    given = battle(unit("h1", (2, 1)), unit("h2", (2, 2)), unit("h3", (4, 2)), unit("f1", (2, 5)),
                   stances=(stance("bulwark"),))
    assert [defense_of(given, given.units[k]) for k in ("h1", "h2", "h3")] == [4, 5, 4]


def test_bulwark_counts_in_the_attack():
    given = battle(unit("h1", (2, 1)), unit("h2", (2, 2)), unit("f1", (2, 3)), active=FOES,
                   stances=(stance("bulwark"),))
    then, _ = play(given, "gm", Act(unit="f1", action="strike", targets=("h2",)), [5, 6])
    assert of_type(then, DiceRolled)[0].band == "tap"         # AV 5 against 4 + 1


def test_sentinel_taps_a_token_of_an_enemy_stepping_into_its_zone():
    given = battle(unit("h1", (2, 1)), unit("f1", (2, 4)), active=FOES, stances=(stance("sentinel"),))
    _, state = play(given, "gm", Move(unit="f1", to=(2, 3)))
    then, state = play(state, "gm", Move(unit="f1", to=(2, 2)))
    # (2,3) is outside h1's zone; (2,2) is next to h1: 1 + 1 for the zone
    assert then == [Moved(seat="gm", unit="f1", to=(2, 2), cost=2),
                    EffectTriggered(kind="sentinel", owner="h1", on="battleboard.Moved"),
                    TokenTapped(unit="f1", reason="stance")]
    assert state.units["f1"].tapped == 1


def test_sentinel_discards_a_tapped_token_or_defeats():
    given = battle(unit("h1", (2, 1)), unit("f1", (2, 3), untapped=0, tapped=1), unit("f2", (4, 5)), active=FOES,
                   stances=(stance("sentinel"),))
    then, state = play(given, "gm", Move(unit="f1", to=(2, 2)))
    assert then[-1] == TokenDiscarded(unit="f1", tapped=True, reason="stance")
    given = battle(unit("h1", (2, 1)), unit("f1", (2, 3), untapped=0, tapped=0), unit("f2", (4, 5)), active=FOES,
                   stances=(stance("sentinel"),))
    then, state = play(given, "gm", Move(unit="f1", to=(2, 2)))
    assert then[-1] == Defeated(unit="f1") and state.units["f1"].defeated


def test_sentinel_ignores_allies():
    given = battle(unit("h1", (2, 1)), unit("h2", (2, 3)), unit("f1", (4, 5)), stances=(stance("sentinel"),))
    then, _ = play(given, "h2", Move(unit="h2", to=(2, 2)))
    assert then == [Moved(seat="h2", unit="h2", to=(2, 2), cost=1)]


def test_riposte_taps_a_token_of_an_adjacent_attacker():
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3)), active=FOES, stances=(stance("riposte"),))
    then, state = play(given, "gm", Act(unit="f1", action="strike", targets=("h1",)), [1, 2])
    # even a miss is answered (the miss still taps h1: 0 hits x 2 + 1 = 1)
    assert then[2:] == [EffectTriggered(kind="riposte", owner="h1", on="battleboard.DiceRolled"),
                        TokenTapped(unit="f1", reason="stance"), TokenTapped(unit="h1", reason="tap")]
    assert state.units["f1"].tapped == 1


def test_riposte_does_not_answer_an_attack_from_afar():
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 4), actions=("firebolt",)), active=FOES,
                   stances=(stance("riposte"),))
    then, state = play(given, "gm", Act(unit="f1", action="firebolt", targets=("h1",)), [1, 2])
    assert of_type(then, EffectTriggered) == [] and state.units["f1"].tapped == 0


def test_riposte_does_not_answer_attacks_on_others():
    given = battle(unit("h1", (2, 2)), unit("h2", (3, 3)), unit("f1", (2, 3)), active=FOES,
                   stances=(stance("riposte"),))
    then, _ = play(given, "gm", Act(unit="f1", action="strike", targets=("h2",)), [1, 2])
    assert of_type(then, EffectTriggered) == []


def test_a_riposte_that_defeats_the_last_foe_ends_the_battle_there():
    given = battle(unit("h1", (2, 2)), unit("f1", (2, 3), untapped=0, tapped=0), active=FOES,
                   stances=(stance("riposte"),))
    then, state = play(given, "gm", Act(unit="f1", action="strike", targets=("h1",)), [5, 6])
    assert then[-3:] == [EffectTriggered(kind="riposte", owner="h1", on="battleboard.DiceRolled"),
                         Defeated(unit="f1"), CombatEnded(winner="heroes", reason="every combatant of the foes was defeated")]
    assert (state.units["h1"].untapped, state.plan) == (3, None)


def test_stances_end_at_the_start_of_their_owners_next_turn():
    given = battle(unit("h1", (2, 1)), unit("f1", (2, 4)), stances=(stance("shield_wall"), stance("sentinel")))
    _, state = play(given, "h1", EndTurn())
    assert len(state.stances) == 2                             # they hold through the foes' turn
    then, state = play(state, "gm", EndTurn())
    assert of_type(then, StanceEnded) == [StanceEnded(unit="h1", stance="shield_wall"),
                                          StanceEnded(unit="h1", stance="sentinel")]
    assert state.stances == ()


def test_taking_a_stance_again_replaces_it():
    given = battle(unit("h1", (2, 1), energy=1, actions=("parry", "flame_ward"), focus=1), unit("f1", (2, 4)))
    _, state = play(given, "h1", Act(unit="h1", action="parry"))
    then, state = play(state, "h1", Act(unit="h1", action="flame_ward"))
    assert then[1:] == [StanceEnded(unit="h1", stance="riposte"), StanceTaken(unit="h1", stance="riposte", amount=1)]
    assert state.stances == (stance("riposte"),)


def test_a_defeated_combatants_stances_end():
    given = battle(unit("h1", (2, 2), untapped=0, tapped=0), unit("h2", (0, 0)), unit("f1", (2, 3)), active=FOES,
                   stances=(stance("shield_wall"),))
    _, state = play(given, "gm", Act(unit="f1", action="strike", targets=("h1",)), [5, 6])
    assert state.units["h1"].defeated and state.stances == ()


def test_sentinel_taps_an_enemy_charging_into_its_zone():
    given = battle(unit("h1", (2, 1)), unit("f1", (2, 4), energy=1, movement=("bull_rush",), actions=("charge",)),
                   unit("h2", (2, 3)), active=FOES, stances=(stance("sentinel"),))
    then, state = play(given, "gm", Act(unit="f1", action="charge", at=(2, 2)), [1, 1])
    # through h2 at (2,3) to (2,2), next to h1: the charge steps into h1's zone once
    assert then[1:4] == [Charged(unit="f1", cells=[[2, 3], [2, 2]], cost=2),
                         EffectTriggered(kind="sentinel", owner="h1", on="battleboard.Charged"),
                         TokenTapped(unit="f1", reason="stance")]
    assert state.units["f1"].tapped == 1


def test_a_charge_outside_the_sentinels_zone_is_not_answered():
    given = battle(unit("h1", (0, 1)), unit("f1", (2, 4), energy=1, movement=("bull_rush",), actions=("charge",)),
                   unit("h2", (2, 3)), active=FOES, stances=(stance("sentinel"),))
    then, _ = play(given, "gm", Act(unit="f1", action="charge", at=(2, 2)), [1, 1])
    assert of_type(then, EffectTriggered) == []
