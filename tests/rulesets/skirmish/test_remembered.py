"""What the rules remember from one state for the next (hook answers by the effects in force,
the effects themselves, walks and Move commands by board) gives, state after state, what
working it out afresh gives."""
from __future__ import annotations

import random

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.battle import fold
from domain.engine.grid import cell_bits, flood
from domain.engine.hooks import Phase, modify
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.board import _walks, _worked, board_of, walk_ends, walk_moves
from domain.rulesets.skirmish.commands import Move
from domain.rulesets.skirmish.hooks import HOOKS, Allowance, Targetable, allowance, answer, may_each
from domain.rulesets.skirmish.resolver import speed
from domain.rulesets.skirmish.state import _effects, effects
from tests.rulesets.defaults import batch_ends

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


def _battle_records(i: int):
    """The records of a random battle of the default setup."""
    bots = {seat: get_policy("random", RULESET.id) for seat in RULESET.default_table().seats}
    return play(RULESET, bots, battle_id=f"00000000-0000-4000-8000-{i:012d}", setup=RULESET.fresh_setup(),
                revealed=seeded_bytes("remembered", i), bot_seed=seeded_bytes("remembered-bots", i)).records


def test_effects_carried_from_state_to_state_are_the_units_read_afresh():
    """Each event folded in turn, the effects of the state before asked first (so that a walk,
    an attack or a new turn carries them over), as a resolver asks them."""
    for i in range(3):
        state = None
        for rec in _battle_records(i):
            state = fold(RULESET, state, rec)
            if state.game is not None:
                assert effects(state.game) == _effects(state.game.units)
        assert state is not None and state.game.defeated


def test_listings_are_the_rules_asked_one_by_one_in_every_state_of_random_battles():
    """A side's listing asks `may_each` whether its units may walk and attack, and floods walks
    by the opponents in their reach alone: the same as asking each unit's allowance, and as a
    flood blocked by every opponent on the board."""
    for i in range(3):
        for state in batch_ends(RULESET, _battle_records(i)):
            s = state.game
            if s.phase != "combat" or s.active is None:
                continue
            units = s.fielded_on_board(s.active)
            for act in ("move", "attack"):
                assert may_each(s, units, act) == [allowance(s, u, act).allowed for u in units]
            board = board_of(s)
            for u in units:
                theirs = cell_bits(board.grid, [o.at() for o in s.on_board() if o.seat != u.seat])
                fresh = flood(board.grid, u.at(), speed(s, u), board.rock_bits | theirs)
                assert _walks(board, _worked(s, board), u, speed(s, u)) == fresh


def test_may_each_is_each_units_allowance_under_any_effects():
    rng = random.Random("may")
    for s in [_chipped(rng) for _ in range(20)]:
        for seat in ("p1", "p2"):
            units = s.fielded_on_board(seat)
            for act in ("move", "attack"):
                assert may_each(s, units, act) == [allowance(s, u, act).allowed for u in units]
