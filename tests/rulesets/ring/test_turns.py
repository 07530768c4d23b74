"""Seed 000, Battle: spending AP, ending the turn, swapping, KOs and LP, items, and the
commands a turn refuses (striking the leader and the time limit: test_strike_and_time.py).

Default teams (given.py): p1 Grizzlor in the Ring (heavy_slap, double_slap, ember_ward, soothe)
against p2's Bastion Golem (140 HP, DEF 72); both leaders are Captain Gale (10 AP, swap 3,
item 1, 27 HP). Heavy Slap: Grizzlor SKL 45 against PRY 60 gives 38.33% / 46.67% / 15%; seed
b"a" rolls Normal (14 power x ATK 70 / DEF 72 = 13.61 -> 13), b"c" Critical (18 x 70/72 =
17.5 -> 17), b"x" Glancing (0 power).
"""
from __future__ import annotations

import pytest

from domain.engine.errors import RuleViolation
from domain.engine.events import hidden_fields
from domain.engine.hooks import EffectTriggered
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.commands import EndTurn, StrikeLeader, Swap, UseAbility, UseItem, UseLeaderAbility
from domain.rulesets.ring.events import (AbilityUsed, ApSpent, EffectivenessRolled, HpReduced, HpRestored,
                                         InventoryPacked, ItemUsed, LpLost, MpChanged, SwapRequired, TurnEnded,
                                         TurnStarted, TurnYielded, UnitKnockedOut, UnitRemoved, UnitRevived,
                                         UnitSwapped)
from domain.rulesets.ring.state import Params
from domain.rulesets.ring.targets import eligible

from .given import P1_TEAM, Dyn, battle, decide_after, of_type, play

NORMAL, CRITICAL, GLANCING = b"a", b"c", b"x"
SLAP_ODDS = (3833, 4667, 1500)
GOLEM_DOWN = {"p2.bastion_golem": {"hp": 0, "ko": True, "lp": 2}}


def slap(tier: str, amount: int | None) -> list:
    """The events of Grizzlor's Heavy Slap on the Golem, before any turn end."""
    events = [AbilityUsed(seat="p1", ability="heavy_slap", target=None, unit="p1.grizzlor"),
              ApSpent(seat="p1", amount=3),
              EffectivenessRolled(ability="heavy_slap", effectiveness=tier, chances=SLAP_ODDS)]
    if amount is not None:
        events.append(HpReduced(unit="p2.bastion_golem", amount=amount, by="p1.grizzlor", ability="heavy_slap"))
    return events


# -- spending AP -------------------------------------------------------------------------

@pytest.mark.parametrize("seed, tier, amount", [(NORMAL, "normal", 13), (CRITICAL, "critical", 17),
                                                (GLANCING, "glancing", None)])
def test_an_ability_spends_its_ap_whatever_it_rolls(seed, tier, amount):
    then, state = play(battle(), "p1", UseAbility(ability="heavy_slap"), seed)
    assert then == slap(tier, amount)
    assert state.p1.ap == 7
    assert state.units["p2.bastion_golem"].hp == 140 - (amount or 0)
    assert state.units["p1.grizzlor"].uses == {"heavy_slap": 1}


def test_an_ability_takes_its_mp_from_its_user():
    # Fireball: 3 AP, 10 MP; Cinderhound SKL 60 against PRY 60 (15 / 70 / 15), b"a" Normal:
    # 15 power x ATK 72 / DEF 72 = 15
    then, state = play(battle(p1_ring="cinderhound"), "p1", UseAbility(ability="fireball"), NORMAL)
    assert then[:3] == [AbilityUsed(seat="p1", ability="fireball", target=None, unit="p1.cinderhound"),
                        ApSpent(seat="p1", amount=3),
                        MpChanged(unit="p1.cinderhound", delta=-10, ability="fireball")]
    assert then[-1] == HpReduced(unit="p2.bastion_golem", amount=15, by="p1.cinderhound", ability="fireball")
    assert (state.units["p1.cinderhound"].mp, state.p1.ap) == (65, 7)


