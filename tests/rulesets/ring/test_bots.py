"""Ring's bots: counter-picked teams and Ring units (seed 000, Forming Your Team:
Counter-Picking), near-ties drawn by the bot's own RNG, the preview advantage, and the
memory bot acting on what the seat has seen.

Each test builds the state, asks the bot for one command through the seat's view (as
`domain.ai.match` does) and asserts the command or the exact value behind it.
"""
from __future__ import annotations

from typing import Any

import pytest

from domain.ai.memory import Memory
from domain.engine.events import Viewer
from domain.engine.rng import Rng
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.bots.matchup import Fighter, Pressure, duel, pressure
from domain.rulesets.ring.bots.memory import MemoryPolicy, Recall
from domain.rulesets.ring.bots.reading import Reading
from domain.rulesets.ring.bots.value import SWAP_GAIN, ValuePolicy, score, swap_rule
from domain.rulesets.ring.commands import PickTeam
from domain.rulesets.ring.content import CONTENT
from domain.rulesets.ring.state import Params, Ring

from .build import dyn, ring, unit
from .given import battle, play, team_pick


def seen_by(s: Ring, seat: str = "p1") -> dict[str, Any]:
    return RULESET.view(s, Viewer(seat=seat))


def legal(s: Ring, seat: str = "p1") -> list[dict[str, Any]]:
    return [RULESET.codec.wire(c) for c in RULESET.legal_commands(s, seat)]


def picked(bot: Any, s: Ring, seed: bytes = b"bots", memory: Memory | None = None) -> dict[str, Any]:
    return bot.choose(seen_by(s), legal(s), Rng(seed), memory=memory)


def one_unit_teams(p1_deck: tuple[str, ...], p2_deck: tuple[str, ...], preview_for: str | None = None) -> Ring:
    """A team pick of one unit each from the given decks (plain units, no equipment)."""
    return team_pick(battle(p1_team=(), p2_team=(), p1_deck=p1_deck, p2_deck=p2_deck, p1_ring=None, p2_ring=None,
                            params=Params(team_size=1)), sequential_for=preview_for)


def plain(unit_id: str, abilities: tuple[str, ...]) -> Fighter:
    """A unit with 60 in every combat attribute: ATK/DEF 1:1 and SKL/PRY 1:1 (15/70/15)."""
    return Fighter(unit_id, 60, 60, 60, 60, 100, CONTENT.units[unit_id].tags, abilities, None)


# -- the matchup model ---------------------------------------------------------------------

def test_pressure_is_the_expected_damage_per_ap_of_the_best_attack():
    jab = pressure(plain("ember_wisp", ("jab",)), plain("ember_wisp", ()), 1 << 30, CONTENT)
    bolt = pressure(plain("ember_wisp", ("fire_bolt",)), plain("ember_wisp", ()), 1 << 30, CONTENT)
    assert jab == Pressure(dealt=4.0, returned=0.0)                         # .15 x 2 + .7 x 4 + .15 x 6, 1 AP
    assert bolt.dealt == pytest.approx(10 / 3)                               # .15 x 7 + .7 x 10 + .15 x 13, 3 AP
    both = pressure(plain("ember_wisp", ("fire_bolt", "jab")), plain("ember_wisp", ()), 1 << 30, CONTENT)
    assert both == jab


def test_fire_ward_cuts_fiery_attacks_and_counter_stance_hits_back():
    # Cinderhound carries Fire Ward 5 (-20% fiery); Shellback Counter Stance 5 (2 x 5 = 10 HP every
    # 3rd hit): a 1-AP Jab lands one hit, so 10 / 3 HP come back per AP.
    assert pressure(plain("ember_wisp", ("fire_bolt",)), plain("cinderhound", ()), 1 << 30,
                    CONTENT).dealt == pytest.approx(10 / 3 * 0.8)
    assert pressure(plain("ember_wisp", ("jab",)), plain("cinderhound", ()), 1 << 30, CONTENT).dealt == 4.0
    assert pressure(plain("ember_wisp", ("jab",)), plain("shellback", ()), 1 << 30, CONTENT) == \
        Pressure(dealt=4.0, returned=10 / 3)


def test_a_mana_lock_leaves_only_the_attacks_it_does_not_block():
    # Fire Bolt takes 6 MP: a lock blocking 6 MP or more leaves the Jab.
    assert pressure(plain("ember_wisp", ("fire_bolt",)), plain("ember_wisp", ()), 6, CONTENT).dealt == 0.0


