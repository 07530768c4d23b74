"""Seed 000, Pre-Battle: initiative, the battlefield, the hidden team pick (and the preview
advantage), the Dynamics every side brings, and the blind Ring pick.

Seeds were searched once for each outcome; the rolls they give are asserted exactly, so a
change to how initiative draws shows up here.
"""
from __future__ import annotations

import pytest

from domain.engine.choices import ChoiceLocked, ChoicesRevealed
from domain.engine.errors import RuleViolation
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.commands import ChooseBattlefield, PickRing, PickTeam
from domain.rulesets.ring.events import (AttributeBoosted, BattlefieldChosen, BattlefieldDrawn, DynamicAdded,
                                         InitiativeRolled, PickStarted, TeamPreviewed, TurnStarted)

from .given import battle, decide_after, of_type, play, preset_setup, started, topics

# ember_rush (Ignis: +3 initiative, advantage "battlefield") vs iron_wall (Ironhelm: +0, "boost")
P1_WINS = b"0"            # p1 19 + 3 = 22, p2 20 + 0 = 20: the leader bonus decides it
P2_WINS = b"5"            # p1 5 + 3 = 8, p2 18
TIE_THEN_P2 = b"25"       # 5 + 3 = 8 against 8: roll again; 2 + 3 = 5 against 10
TIE_THEN_P1 = b"27"       # 9 + 3 = 12 against 12; 20 + 3 = 23 against 3

EMBER_TEAM = ("shadow_cat", "fang_shrike", "grizzlor", "ember_wisp")
IRON_TEAM = ("shellback", "bastion_golem", "rot_ogre", "moss_mother")


def initiative(events) -> InitiativeRolled:
    [rolled] = of_type(events, InitiativeRolled)
    return rolled


def teams_picked(state, p1_team=EMBER_TEAM, p2_team=IRON_TEAM):
    """Both teams locked (p1 first): the second lock's events and the state after."""
    _, state = play(state, "p1", PickTeam(units=p1_team))
    return play(state, "p2", PickTeam(units=p2_team))


# -- initiative: 1..20 plus the leader's initiative, ties roll again -----------------------

@pytest.mark.parametrize("seed, rolls, winner, advantage", [
    (P1_WINS, {"p1": [19], "p2": [20]}, "p1", "battlefield"),
    (P2_WINS, {"p1": [5], "p2": [18]}, "p2", "boost"),
    (TIE_THEN_P2, {"p1": [5, 2], "p2": [8, 10]}, "p2", "boost"),
    (TIE_THEN_P1, {"p1": [9, 20], "p2": [12, 3]}, "p1", "battlefield"),
])
def test_initiative_rolls_plus_leader_bonus_and_the_winners_advantage(seed, rolls, winner, advantage):
    events, state = started(preset_setup(), seed)
    assert initiative(events) == InitiativeRolled(rolls=rolls, bonus={"p1": 3, "p2": 0}, winner=winner,
                                                  advantage=advantage)
    assert (state.initiative, state.advantage) == (winner, advantage)


def test_the_start_events_come_in_order():
    events, _ = started(preset_setup(), P2_WINS)
    assert topics(events) == ["RingStarted", "DeckBuilt", "InventoryPacked", "DeckBuilt", "InventoryPacked",
                              "InitiativeRolled", "BattlefieldDrawn", "PickStarted"]


# -- the battlefield ---------------------------------------------------------------------

def test_without_the_battlefield_advantage_the_rng_draws_it():
    events, state = started(preset_setup(), P2_WINS)
    assert of_type(events, BattlefieldDrawn) == [BattlefieldDrawn(battlefield="ashen_spire", by="rng")]
    assert state.battlefield == "ashen_spire"
    assert of_type(events, PickStarted) == [PickStarted(kind="pick_team", order=("p1", "p2"))]
    assert RULESET.awaiting(state) == frozenset({"p1", "p2"})


def test_a_battlefield_fixed_by_the_setup_beats_the_advantage():
    events, state = started(preset_setup(battlefield="windy_steppe"), P1_WINS)
    assert initiative(events).advantage == "battlefield"
    assert of_type(events, BattlefieldDrawn) == [BattlefieldDrawn(battlefield="windy_steppe", by="setup")]
    assert state.phase == "team"
    with pytest.raises(RuleViolation):
        decide_after(state, "p1", ChooseBattlefield(battlefield="volcano_rim"))


