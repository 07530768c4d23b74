"""What the rules remember from one state for the next (hook answers by the effects in force,
walks and Move commands by board) gives, state after state, what working it out afresh gives."""
from __future__ import annotations

import random

from domain.engine.hooks import Phase, modify
from domain.rulesets.skirmish.board import walk_ends, walk_moves
from domain.rulesets.skirmish.commands import Move
from domain.rulesets.skirmish.hooks import HOOKS, Allowance, Targetable, answer
from domain.rulesets.skirmish.resolver import speed
from domain.rulesets.skirmish.state import effects

from .given import skirmish, unit
from .test_walks import CHARACTERS, crowd

CHIPS = ("adrenaline", "restrained", "concealed", "prowess")


def test_answered_queries_are_hooked_only_by_effects_that_read_the_query_alone():
    """`answer` keys its answers on the effects in force and the query: a new handler on these
    queries that reads the state must be looked at before it joins them."""
    assert HOOKS.kinds_on(Phase.BEFORE, Allowance) == {"adrenaline", "restrained"}
    assert HOOKS.kinds_on(Phase.BEFORE, Targetable) == {"concealed"}


def _chipped(rng: random.Random):
    """A state of six units with random effects, some of them spent this turn."""
    tiles = rng.sample([(c, r) for c in range(7) for r in range(2, 6)], 6)
    units = [unit(f"{seat}.{name}", tiles.pop(), moved=rng.random() < 0.5, attacked=rng.random() < 0.5,
                  effects=rng.sample(CHIPS, rng.randint(0, 2)), by=rng.choice(("p1", "p2")))
             for seat, names in CHARACTERS.items() for name in names]
    return skirmish(*units)


def test_answers_are_the_hooks_asked_afresh_in_every_state_asked_in_turn():
    rng = random.Random("answers")
    states = [_chipped(rng) for _ in range(20)]
    for s in states + states[::-1]:
        for u in s.units.values():
            for act, spent in (("move", u.moved), ("attack", u.attacked), ("counter", False)):
                query = Allowance(unit=u.key, act=act, spent=spent, allowed=not spent)
                assert answer(s, query) == modify(HOOKS, effects(s), s, query)[0]
            for by in ("p1", "p2"):
                query = Targetable(unit=u.key, by=by)
                assert answer(s, query) == modify(HOOKS, effects(s), s, query)[0]


def test_move_commands_are_the_walk_ends_in_every_state_asked_in_turn():
    rng = random.Random("moves")
    states = [crowd(rng, board) for board in ("meadow", "ruins") for _ in range(8)]
    for s in states + states[::-1]:
        for u in s.units.values():
            if u.on_board:
                ends = walk_ends(s, u, speed(s, u))
                assert walk_moves(s, u, speed(s, u)) == tuple(Move(character=u.character, to=e) for e in ends)
