"""How skirmish's `search` bot plays (`domain/ai/search.py`): a playout that fights, stopped
after `DEPTH` commands and scored by what each side has left standing.

A uniform playout ends its turns early and walks aimlessly, so `playout` attacks whenever it
can, and otherwise plays any card or move before it ends the turn (`END_TURN` of the time).
`evaluate` weighs each side's fielded units by the armor they have left (a unit faints once its
damage passes its armor, seed 001), a fainted one at nothing, and its deck (drawing from an
empty deck loses), into a logistic of the difference.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from domain.ai.search import Tuning
from domain.engine.rng import Rng

from ..commands import Attack, EndTurn, SkirmishCommand
from ..state import Skirmish, opponent

DEPTH = 40
END_TURN = (1, 4)       # the chance a playout ends its turn while it could still act
UNIT_WORTH = 1.0        # a unit standing whole; a wounded one in proportion to its armor left
DECK_WORTH = 0.02       # a card left in the deck
SCALE = 0.6             # the edge, in units, that makes a side's chances 1 / (1 + e**-1), about 73%


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


def playout(game: Skirmish, seat: str, legal: Sequence[SkirmishCommand], rng: Rng) -> SkirmishCommand:
    """An attack when there is one; else any other command, the turn's end only now and then."""
    attacks = [c for c in legal if isinstance(c, Attack)]
    if attacks:
        return rng.choice(attacks)
    acts = [c for c in legal if not isinstance(c, EndTurn)]
    if acts and (len(acts) == len(legal) or not rng.chance(*END_TURN)):
        return rng.choice(acts)
    return rng.choice(legal)


TUNING = Tuning(depth=DEPTH, evaluate=evaluate, playout=playout)