# -- ending the turn -----------------------------------------------------------------------

def test_ending_the_turn_by_choice_gives_the_other_side_its_full_ap():
    then, state = play(battle(ap=6, turn=3), "p1", EndTurn())
    assert then == [TurnYielded(seat="p1"), TurnEnded(seat="p1", reason="chosen"),
                    TurnStarted(seat="p2", turn=4, ap=10)]
    assert (state.active, state.turn, state.p1.ap, state.p2.ap) == ("p2", 4, 0, 10)
    assert RULESET.awaiting(state) == frozenset({"p2"})


def test_the_next_turn_restores_that_leaders_own_ap():
    then = decide_after(battle(p2_leader="ironhelm"), "p1", EndTurn())
    assert then[-1] == TurnStarted(seat="p2", turn=2, ap=8)                 # Ironhelm: 8 AP


def test_the_turn_ends_by_itself_at_zero_ap():
    then, state = play(battle(ap=3), "p1", UseAbility(ability="heavy_slap"), NORMAL)
    assert then == slap("normal", 13) + [TurnEnded(seat="p1", reason="out_of_ap"),
                                         TurnStarted(seat="p2", turn=2, ap=10)]
    assert state.active == "p2"


def test_the_turn_ends_by_itself_when_nothing_left_is_affordable():
    # 4 - 3 leaves 1 AP: Grizzlor's cheapest is 2 (soothe), Gust Strike 2, a swap 3
    then, state = play(battle(ap=4), "p1", UseAbility(ability="heavy_slap"), NORMAL)
    assert then[-2:] == [TurnEnded(seat="p1", reason="out_of_ap"), TurnStarted(seat="p2", turn=2, ap=10)]
    assert state.p1.ap == 0


def test_one_affordable_item_keeps_the_turn_open():
    then, state = play(battle(ap=4, items={"p1": ["potion"]}), "p1", UseAbility(ability="heavy_slap"), NORMAL)
    assert then == slap("normal", 13)
    assert (state.active, state.p1.ap) == ("p1", 1)


def test_zero_ap_ends_the_turn_even_with_free_items_left():
    # seed 000, Ending the Turn: "When a team's remaining 'AP' is 0, their turn is over and the
    # enemy turn begins." Vesper's items cost 0 AP.
    then, state = play(battle(p1_leader="vesper", ap=3, items={"p1": ["potion"]}), "p1",
                       UseAbility(ability="heavy_slap"), NORMAL)
    assert then[-2:] == [TurnEnded(seat="p1", reason="out_of_ap"), TurnStarted(seat="p2", turn=2, ap=10)]
    assert state.active == "p2"


# -- swapping --------------------------------------------------------------------------------

def test_a_swap_costs_the_leaders_swap_cost():
    then, state = play(battle(), "p1", Swap(unit="fang_shrike"))
    assert then == [UnitSwapped(seat="p1", unit="fang_shrike", out="p1.grizzlor", cost=3),
                    ApSpent(seat="p1", amount=3)]
    assert (state.p1.ring, state.p1.ap) == ("p1.fang_shrike", 7)


def test_swap_cost_is_the_leaders_and_quick_hands_lowers_it():
    then = decide_after(battle(p1_leader="verdana"), "p1", Swap(unit="fang_shrike"))
    assert then[0].cost == 4
    hands = Dyn(id="d1", kind="quick_hands", source="leader", seat="p1", severity=5, by="p1")
    then, state = play(battle(dynamics=[hands]), "p1", Swap(unit="fang_shrike"))
    assert then == [UnitSwapped(seat="p1", unit="fang_shrike", out="p1.grizzlor", cost=2),
                    EffectTriggered(kind="quick_hands", owner="d1", on="SwapCost"), ApSpent(seat="p1", amount=2)]
    # the enemy's Quick Hands does not help p1
    theirs = Dyn(id="d1", kind="quick_hands", source="leader", seat="p2", severity=5, by="p2")
    assert decide_after(battle(dynamics=[theirs]), "p1", Swap(unit="fang_shrike"))[0].cost == 3


