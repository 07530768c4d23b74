"""Skirmish's `search`: information-set MCTS (`domain/ai/search.py`) over what the seat knows,
with skirmish's own playouts and evaluation.

A combat turn lists a hundred commands and more (every tile each unit may walk to), far more
than one move's iterations can tell apart. So in combat the search weighs only the `SHORTLIST`
commands `greedy` rates best, read from the seat's view of its knowledge (the view the seat
has, so it reads nothing the seat may not see), and plays the one its playouts find best.

A uniform playout ends its turns early and walks aimlessly; `playout` plays like a cheap
`greedy` read from the state (`worth`), and now and then any command so that playouts differ.
After `DEPTH` commands, some four turns, `evaluate` weighs each side's fielded units by the
armor they have left (a unit faints once its damage passes its armor, seed 001), a fainted one
at nothing, and its deck (drawing from an empty deck loses), into a logistic of the difference.

Preparation is decided before any playout could judge it (`prepared`): the search fields the
team's toughest characters by armor (a whole team of fragile casters and rangers falls first),
and places and keeps its starting hand as `greedy` does.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from domain.ai.search import Rated, Shortlist, Tuning, chosen_by
from domain.engine.bots import Seen
from domain.engine.rng import Rng
from domain.engine.scoring import GreedyPolicy, Wire

from ..commands import Attack, Field, Move, Play, SkirmishCommand
from ..resolver import reach
from ..state import Skirmish, opponent
from .greedy import play_value, score

DEPTH = 40
UNIT_WORTH = 1.0        # a unit standing whole; a wounded one in proportion to its armor left
DECK_WORTH = 0.02       # a card left in the deck
SCALE = 0.6             # the edge, in units, that makes a side's chances 1 / (1 + e**-1), about 73%
RANDOM_MOVE = (1, 10)   # the chance a playout plays any legal command instead of the best
SHORTLIST = 5           # the combat commands greedy rates best, the only ones searched
PREPARED = ("place", "mulligan")    # the phases played as greedy plays them


def evaluate(s: Skirmish, side: str) -> float:
    """`side`'s chances where a playout stopped: a logistic of the two sides' standings."""
    edge = standing(s, side) - standing(s, opponent(side))
    return 1 / (1 + math.exp(-edge / SCALE))


def standing(s: Skirmish, seat: str) -> float:
    points = DECK_WORTH * len(s.player(seat).deck)
    for unit in s.fielded(seat):
        if not unit.fainted and unit.armor > 0:
            points += UNIT_WORTH * max(0, unit.armor - unit.damage + 1) / (unit.armor + 1)
    return points


def in_combat(s: Skirmish) -> bool:
    return s.phase == "combat"


def worth(s: Skirmish, seat: str, cmd: SkirmishCommand) -> float:
    """Greedy's score (`greedy.score`) read from the state with the units' printed numbers: an
    attack that makes its target faint first, then other attacks, skills, and walks that end
    with an opponent exactly in reach; ending the turn is worth 0."""
    if isinstance(cmd, Attack):
        me, target = s.units[f"{seat}.{cmd.character}"], s.units[cmd.target]
        return 50.0 + me.power + (40.0 if target.damage + me.power > target.armor else 0.0)
    if isinstance(cmd, Play):
        return play_value(NO_VIEW, seat, {"card": cmd.card, "exert": cmd.exert})
    if isinstance(cmd, Move):
        me, foes = s.units[f"{seat}.{cmd.character}"], s.fielded_on_board(opponent(seat))
        if me.attacked or not foes:
            return -1.0
        at = reach(s, me)
        gaps = [abs(cmd.to[0] - f.cell[0]) + abs(cmd.to[1] - f.cell[1]) for f in foes if f.cell is not None]
        return 30.0 if at in gaps else 10.0 - min(abs(g - at) for g in gaps)
    return 0.0


NO_VIEW: Mapping[str, Any] = {}     # `play_value` reads the card and the command alone


def rate(view: Mapping[str, Any], wires: Sequence[Wire]) -> list[float]:
    """Greedy's rating of each command, from the seat's view."""
    return [score(view, wire) for wire in wires]


def prepared(seen: Seen, legal: Sequence[Any], rng: Rng) -> Any:
    """The toughest selection, and greedy's placement and starting hand; None in combat."""
    if isinstance(legal[0], Field):
        return max(legal, key=lambda pick: toughness(seen.knowledge, seen.seat, pick))
    if seen.knowledge.phase in PREPARED:
        return chosen_by(GreedyPolicy(score), seen, legal, rng)
    return None


def toughness(s: Skirmish, seat: str, pick: Field) -> float:
    """A selection's armor, then its power: the first pick of the toughest in team order."""
    units = [s.units[f"{seat}.{character}"] for character in pick.characters]
    return sum(u.armor + u.power / 10 for u in units)


TUNING = Tuning(depth=DEPTH, evaluate=evaluate, playout=Rated(worth, RANDOM_MOVE, in_combat),
                shortlist=Shortlist(rate, SHORTLIST), prepared=prepared)
