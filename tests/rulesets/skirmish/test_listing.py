"""A side's listing reads the units once for both sides, asks the hooks only about units that
own an effect hooking them, and measures distances only where a command needs them: what it
lists is, state after state, what the rules asked one by one list."""
from __future__ import annotations

import random

from msgspec.structs import replace

from domain.engine.hooks import modify
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.board import _worked, _worked_out, board_of, distances, sides, walk_ends
from domain.rulesets.skirmish.cards import can_use
from domain.rulesets.skirmish.commands import Attack, EndTurn, Move, Play
from domain.rulesets.skirmish.content import content
from domain.rulesets.skirmish.hooks import HOOKS, Targetable, allowance, targetable_of
from domain.rulesets.skirmish.legal import combat_commands
from domain.rulesets.skirmish.resolver import reach, speed
from domain.rulesets.skirmish.state import Skirmish, effects, opponent
from tests.rulesets.defaults import batch_ends

from .test_remembered import _battle_records, _chipped

# Cards for both sides' units: enemy, ally, self and side-wide targets, one that may be exerted.
HAND = ("caster_skill", "spark_volley", "smoke_veil", "war_drum", "rallying_cry", "root_bind", "overcharge")


def _asked(s: Skirmish, unit_key: str, by: str) -> bool:
    query = Targetable(unit=unit_key, by=by)
    return bool(modify(HOOKS, effects(s), s, query)[0].allowed)


def _listed_one_by_one(s: Skirmish, seat: str) -> list[object]:
    """The listing worked out from the rules asked one unit, one act and one card at a time."""
    units = s.fielded_on_board(seat)
    foes = [t for k in s.player(opponent(seat)).units if (t := s.units[k]).on_board and _asked(s, k, seat)]
    found: list[object] = []
    for u in units:
        if allowance(s, u, "move").allowed:
            found += [Move(character=u.character, to=end) for end in walk_ends(s, u, speed(s, u))]
    for u in units:
        far = distances(s, u, foes)
        if allowance(s, u, "attack").allowed:
            found += [Attack(character=u.character, target=t.key) for t, d in zip(foes, far) if d == reach(s, u)]
    p = s.player(seat)
    for card in [content().cards[c] for c in sorted(set(p.hand))]:
        for u in units:
            if card.cost > p.ap or not can_use(card, u):
                continue
            targets = ([None] if card.target in ("self", "all_allies", "all_enemies")
                       else [a.key for a in units] if card.target == "ally"
                       else [t.key for t, d in zip(foes, distances(s, u, foes))
                             if t.fielded and (card.range is None or d <= card.range)])
            exerts = (False, True) if card.keyword == "exert" and p.max_ap >= 1 else (False,)
            found += [Play(card=card.id, character=u.character, target=t, exert=x) for t in targets for x in exerts]
    return found + [EndTurn()]


def _states() -> list[Skirmish]:
    rng = random.Random("listing")
    chipped = []
    for i in range(30):
        s = _chipped(rng)
        for seat in ("p1", "p2"):
            hand = tuple(rng.sample(HAND, rng.randint(0, 5)))
            s = s.with_player(seat, replace(s.player(seat), hand=hand, ap=rng.randint(0, 4), max_ap=rng.randint(0, 2)))
        chipped.append(s)
    played = [state.game for i in range(2) for state in batch_ends(RULESET, _battle_records(i))
              if state.game.phase == "combat" and state.game.active is not None]
    return chipped + played


def test_listings_are_the_rules_asked_one_by_one():
    for s in _states():
        for seat in ("p1", "p2"):
            assert combat_commands(s, seat) == _listed_one_by_one(s, seat)


def test_both_sides_are_read_in_one_pass_as_each_side_alone():
    for s in _states():
        for seat in ("p1", "p2"):
            ours, theirs = sides(s, seat)
            assert ours == s.fielded_on_board(seat)
            assert theirs == [t for k in s.player(opponent(seat)).units if (t := s.units[k]).on_board]
            board = board_of(s)
            kept = _worked(s, board)
            fresh = _worked_out(s, board)
            assert (kept.standing, kept.occupied) == (fresh.standing, fresh.occupied)


def test_only_the_units_that_own_a_hooking_effect_are_asked_about():
    """Targeting answered by the effects of the unit targeted alone, as Concealed hides only
    its owner: the same as every unit asked about under every effect in force."""
    for s in _states():
        for seat in ("p1", "p2"):
            near = sides(s, seat)[1]
            assert targetable_of(s, near, seat) == [t for t in near if _asked(s, t.key, seat)]