def test_the_battlefield_advantage_awaits_only_the_winners_choice():
    events, state = started(preset_setup(), P1_WINS)
    assert of_type(events, BattlefieldDrawn) == [] and of_type(events, PickStarted) == []
    assert (state.phase, state.battlefield) == ("battlefield", None)
    assert RULESET.awaiting(state) == frozenset({"p1"})
    assert RULESET.legal_commands(state, "p2") == []
    assert RULESET.legal_commands(state, "p1") == [
        ChooseBattlefield(battlefield=b) for b in ("ashen_spire", "cursed_library", "null_sanctum", "volcano_rim",
                                                   "windy_steppe")]
    then, state = play(state, "p1", ChooseBattlefield(battlefield="volcano_rim"))
    assert then == [BattlefieldChosen(seat="p1", battlefield="volcano_rim"),
                    PickStarted(kind="pick_team", order=("p1", "p2"))]
    assert (state.battlefield, state.phase) == ("volcano_rim", "team")


def test_an_unknown_battlefield_cannot_be_chosen():
    _, state = started(preset_setup(), P1_WINS)
    with pytest.raises(RuleViolation, match="unknown battlefield 'moon'"):
        decide_after(state, "p1", ChooseBattlefield(battlefield="moon"))


# -- the hidden, simultaneous team pick ---------------------------------------------------

def test_a_team_locks_hidden_and_sorted_and_nothing_is_revealed_until_both_lock():
    _, state = started(preset_setup(), P2_WINS)
    then, state = play(state, "p1", PickTeam(units=EMBER_TEAM))
    assert then == [ChoiceLocked(seat="p1", kind="pick_team",
                                 choice={"units": ["ember_wisp", "fang_shrike", "grizzlor", "shadow_cat"]})]
    assert RULESET.awaiting(state) == frozenset({"p2"})
    assert state.p1.team == ()                              # not revealed yet
    with pytest.raises(RuleViolation, match="already locked"):
        decide_after(state, "p1", PickTeam(units=EMBER_TEAM))
    then, state = play(state, "p2", PickTeam(units=IRON_TEAM))
    assert then[:2] == [
        ChoiceLocked(seat="p2", kind="pick_team",
                     choice={"units": ["bastion_golem", "moss_mother", "rot_ogre", "shellback"]}),
        ChoicesRevealed(kind="pick_team", choices={
            "p1": {"units": ["ember_wisp", "fang_shrike", "grizzlor", "shadow_cat"]},
            "p2": {"units": ["bastion_golem", "moss_mother", "rot_ogre", "shellback"]}}),
    ]
    assert state.p1.team == ("p1.ember_wisp", "p1.fang_shrike", "p1.grizzlor", "p1.shadow_cat")
    assert state.p2.team == ("p2.bastion_golem", "p2.moss_mother", "p2.rot_ogre", "p2.shellback")
    assert of_type(then, TeamPreviewed) == []


@pytest.mark.parametrize("units, message", [
    (("grizzlor", "fang_shrike", "shadow_cat"), "a team is 4 different units"),
    (("grizzlor", "fang_shrike", "shadow_cat", "ember_wisp", "salamander"), "a team is 4 different units"),
    (("grizzlor", "grizzlor", "shadow_cat", "ember_wisp"), "a team is 4 different units"),
    (("grizzlor", "fang_shrike", "shadow_cat", "hex_lich"), "'hex_lich' is not a unit of your deck"),
])
def test_a_team_is_exactly_four_distinct_units_of_the_deck(units, message):
    _, state = started(preset_setup(), P2_WINS)
    with pytest.raises(RuleViolation, match=message):
        decide_after(state, "p1", PickTeam(units=units))


def test_a_unit_without_lp_cannot_be_picked():
    setup = preset_setup()
    setup["p1"]["condition"] = {"grizzlor": {"lp": 0}}
    _, state = started(setup, P2_WINS)
    with pytest.raises(RuleViolation, match="'grizzlor' is not a unit of your deck with LP left"):
        decide_after(state, "p1", PickTeam(units=("grizzlor", "needle_hawk", "iron_boar", "mirror_imp")))
    assert all("grizzlor" not in cmd.units for cmd in RULESET.legal_commands(state, "p1"))
    assert len(RULESET.legal_commands(state, "p1")) == 126            # 4 of the 9 left: C(9, 4)


