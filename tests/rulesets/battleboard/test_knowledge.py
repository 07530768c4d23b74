"""What a seat knows (seed 002, Initiative: a side's arrangement is hidden from the other side
until both sides have arranged) and the battles `determinize` draws from it (`knowledge.py`).

The Drowned Shrine (sunken_ruins): the foes' section is rows 3..5, whose only cell no combatant
may be placed on is the barrier at (3, 4); so 3 x 5 - 1 = 14 cells take a foe.
"""
from __future__ import annotations

from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.knowledge import UNSEEN, determinize, knowledge
from domain.rulesets.battleboard.state import FOES, HEROES, Battleboard

FOE_CELLS = {(c, r) for r in (3, 4, 5) for c in range(5)} - {(3, 4)}
GM_PLACED = {"f1": (0, 3), "f2": (1, 5), "f3": (4, 5)}


def heroes_arranging() -> Battleboard:
    """The foes went second, so they arranged first; h1 has placed, h2 has still to."""
    s = None
    for event in RULESET.start(RULESET.parse_setup({"heroes": ["aria", "bram"], "encounter": "drowned_shrine"}),
                               Rng(b"knowledge")):
        s = RULESET.evolve(s, event)
    assert s is not None
    return replace(s, phase="arrange", first=HEROES, arranging=HEROES, placed={**GM_PLACED, "h1": (0, 0)})


def test_a_hero_seat_knows_that_the_foes_placed_but_not_where():
    known = knowledge(heroes_arranging(), "h2")
    # then: the foes' cells are marks; h1's cell, its teammate's, is seen
    assert known.placed == {"f1": UNSEEN, "f2": UNSEEN, "f3": UNSEEN, "h1": (0, 0)}


def test_the_foes_seat_knows_no_hero_placement():
    known = knowledge(heroes_arranging(), "gm")
    assert known.placed == {**GM_PLACED, "h1": UNSEEN}


def test_once_both_sides_arranged_nothing_is_hidden():
    s = replace(heroes_arranging(), phase="turn", arranging=None, placed={})
    assert knowledge(s, "h1") is s and knowledge(s, "gm") is s


def test_unseen_foes_are_drawn_on_distinct_free_cells_of_their_section():
    known = knowledge(heroes_arranging(), "h2")
    rng = Rng(b"draws")
    drawn = [determinize(known, "h2", rng) for _ in range(20)]
    for d in drawn:
        cells = [d.placed[k] for k in ("f1", "f2", "f3")]
        # then: three different cells of the 14, never the barrier (3, 4); h1 stays where it is
        assert len(set(cells)) == 3 and set(cells) <= FOE_CELLS
        assert d.placed["h1"] == (0, 0)
        assert knowledge(d, "h2") == known
    # and the draws differ (the truth is not read back)
    assert len({tuple(sorted(d.placed.items())) for d in drawn}) > 1
    assert {d.units["f1"].side for d in drawn} == {FOES}
