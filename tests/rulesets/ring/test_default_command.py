"""Seed silent: clocks. The move the rules play for a seat whose clock ran out (`auto`): end the
turn in battle; where a choice cannot be passed, the seat's own deck order decides."""
from __future__ import annotations

from msgspec.structs import replace

from domain.engine.choices import ChoiceLocked, PendingChoices
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.commands import ChooseBattlefield, EndTurn, PickRing, PickTeam, Swap
from domain.rulesets.ring.events import BattlefieldChosen, TurnYielded, UnitSwapped
from domain.rulesets.ring.legal import default_command, legal_commands
from domain.rulesets.ring.state import SEATS, Ring
from tests.rulesets.defaults import checked_defaults, random_walks

from .given import battle, decide_after, play, team_pick

BATTLES = 30
EXTRA = ("ember_wisp", "moss_mother")       # two deck units beyond p1's team of four


def deck_order(state: Ring, seat: str, *units: str) -> Ring:
    """The same state with `seat`'s deck listed in this order."""
    side = state.side(seat)
    return state.with_side(seat, replace(side, deck=tuple(f"{seat}.{u}" for u in units)))


def test_in_battle_the_default_ends_the_turn_with_ap_left():
    given = battle(active="p1", ap=10)
    when = default_command(given, "p1")
    assert when == EndTurn() == legal_commands(given, "p1")[-1]
    # with 10 AP, abilities and swaps were open too
    assert {c.wire_type() for c in legal_commands(given, "p1")} == {"ability", "leader_ability", "swap", "end_turn"}
    assert decide_after(given, "p1", when)[0] == TurnYielded(seat="p1")


def test_with_the_ring_unit_ko_the_default_swaps_in_the_first_bench_unit_of_the_deck():
    # p1's deck lists shellback before fang_shrike and cinderhound; grizzlor, in the Ring, is KO'd
    given = deck_order(battle(active="p1", swap_required=True, units={"p1.grizzlor": {"hp": 0, "ko": True}}),
                       "p1", "grizzlor", "shellback", "fang_shrike", "cinderhound")
    when = default_command(given, "p1")
    assert when == Swap(unit="shellback")
    assert when in legal_commands(given, "p1")
    assert decide_after(given, "p1", when)[0] == UnitSwapped(seat="p1", unit="shellback", out="p1.grizzlor",
                                                             cost=0)   # a forced swap costs nothing


def test_at_the_team_pick_the_default_is_the_first_units_of_the_deck_with_lp_left():
    # deck: grizzlor (0 LP: removed), fang_shrike, cinderhound, shellback, ember_wisp, moss_mother
    given = team_pick(battle(p1_deck=EXTRA, units={"p1.grizzlor": {"removed": True}}))
    when = default_command(given, "p1")
    assert when == PickTeam(units=("cinderhound", "ember_wisp", "fang_shrike", "shellback"))   # sorted, as listed
    assert when in legal_commands(given, "p1")
    assert decide_after(given, "p1", when) == [
        ChoiceLocked(seat="p1", kind="pick_team",
                     choice={"units": ["cinderhound", "ember_wisp", "fang_shrike", "shellback"]})]


def test_the_team_pick_default_does_not_read_the_enemy_lock():
    given = team_pick(battle(p1_deck=EXTRA))
    _, enemy_locked = play(given, "p2", PickTeam(units=("bastion_golem", "hex_lich", "moss_mother", "shadow_cat")))
    assert default_command(enemy_locked, "p1") == default_command(given, "p1") \
        == PickTeam(units=("cinderhound", "fang_shrike", "grizzlor", "shellback"))


def test_at_the_ring_pick_the_default_is_the_first_team_unit_of_the_deck():
    given = deck_order(replace(battle(p1_ring=None, p2_ring=None, active=None), phase="ring",
                               choices=PendingChoices(kind="pick_ring", awaiting=SEATS)),
                       "p1", "shellback", "grizzlor", "fang_shrike", "cinderhound")
    when = default_command(given, "p1")
    assert when == PickRing(unit="shellback")
    assert when in legal_commands(given, "p1")
    assert decide_after(given, "p1", when) == [ChoiceLocked(seat="p1", kind="pick_ring",
                                                            choice={"unit": "shellback"})]


def test_the_battlefield_default_is_the_first_by_id():
    given = replace(battle(active=None), phase="battlefield", battlefield=None, initiative="p1")
    when = default_command(given, "p1")
    # ashen_spire < cursed_library < null_sanctum < volcano_rim < windy_steppe
    assert when == ChooseBattlefield(battlefield="ashen_spire") == legal_commands(given, "p1")[0]
    assert decide_after(given, "p1", when)[0] == BattlefieldChosen(seat="p1", battlefield="ashen_spire")


def test_in_seeded_battles_the_default_is_legal_and_accepted_wherever_a_seat_is_awaited():
    """30 battles of random moves; in every other one p2's clock runs out on every move, so the
    default alone must also carry a seat to the end."""
    defaults = {wire["type"] for state in random_walks(RULESET, [RULESET.fresh_setup()] * BATTLES)
                for wire in checked_defaults(RULESET, state)}
    assert defaults == {"choose_battlefield", "pick_team", "pick_ring", "swap", "end_turn"}