def test_a_deck_with_fewer_than_four_units_left_fields_them_all():
    setup = preset_setup()
    out = ["grizzlor", "fang_shrike", "cinderhound", "ember_wisp", "sunflare_drake", "salamander", "shadow_cat"]
    setup["p1"]["condition"] = {u: {"lp": 0} for u in out}
    _, state = started(setup, P2_WINS)
    assert RULESET.legal_commands(state, "p1") == [PickTeam(units=("iron_boar", "mirror_imp", "needle_hawk"))]
    with pytest.raises(RuleViolation, match="a team is 3 different units"):
        decide_after(state, "p1", PickTeam(units=("grizzlor", "needle_hawk", "iron_boar", "mirror_imp")))
    then = decide_after(state, "p1", PickTeam(units=("needle_hawk", "iron_boar", "mirror_imp")))
    assert then[0].choice == {"units": ["iron_boar", "mirror_imp", "needle_hawk"]}


def test_a_team_cannot_be_picked_outside_the_team_pick():
    with pytest.raises(RuleViolation, match="not being picked"):
        decide_after(battle(), "p1", PickTeam(units=("grizzlor", "fang_shrike", "cinderhound", "shellback")))


# -- the preview advantage (Vesper): the loser picks first, the winner sees that team ------

def test_with_the_preview_advantage_the_loser_picks_first_and_the_winner_sees_it():
    events, state = started(preset_setup("null_court", "iron_wall"), b"0")
    assert initiative(events).winner == "p1" and initiative(events).advantage == "preview"
    assert of_type(events, PickStarted) == [PickStarted(kind="pick_team", order=("p2", "p1"), sequential=True)]
    assert RULESET.awaiting(state) == frozenset({"p2"})
    assert RULESET.legal_commands(state, "p1") == []
    then, state = play(state, "p2", PickTeam(units=IRON_TEAM))
    assert then == [
        ChoiceLocked(seat="p2", kind="pick_team",
                     choice={"units": ["bastion_golem", "moss_mother", "rot_ogre", "shellback"]}),
        TeamPreviewed(seat="p1", of="p2", team=("bastion_golem", "moss_mother", "rot_ogre", "shellback")),
    ]
    assert RULESET.awaiting(state) == frozenset({"p1"})
    then, state = play(state, "p1", PickTeam(units=("hex_lich", "bog_witch", "rot_ogre", "fang_shrike")))
    assert topics(then)[:2] == ["ChoiceLocked", "ChoicesRevealed"]
    assert of_type(then, TeamPreviewed) == []
    assert state.p1.team == ("p1.bog_witch", "p1.fang_shrike", "p1.hex_lich", "p1.rot_ogre")


# -- the Dynamics each side brings, at the team reveal --------------------------------------

def test_dynamics_enter_in_order_battlefield_leaders_units_and_equipment_then_the_boost():
    _, state = started(preset_setup(), P2_WINS)          # ashen_spire; Ironhelm wins: +10% DEF
    then, state = teams_picked(state)

    def added(i, kind, source, seat, unit, severity):
        return DynamicAdded(id=f"d{i}", kind=kind, source=source, seat=seat, unit=unit, severity=severity,
                            by=seat)
    assert of_type(then, DynamicAdded) == [
        added(1, "scorched_earth", "battlefield", None, None, 2),     # the battlefield's, for both
        added(2, "casters_bane", "battlefield", None, None, 3),
        added(3, "keen_eye", "leader", "p1", None, 3),                # Ignis
        added(4, "soul_anchor", "leader", "p2", None, 5),             # Ironhelm
        added(5, "mana_spring", "equipment", "p1", "p1.ember_wisp", 2),   # Mana Charm; no UD
        added(6, "brutality", "unit", "p1", "p1.fang_shrike", 5),
        added(7, "brutality", "equipment", "p1", "p1.fang_shrike", 2),    # Bloodstone
        added(8, "rage", "unit", "p1", "p1.grizzlor", 5),
        added(9, "shadow", "unit", "p1", "p1.shadow_cat", 5),
        added(10, "retaliation", "unit", "p2", "p2.bastion_golem", 5),   # Training Belt: none
        added(11, "nurturing", "unit", "p2", "p2.moss_mother", 5),
        added(12, "rage", "unit", "p2", "p2.rot_ogre", 5),
        added(13, "venom", "unit", "p2", "p2.rot_ogre", 2),
        added(14, "counter_stance", "unit", "p2", "p2.shellback", 5),
        added(15, "fortify", "equipment", "p2", "p2.shellback", 3),       # Iron Plate
    ]
    # the boost: 10% of each DEF, rounded down (golem 72 x 1.2 = 86.4 -> 86, so 8; shellback
    # (68 + 10) x 1.2 = 93.6 -> 93, so 9; moss_mother 55 and rot_ogre 50, so 5 each)
    assert of_type(then, AttributeBoosted) == [
        AttributeBoosted(unit="p2.bastion_golem", attr="def", amount=8),
        AttributeBoosted(unit="p2.moss_mother", attr="def", amount=5),
        AttributeBoosted(unit="p2.rot_ogre", attr="def", amount=5),
        AttributeBoosted(unit="p2.shellback", attr="def", amount=9),
    ]
    assert topics(then)[-1] == "PickStarted"
    assert then[-1] == PickStarted(kind="pick_ring", order=("p1", "p2"))
    assert state.units["p2.shellback"].base["def"] == 102                # 93 + 9
    assert state.units["p1.grizzlor"].base["def"] == 60                 # the loser gets nothing
    # units left in the deck bring nothing (seed 000, Forming Your Team)
    assert not any(d.unit == "p1.iron_boar" for d in state.dynamics)
    assert state.next_dynamic == 16