@pytest.mark.parametrize("state, unit, message", [
    (battle(ap=2), "fang_shrike", "Swap Unit costs 3 AP; you have 2"),
    (battle(), "grizzlor", "not a unit on your bench"),                  # already in the Ring
    (battle(), "hex_lich", "not a unit on your bench"),                  # not on the team
    (battle(units={"p1.fang_shrike": {"hp": 0, "ko": True}}), "fang_shrike", "not a unit on your bench"),
])
def test_refused_swaps(state, unit, message):
    with pytest.raises(RuleViolation, match=message):
        decide_after(state, "p1", Swap(unit=unit))


def test_a_knocked_out_ring_unit_must_be_swapped_out_for_free_at_turn_start():
    then, state = play(battle(units=GOLEM_DOWN), "p1", EndTurn())
    assert then[-2:] == [TurnStarted(seat="p2", turn=2, ap=10),
                         SwapRequired(seat="p2", unit="p2.bastion_golem")]
    assert state.swap_required
    assert RULESET.legal_commands(state, "p2") == [Swap(unit="moss_mother"), Swap(unit="hex_lich"),
                                                   Swap(unit="shadow_cat")]
    for cmd in (EndTurn(), StrikeLeader(ap=1), UseLeaderAbility(ability="gust_strike")):
        with pytest.raises(RuleViolation, match="swap it out first"):
            decide_after(state, "p2", cmd)
    then, state = play(state, "p2", Swap(unit="hex_lich"))
    assert then == [UnitSwapped(seat="p2", unit="hex_lich", out="p2.bastion_golem", cost=0)]
    assert (state.p2.ring, state.p2.ap, state.swap_required) == ("p2.hex_lich", 10, False)
    # the next swap of the turn costs again
    assert decide_after(state, "p2", Swap(unit="shadow_cat"))[0].cost == 3


def test_a_ring_unit_knocked_out_as_its_own_turn_starts_is_swapped_out_at_once():
    burning = Dyn(id="d1", kind="burning", source="ability", seat="p2", unit="p2.bastion_golem", severity=5,
                  by="p1")
    then, state = play(battle(dynamics=[burning], units={"p2.bastion_golem": {"hp": 5}}), "p1", EndTurn())
    assert [e for e in then if not e.TOPIC.startswith("engine.")][2:] == [
        TurnStarted(seat="p2", turn=2, ap=10),
        HpReduced(unit="p2.bastion_golem", amount=10, kind="dynamic"),         # Burning 5: 10 HP
        UnitKnockedOut(unit="p2.bastion_golem"), LpLost(unit="p2.bastion_golem", amount=1),
        SwapRequired(seat="p2", unit="p2.bastion_golem")]
    assert state.swap_required


# -- KO and LP ---------------------------------------------------------------------------

def test_zero_hp_is_a_ko_that_costs_one_lp():
    given = battle(items={"p1": ["fire_bomb"]}, units={"p2.bastion_golem": {"hp": 10}})
    then, state = play(given, "p1", UseItem(item="fire_bomb"))
    assert then[3:] == [HpReduced(unit="p2.bastion_golem", amount=10, ability="fire_bomb"),
                        UnitKnockedOut(unit="p2.bastion_golem"), LpLost(unit="p2.bastion_golem", amount=1)]
    golem = state.units["p2.bastion_golem"]
    assert (golem.hp, golem.lp, golem.ko, golem.removed) == (0, 2, True, False)
    assert "p2.bastion_golem" in state.down
    # its Burning found no target: a KO'd unit is not hit
    assert state.dynamics == ()