def test_a_duel_shares_the_exchange_by_time_to_fall():
    jabber, bolter = plain("ember_wisp", ("jab",)), plain("ember_wisp", ("fire_bolt",))
    assert duel(jabber, 100, bolter, 100) == pytest.approx(4 / (4 + 10 / 3))     # 6/11
    assert duel(jabber, 100, jabber, 100) == 0.5
    assert duel(jabber, 0, bolter, 100) == 0.0


# -- team and Ring picks -------------------------------------------------------------------

@pytest.mark.parametrize("their_deck, pick, values", [
    # Against a Counter Stance tank (Shellback, 145 HP, DEF 68), the drake's single big Fireballs
    # beat the bear's Double Slaps, which the stance answers twice as often:
    #   drake:    Fireball (SKL 55 : PRY 70, 34.09 / 50.91 / 15%) 12 / 18 / 25 HP, 17.00 a use,
    #             5.668 per AP, 10/3 x 1 hit / 3 AP = 1.111 back; Shellback's Jab 2.675 per AP:
    #             130 x 5.668 / (130 x 5.668 + 145 x (2.675 + 1.111)) = 0.5731
    #   grizzlor: Double Slap (SKL 45 : PRY 70, 53.89 / 31.11 / 15%) 2 x 4 / 6 / 8 HP, 10.44 a
    #             use, 3.482 per AP, 10/3 x 2 hits / 3 AP = 2.222 back; Shellback's Jab 2.85:
    #             150 x 3.482 / (150 x 3.482 + 145 x (2.85 + 2.222)) = 0.4152
    (("shellback",), "sunflare_drake", {"sunflare_drake": 0.5731, "grizzlor": 0.4152}),
    # Against a fragile fiery blaster (Ember Wisp, 80 HP, DEF 35) the bear's HP and slaps win:
    #   drake: its Fireball (1:1, 15 / 70 / 15%) 24 / 36 / 48 HP, 12.0 per AP; the Wisp's
    #   Fireball on it 7.726 per AP: 130 x 12 / (130 x 12 + 80 x 7.726) = 0.7162, more than 3%
    #   under the bear's 0.7499 (0.97 x 0.7499 = 0.7274).
    (("ember_wisp",), "grizzlor", {"sunflare_drake": 0.7162, "grizzlor": 0.7499}),
])
def test_the_team_pick_counters_the_opponents_deck(their_deck, pick, values):
    given = one_unit_teams(("sunflare_drake", "grizzlor"), their_deck)
    read = Reading(seen_by(given))
    assert {u: round(read.value(u), 4) for u in values} == values
    assert picked(ValuePolicy(), given) == {"type": "pick_team", "units": (pick,)}


def test_a_near_tie_is_drawn_by_the_bots_rng_and_replays_from_its_seed():
    # Against Shellback, Grizzlor (0.4152) is within 3% of Cinderhound (0.4248: the floor is
    # 0.97 x 0.4248 = 0.4121); Bastion Golem (0.4075) is not.
    given = one_unit_teams(("bastion_golem", "cinderhound", "grizzlor"), ("shellback",))
    picks = {seed: picked(ValuePolicy(), given, seed)["units"][0] for seed in (b"seed0", b"seed1", b"seed2")}
    assert picks == {b"seed0": "grizzlor", b"seed1": "cinderhound", b"seed2": "cinderhound"}
    assert [picked(ValuePolicy(), given, b"seed0")["units"] for _ in range(3)] == [("grizzlor",)] * 3


def test_outside_the_near_tie_the_best_pick_is_certain():
    # Bastion Golem's 0.4075 is under Cinderhound's floor, 0.97 x 0.4248 = 0.4121.
    given = one_unit_teams(("cinderhound", "bastion_golem"), ("shellback",))
    assert {tuple(picked(ValuePolicy(), given, b"seed%d" % i)["units"]) for i in range(8)} == {("cinderhound",)}


@pytest.mark.parametrize("their_team, pick", [(("shellback",), "sunflare_drake"), (("ember_wisp",), "grizzlor")])
def test_the_preview_winner_picks_against_the_previewed_team(their_team, pick):
    # p1 won initiative with the preview advantage: p2 picked first and p1 sees that team.
    # The values are those of test_the_team_pick_counters_the_opponents_deck.
    _, given = play(one_unit_teams(("sunflare_drake", "grizzlor"), ("shellback", "ember_wisp"), preview_for="p1"),
                    "p2", PickTeam(units=their_team))
    assert seen_by(given)["seats"]["p2"]["pick"] == {"units": list(their_team)}
    assert picked(ValuePolicy(), given) == {"type": "pick_team", "units": (pick,)}