def test_the_dynamic_advantage_comes_last():
    events, state = started(preset_setup("storm_runners", "iron_wall"), b"0")   # Gale wins: Tailwind
    assert initiative(events).advantage == "dynamic"
    then, state = teams_picked(state, ("fang_shrike", "grizzlor", "iron_boar", "needle_hawk"))
    dynamics = of_type(then, DynamicAdded)
    assert dynamics[0].kind == "mana_lock"                              # null_sanctum
    assert (dynamics[1].kind, dynamics[1].seat) == ("quick_hands", "p1")
    assert dynamics[-1] == DynamicAdded(id=f"d{len(dynamics)}", kind="tailwind", source="leader", seat="p1",
                                        severity=1, by="p1")
    assert of_type(then, AttributeBoosted) == []
    # the initiative winner moves first, with Gale's 10 AP and the Tailwind's 1
    _, state = play(state, "p1", PickRing(unit="grizzlor"))
    then, state = play(state, "p2", PickRing(unit="shellback"))
    assert of_type(then, TurnStarted) == [TurnStarted(seat="p1", turn=1, ap=11)]
    assert (state.active, state.p1.ap, state.phase) == ("p1", 11, "battle")


# -- the blind Ring pick, then the first turn ------------------------------------------------

def test_the_ring_pick_is_blind_and_the_first_turn_goes_to_the_initiative_winner():
    _, state = started(preset_setup(battlefield="null_sanctum"), P2_WINS)
    _, state = teams_picked(state, ("grizzlor", "fang_shrike", "iron_boar", "needle_hawk"),
                            ("shellback", "bastion_golem", "coral_sentinel", "iron_boar"))
    assert RULESET.awaiting(state) == frozenset({"p1", "p2"})
    with pytest.raises(RuleViolation, match="'shadow_cat' is not on your team"):
        decide_after(state, "p1", PickRing(unit="shadow_cat"))
    then, state = play(state, "p1", PickRing(unit="grizzlor"))
    assert then == [ChoiceLocked(seat="p1", kind="pick_ring", choice={"unit": "grizzlor"})]
    assert state.p1.ring is None                                     # hidden until both lock
    assert RULESET.awaiting(state) == frozenset({"p2"})
    then, state = play(state, "p2", PickRing(unit="iron_boar"))
    assert then[:3] == [
        ChoiceLocked(seat="p2", kind="pick_ring", choice={"unit": "iron_boar"}),
        ChoicesRevealed(kind="pick_ring", choices={"p1": {"unit": "grizzlor"}, "p2": {"unit": "iron_boar"}}),
        TurnStarted(seat="p2", turn=1, ap=8),                        # Ironhelm: 8 AP
    ]
    assert (state.p1.ring, state.p2.ring) == ("p1.grizzlor", "p2.iron_boar")
    assert (state.phase, state.active, state.turn) == ("battle", "p2", 1)
    assert RULESET.awaiting(state) == frozenset({"p2"})


def test_the_opening_state_handed_back_by_start_is_the_one_its_events_fold_to():
    from domain.engine.battle import fold, open_battle
    state, records = open_battle(RULESET, battle_id="opening", setup=preset_setup(), players={"p1": "a", "p2": "b"},
                                 revealed=b"o" * 32, created_at="2024-01-01T00:00:00Z")
    folded = None
    for rec in records:
        folded = fold(RULESET, folded, rec)
    assert folded == state and len(state.game.units) == 20          # both decks in, as folding gives
