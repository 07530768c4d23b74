"""How deckduel's `search` bot plays (`domain/ai/search.py`): a playout that keeps its hand and
plays a random card whenever it can, mostly to the end of the duel; one stopped after `DEPTH`
commands is scored by the decks left, which are each side's life (seed 004, The Rules)."""
from __future__ import annotations

import math
from collections.abc import Sequence

from domain.ai.search import Tuning
from domain.engine.rng import Rng

from ..commands import DuelCommand, Mulligan, Pass
from ..state import Duel, opponent

# Commands a playout plays before it is scored. A playout ends the duel in about 16 commands
# from mid-game and under 40 from the mulligan, so the cap only stops a rare long one: scoring
# after 8, 12 or 20 commands won no more than playing to the end.
DEPTH = 60
ITERATIONS_PER_SECOND = 1000   # about 1,500 on this machine under load: a clocked budget to spare
LIFE_SCALE = 4.0    # cards of deck that make a side's chances 1 / (1 + e**-1), about 73%
HAND_WORTH = 0.5    # a card in hand, in cards of deck: it attacks or defends later


def evaluate(s: Duel, side: str) -> float:
    """`side`'s chances: a logistic of the deck (life) and hand it has over its opponent."""
    me, them = s.side(side), s.side(opponent(side))
    edge = len(me.deck) - len(them.deck) + HAND_WORTH * (len(me.hand) - len(them.hand))
    return 1 / (1 + math.exp(-edge / LIFE_SCALE))


def playout(game: Duel, seat: str, legal: Sequence[DuelCommand], rng: Rng) -> DuelCommand:
    """Keep the hand at the mulligan; in combat, any card before a pass (a uniform playout
    passes so often that combat ends before the hands are spent)."""
    first = legal[0]
    if isinstance(first, Mulligan):
        return first
    plays = [c for c in legal if not isinstance(c, Pass)]
    return rng.choice(plays) if plays else first


TUNING = Tuning(depth=DEPTH, evaluate=evaluate, playout=playout, iterations_per_second=ITERATIONS_PER_SECOND)