def test_the_free_swap_after_a_ko_sends_in_the_best_matchup_for_the_enemy_ring_unit():
    given = battle(p1_team=("shellback", "grizzlor", "glimmer_moth"), p2_team=("ember_wisp",), swap_required=True,
                   units={"p1.shellback": {"hp": 0, "ko": True}})
    assert [round(Reading(seen_by(given)).value(u), 4) for u in ("grizzlor", "glimmer_moth")] == [0.7499, 0.2685]
    assert picked(ValuePolicy(), given) == {"type": "swap", "unit": "grizzlor"}



def test_a_ring_unit_that_cannot_hurt_the_enemy_is_swapped_for_a_healthy_hitter():
    # Seed 000, Swapping Units. Given p1's Shellback in the Ring, whose best attack on p2's
    # Shellback is Jab (SKL 40 : PRY 70, 67.5 / 17.5 / 15%; 1 / 2 / 3 HP at ATK 45 : DEF 68):
    # .675 + .35 + .45 = 1.475 HP per AP, 14.75 over 10 AP. Grizzlor's Haymaker (SKL 45 : PRY 70,
    # 53.88 / 31.12 / 15%; 10 / 16 / 22 HP at ATK 70 : DEF 68) is 5.388 + 4.9792 + 3.3 = 13.6672
    # HP for 4 AP, 3.4168 per AP, 23.9176 over the 7 AP a 3-AP swap leaves.
    # When p1 weighs the swap, then it is worth 23.9176 - 14.75 = 9.1676 (over SWAP_GAIN's 5)
    # and beats every attack, whose worth is under its AP (1% of it is left).
    hitter = unit("p1", "grizzlor", abilities=("haymaker",))
    given = ring([unit("p1", "shellback", abilities=("jab",)), hitter], [unit("p2", "shellback")])
    swap = {"type": "swap", "unit": "grizzlor"}
    assert score(Reading(seen_by(given)), swap) == pytest.approx(9.1676)
    assert picked(ValuePolicy(), given) == swap


def test_a_hitter_at_half_its_hp_or_less_is_not_swapped_in_for_attack():
    # Given the same Ring, but Grizzlor at 75 of its 150 HP: a swap for attack wants a healthy
    # unit, so it keeps greedy's -8 and the Ring unit attacks (its best, Heavy Slap, at 1%).
    hitter = unit("p1", "grizzlor", abilities=("haymaker",), hp=75)
    given = ring([unit("p1", "shellback", abilities=("jab",)), hitter], [unit("p2", "shellback")])
    assert score(Reading(seen_by(given)), {"type": "swap", "unit": "grizzlor"}) == -8.0
    assert picked(ValuePolicy(), given)["type"] == "ability"

# -- in-battle scores ----------------------------------------------------------------------

def test_an_ability_that_does_some_good_beats_ending_the_turn():
    # Shellback's Jab on Shellback (ATK 45 : DEF 68, SKL 40 : PRY 70, 67.5 / 17.5 / 15%) deals
    # 1 / 2 / 3: worth .675 + .35 + .45 = 1.475, under its 1 AP's 1.5. AP left at the turn's end
    # is lost, so it keeps 1% of its worth, max(1.475 - 1.5, 0.01475), and beats End Turn's 0.
    given = ring([unit("p1", "shellback", abilities=("jab",))], [unit("p2", "shellback")], ap=1)
    jab = {"type": "ability", "ability": "jab", "target": None}
    assert legal(given) == [jab, {"type": "end_turn"}]
    assert score(Reading(seen_by(given)), jab) == pytest.approx(0.01475)
    assert picked(ValuePolicy(), given) == jab


def test_a_curse_on_an_enemy_counts_for_the_seat_by_its_share_of_the_attribute():
    # Brittle Hex from Shadow Cat (SKL 80 : PRY 70, 15 / 60 / 25%) takes 3 / 5 / 7 of Shellback's
    # 68 DEF: 60 x (.45 + 3 + 1.75) / 68 = 4.588, less 2 AP x 1.5 = 1.588.
    given = ring([unit("p1", "shadow_cat", abilities=("brittle_hex",))], [unit("p2", "shellback")])
    brittle = {"type": "ability", "ability": "brittle_hex", "target": None}
    assert score(Reading(seen_by(given)), brittle) == pytest.approx(60 * 5.2 / 68 - 3)
    assert picked(ValuePolicy(), given) == brittle


# -- the memory bot --------------------------------------------------------------------------

def remembering(*states: Ring, actions: tuple[dict[str, Any], ...] = ()) -> Memory:
    """p1's memory of these turn starts (in order) and these actions."""
    memory = Memory("p1")
    for seq, action in enumerate(actions, start=1):
        memory.observe({"seq": seq, "type": action["type"], "data": action["data"]}, True)
    for s in states:
        memory.settle(RULESET, s, seen_by(s))
    return memory


