"""How the bots read the board (bots/greedy.py, bots/sight.py) and what the balance tally counts
of it (matchups.py `tally`).

Numbers (classes.toml): caster 18 power / 50 armor, ranger 16/60, hunter 12/80, fighter 10/90.
Ranged units strike exactly 2 tiles away and walk 3; melee ones strike exactly 1 away and walk 5.
Board: meadow (given.py's default), 7 x 8, no rocks, distance = columns + rows apart.
"""
from __future__ import annotations

from domain.engine.events import Viewer
from domain.engine.rng import Rng
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.bots.greedy import COUNTER_COST, EXPOSED_COST, FRONT_LINE, MIXED, score
from domain.rulesets.skirmish.events import PlacementsRevealed, SkirmishStarted, Struck, UnitFainted, UnitMoved
from domain.rulesets.skirmish.matchups import tally
from domain.rulesets.skirmish.setup import parse_setup

from .given import after, skirmish, unit


def seen_by(state, seat: str = "p1"):
    return RULESET.view(state, Viewer(seat=seat))


def field(characters: list[str]) -> dict:
    return {"type": "field", "characters": characters}


# -- Selection: a front line and a mix of classes -----------------------------------------------------

def test_greedy_fields_a_front_line_before_a_third_ranged_unit():
    # given a team of three ranged units and a hunter
    setup = parse_setup({"p1": {"team": ["ember", "cinder", "flint", "sigil"]},
                         "p2": {"team": ["wisp", "sable", "thorn"]}})
    view = seen_by(after(None, RULESET.start(setup, Rng(b"x"))))
    # then each pick is its power + armor / 10, a front line and its classes:
    # ember, cinder, sigil: 23 + 22 + 23 = 68, no melee, two classes: 68 + 2 x 2 = 72
    assert score(view, field(["ember", "cinder", "sigil"])) == 68 + MIXED * 2 == 72
    # ember, cinder, flint: 23 + 22 + 20 = 65, flint is melee, three classes: 65 + 6 + 3 x 2 = 77
    assert score(view, field(["ember", "cinder", "flint"])) == 65 + FRONT_LINE + MIXED * 3 == 77


# -- Attacks: a counter-attack costs ---------------------------------------------------------------

def test_greedy_charges_for_the_counter_an_attack_draws():
    # given cinder (ranger, 16) 2 tiles from sable (ranger, reach 2) and from thorn (hunter, reach 1)
    view = seen_by(skirmish(unit("p1.cinder", (3, 3)), unit("p2.sable", (3, 5)), unit("p2.thorn", (5, 3))))
    # then striking sable, who would strike back, costs half of sable's 16: 50 + 16 - 8 = 58
    assert score(view, {"type": "attack", "character": "cinder", "target": "p2.sable"}) == 50 + 16 - COUNTER_COST * 16
    # and striking thorn, who reaches only 1, costs nothing: 50 + 16 = 66
    assert score(view, {"type": "attack", "character": "cinder", "target": "p2.thorn"}) == 66


def test_a_blow_that_makes_the_target_faint_draws_no_counter():
    # given sable with 50 damage of 60: cinder's 16 takes it past its armor
    view = seen_by(skirmish(unit("p1.cinder", (3, 3)), unit("p2.sable", (3, 5), damage=50)))
    # then 50 + 16 + 40 (it faints) = 106, no counter to pay
    assert score(view, {"type": "attack", "character": "cinder", "target": "p2.sable"}) == 106


# -- Walks: the blows a tile would take next turn --------------------------------------------------

def test_greedy_charges_a_walk_for_the_blows_its_end_tile_could_take():
    # given cinder at (3, 1) and thorn (hunter, 12 power, walks 5, strikes 1) at (3, 6)
    view = seen_by(skirmish(unit("p1.cinder", (3, 1)), unit("p2.thorn", (3, 6))))
    # when cinder walks to (3, 4): thorn is exactly 2 away (cinder's reach), and thorn can walk
    # next to (3, 4) next turn: 30 - 0.4 x 12 = 25.2
    assert score(view, {"type": "move", "character": "cinder", "to": [3, 4]}) == 30 - EXPOSED_COST * 12
    # a Concealed unit cannot be targeted: the same walk costs nothing
    hidden = seen_by(skirmish(unit("p1.cinder", (3, 1), effects=["concealed"]), unit("p2.thorn", (3, 6))))
    assert score(hidden, {"type": "move", "character": "cinder", "to": [3, 4]}) == 30


def test_a_restrained_opponent_threatens_no_tile():
    # given thorn Restrained (it cannot walk or attack next turn)
    view = seen_by(skirmish(unit("p1.cinder", (3, 1)), unit("p2.thorn", (3, 6), effects=["restrained"], by="p1")))
    # then the walk to (3, 4), 2 from thorn, is worth its 30 whole
    assert score(view, {"type": "move", "character": "cinder", "to": [3, 4]}) == 30


# -- The tally: walks into and out of an opponent's reach, counters drawn -------------------------

def opening() -> list:
    return [SkirmishStarted(params={"ranged_reach": 2, "melee_reach": 1}, mode="duel", board="meadow",
                            units=[{"key": "p1.cinder", "ranged": True}, {"key": "p2.thorn", "ranged": False},
                                   {"key": "p2.sable", "ranged": True}]),
            PlacementsRevealed(cells={"p1.cinder": [3, 1], "p2.thorn": [3, 6], "p2.sable": [0, 6]})]


def test_the_tally_counts_walks_into_and_out_of_an_opponents_reach():
    events = [*opening(),
              # (3, 1) -> (3, 5): 1 from thorn (its reach): into reach
              UnitMoved(seat="p1", character="cinder", to=[3, 5], path=[[3, 1], [3, 2], [3, 3], [3, 4], [3, 5]]),
              # (3, 5) -> (3, 4): 2 from thorn, 3 from sable (reach 2): out of every reach
              UnitMoved(seat="p1", character="cinder", to=[3, 4], path=[[3, 5], [3, 4]]),
              UnitFainted(unit="p2.thorn"),
              # (3, 4) -> (2, 4): 2 from sable at (0, 6)? 2 + 2 = 4: no; thorn has fainted
              UnitMoved(seat="p1", character="cinder", to=[2, 4], path=[[3, 4], [2, 4]])]
    counts = tally(events, ["p1"])
    assert (counts["moves"], counts["tiles walked"]) == (3, 6)      # 4 + 1 + 1 steps
    assert (counts["walks into reach"], counts["walks out of reach"]) == (1, 1)


def test_the_tally_counts_the_attacks_the_defender_struck_back():
    events = [*opening(), Struck(unit="p1.cinder", target="p2.sable", power=16, damage=16),
              Struck(unit="p2.sable", target="p1.cinder", power=16, damage=16, counter=True)]
    assert tally(events, ["p1"]).get("attacks countered") == 1
    assert tally(events, ["p2"]).get("attacks countered") is None