def test_zero_lp_removes_the_unit_for_good():
    given = battle(items={"p1": ["fire_bomb", "potion"]}, units={"p2.bastion_golem": {"hp": 10, "lp": 1}})
    then, state = play(given, "p1", UseItem(item="fire_bomb"))
    assert then[-3:] == [UnitKnockedOut(unit="p2.bastion_golem"), LpLost(unit="p2.bastion_golem", amount=1),
                         UnitRemoved(unit="p2.bastion_golem")]
    golem = state.units["p2.bastion_golem"]
    assert (golem.lp, golem.removed) == (0, True)
    assert "p2.bastion_golem" not in eligible(state, "p2")             # not pickable again
    # and no healing brings it back (seed 000, LP)
    mine = battle(p1_team=P1_TEAM, items={"p1": ["potion"]}, units={"p1.fang_shrike": {"hp": 0, "lp": 0,
                                                                                          "removed": True}})
    with pytest.raises(RuleViolation, match="cannot target 'p1.fang_shrike'"):
        decide_after(mine, "p1", UseItem(item="potion", target="p1.fang_shrike"))


def test_a_knocked_out_unit_cannot_be_targeted_for_hp_damage():
    with pytest.raises(RuleViolation, match="Heavy Slap has no target now"):
        decide_after(battle(units=GOLEM_DOWN), "p1", UseAbility(ability="heavy_slap"))
    # Ember Toss picks any enemy unit: the KO'd one is not among them
    tosser = battle(p1_ring="cinderhound", units={"p1.cinderhound": {"priorities": ("ember_toss",)},
                                                  "p2.hex_lich": {"hp": 0, "ko": True}})
    assert [c.target for c in RULESET.legal_commands(tosser, "p1")
            if isinstance(c, UseAbility) and c.ability == "ember_toss"] == [
        "p2.bastion_golem", "p2.moss_mother", "p2.shadow_cat"]
    with pytest.raises(RuleViolation, match="cannot target 'p2.hex_lich'"):
        decide_after(tosser, "p1", UseAbility(ability="ember_toss", target="p2.hex_lich"))


def test_healing_a_knocked_out_ally_revives_it():
    given = battle(items={"p1": ["potion"]}, units={"p1.fang_shrike": {"hp": 0, "ko": True, "lp": 2}})
    then, state = play(given, "p1", UseItem(item="potion", target="p1.fang_shrike"))
    assert then == [ItemUsed(seat="p1", item="potion", target="p1.fang_shrike"), ApSpent(seat="p1", amount=1),
                    EffectivenessRolled(ability="potion", effectiveness="normal", chances=(0, 10_000, 0)),
                    HpRestored(unit="p1.fang_shrike", amount=25, ability="potion"),
                    UnitRevived(unit="p1.fang_shrike")]
    shrike = state.units["p1.fang_shrike"]
    assert (shrike.hp, shrike.ko, shrike.lp) == (25, False, 2)
    assert "p1.fang_shrike" not in state.down


def test_a_heal_records_the_hp_it_restores():
    # given Fang Shrike at 80 of 95 HP; when a Potion (25 HP) heals it: 95 - 80 = 15 restored
    given = battle(items={"p1": ["potion"]}, units={"p1.fang_shrike": {"hp": 80}})
    then, state = play(given, "p1", UseItem(item="potion", target="p1.fang_shrike"))
    assert then[-1] == HpRestored(unit="p1.fang_shrike", amount=15, ability="potion")
    assert state.units["p1.fang_shrike"].hp == 95
    # at full HP a heal restores nothing, and nothing is recorded
    then = decide_after(battle(items={"p1": ["potion"]}), "p1", UseItem(item="potion", target="p1.fang_shrike"))
    assert not of_type(then, HpRestored)


def test_heal_records_asked_records_the_amount_asked_for():
    # ring 1.0.0: the Potion's 25, though only 15 HP were missing
    given = battle(items={"p1": ["potion"]}, units={"p1.fang_shrike": {"hp": 80}}, params=Params(heal_records="asked"))
    then, state = play(given, "p1", UseItem(item="potion", target="p1.fang_shrike"))
    assert then[-1] == HpRestored(unit="p1.fang_shrike", amount=25, ability="potion")
    assert state.units["p1.fang_shrike"].hp == 95