def test_the_memory_bot_keeps_a_unit_out_of_the_ring_that_the_remembered_worst_turn_would_ko():
    # On its last turn the Ember Wisp took 60 HP: Shellback's last 60. Grizzlor has 50 left.
    team, hurt = ("shellback", "grizzlor", "glimmer_moth"), {"p1.grizzlor": {"hp": 50}}
    their_turn = battle(p1_team=team, p2_team=("ember_wisp",), active="p2", turn=1,
                        units={**hurt, "p1.shellback": {"hp": 60}})
    given = battle(p1_team=team, p2_team=("ember_wisp",), active="p1", turn=2, swap_required=True,
                   units={**hurt, "p1.shellback": {"hp": 0, "ko": True}})
    memory = remembering(their_turn, given)
    assert Recall(seen_by(given), memory).worst == {"p2.ember_wisp": 60}
    assert picked(ValuePolicy(), given) == {"type": "swap", "unit": "grizzlor"}       # 0.4999 against 0.2685
    assert picked(MemoryPolicy(), given, memory=memory) == {"type": "swap", "unit": "glimmer_moth"}   # 0.2499


def used(seat: str, ability: str, by: str) -> dict[str, Any]:
    return {"type": "ring.AbilityUsed", "data": {"seat": seat, "ability": ability, "target": None, "unit": by}}


# An ability scores max(value - 1.5 x AP, 0.01 x value); Dispel takes 3 AP, so 4.5.
@pytest.mark.parametrize("placer, memory_value", [("p2", 3.0), ("p1", -0.075)])
def test_the_memory_bot_removes_a_field_dynamic_the_opponent_put_in_play(placer, memory_value):
    # A Mana Lock 5 on the field: the view cannot say whose it is; the memory saw who cast it.
    # Removing severity 5 is worth 5 x 1.5 = 7.5, for or against the seat: the opponent's lock,
    # max(7.5 - 4.5, 0.075) = 3.0; its own, max(-7.5 - 4.5, -0.075) = -0.075, under End Turn's 0.
    given = ring([unit("p1", "hex_lich", abilities=("dispel",))], [unit("p2", "grizzlor")],
                 dynamics=[dyn("d1", "mana_lock", seat=None)])
    memory = remembering(given, actions=(used(placer, "mana_lock_hex", f"{placer}.x"),))
    dispel = {"type": "ability", "ability": "dispel", "target": "d1"}
    assert score(Reading(seen_by(given)), dispel) == 0.0                      # max(0 - 4.5, 0): nothing known
    assert MemoryPolicy().score(Recall(seen_by(given), memory), dispel) == memory_value


def test_the_memory_bot_reads_an_enemy_units_threat_from_the_attacks_it_used():
    given = battle(p1_team=("grizzlor",), p2_team=("ember_wisp",), p1_ring="grizzlor", p2_ring="ember_wisp",
                   phase="ring", active=None)
    memory = remembering(given, actions=(used("p2", "meteor", "p2.ember_wisp"),))
    recall = Recall(seen_by(given), memory)
    wisp = seen_by(given)["seats"]["p2"]["units"]["p2.ember_wisp"]
    assert recall.foe_fighter(wisp).abilities == ("meteor",)
    assert round(Reading(seen_by(given)).value("grizzlor"), 4) == 0.7499
    assert round(recall.value("grizzlor"), 4) == 0.7587          # Meteor: less per AP than Fireball


def no_gain() -> float:
    raise AssertionError("the swap's gain is not worked out for this swap")


@pytest.mark.parametrize(("current", "incoming", "gain", "expected"), [
    (None, (70, 100), no_gain, 57.0),          # the Ring unit is down: 50 + 70 HP / 10
    ((20, 100), (50, 100), no_gain, -8.0),     # incoming at half HP (50 * 2 <= 100): never, even for a weak unit
    ((90, 100), (40, 100), no_gain, -8.0),     # incoming under half: its gain is not even asked
    ((20, 100), (60, 100), no_gain, 12.0),     # Ring unit under a quarter (20 * 4 < 100), incoming over half
    ((80, 100), (90, 100), lambda: SWAP_GAIN + 1, SWAP_GAIN + 1),   # a healthy unit goes for 1 HP over SWAP_GAIN
    ((80, 100), (90, 100), lambda: SWAP_GAIN, -8.0),                # ... and stays at exactly SWAP_GAIN
])
def test_the_one_swap_rule_of_greedy_and_search(current: tuple[int, int] | None, incoming: tuple[int, int],
                                                gain: Any, expected: float) -> None:
    # given the Ring unit's and the incoming unit's (HP, max HP), when the swap is rated, then:
    assert swap_rule(current, incoming, gain) == expected