# -- items ------------------------------------------------------------------------------------

def test_an_item_is_used_once_public_and_at_the_leaders_item_cost():
    then, state = play(battle(items={"p1": ["potion", "ether", "potion"]}), "p1",
                       UseItem(item="potion", target="p1.fang_shrike"))
    assert then[:2] == [ItemUsed(seat="p1", item="potion", target="p1.fang_shrike"), ApSpent(seat="p1", amount=1)]
    assert state.p1.items == ("ether", "potion")                 # one copy gone
    assert state.units["p1.fang_shrike"].hp == 95                # already full: HP stops at max
    assert hidden_fields(ItemUsed) == ()                         # using it shows it
    assert [name for name, _ in hidden_fields(InventoryPacked)] == ["items"]


@pytest.mark.parametrize("leader, cost, ap_after", [("vesper", 0, 10), ("verdana", 2, 8), ("gale", 1, 9)])
def test_item_cost_depends_on_the_leader(leader, cost, ap_after):
    then, state = play(battle(p1_leader=leader, items={"p1": ["ether"]}), "p1",
                       UseItem(item="ether", target="p1.grizzlor"))
    assert [e.amount for e in then if isinstance(e, ApSpent)] == ([cost] if cost else [])
    assert (state.p1.ap, state.p1.items) == (ap_after, ())


def test_an_item_needs_the_ap_and_the_item():
    with pytest.raises(RuleViolation, match="using an item costs 2 AP; you have 1"):
        decide_after(battle(p1_leader="verdana", ap=1, items={"p1": ["ether"]}), "p1",
                     UseItem(item="ether", target="p1.grizzlor"))
    with pytest.raises(RuleViolation, match="'potion' is not in your inventory"):
        decide_after(battle(items={"p2": ["potion"]}), "p1", UseItem(item="potion", target="p1.grizzlor"))


# -- refused commands: nothing is decided --------------------------------------------------

@pytest.mark.parametrize("given, cmd, message", [
    (battle(ap=2), UseAbility(ability="heavy_slap"), "Heavy Slap costs 3 AP; you have 2"),
    (battle(p1_ring="cinderhound", units={"p1.cinderhound": {"mp": 9}}), UseAbility(ability="fireball"),
     "Fireball takes 10 MP; cinderhound has 9"),
    (battle(), UseAbility(ability="heavy_slap", target="p2.moss_mother"), "cannot target 'p2.moss_mother'"),
    (battle(), UseAbility(ability="soothe", target="p2.moss_mother"), "cannot target 'p2.moss_mother'"),
    (battle(), UseAbility(ability="flying_kick"), "'flying_kick' is not in the Ability Slots of grizzlor"),
    (battle(), UseAbility(ability="haymaker"), "'haymaker' is not in the Ability Slots of grizzlor"),
    (battle(), UseLeaderAbility(ability="rally_guard"), "'rally_guard' is not an ability of your leader"),
    (battle(items={"p1": ["potion"]}), UseItem(item="potion", target="p2.hex_lich"), "cannot target"),
    (battle(units={"p1.grizzlor": {"hp": 0, "ko": True}}), UseAbility(ability="heavy_slap"), "is KO'd"),
    (battle(phase="ring", active=None), UseAbility(ability="heavy_slap"), "the battle has not begun"),
    (battle(phase="ring", active=None), Swap(unit="fang_shrike"), "the battle has not begun"),
])
def test_a_refused_command_decides_nothing(given, cmd, message):
    with pytest.raises(RuleViolation, match=message):
        decide_after(given, "p1", cmd)


def test_only_the_active_side_is_awaited():
    # the engine refuses a seat that is not awaited (NotYourTurn) before `decide` runs
    state = battle()
    assert RULESET.awaiting(state) == frozenset({"p1"})
    assert RULESET.legal_commands(state, "p2") == []
    assert EndTurn() in RULESET.legal_commands(state, "p1")
