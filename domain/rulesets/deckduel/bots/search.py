"""How deckduel's `search` bot plays (`domain/ai/search.py`): a playout that keeps its hand and
plays the heuristic's best command (drills early, then the hardest hit), a random one a time in
four, mostly to the end of the duel; one stopped after `DEPTH` commands is scored by the decks
left, which are each side's life (seed 004, The Rules). Random playouts passed and spent cards
where no player would, and the search won fewer duels from them (67% against greedy, 144 duels,
where rated playouts won 85% of 72)."""
from __future__ import annotations

import math

from domain.ai.search import Rated, Tuning

from ..commands import Discard, DuelCommand, Mulligan, Pass, PlayAttack, PlayDrill
from ..state import Duel, opponent
from .heuristic import rating

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


KINDS = {PlayAttack: "attack", PlayDrill: "drill", Pass: "pass", Discard: "discard"}   # each one's wire type
WANDER = (1, 4)   # a playout's chance of any legal command instead of the best rated


def worth(game: Duel, seat: str, command: DuelCommand) -> float:
    """The heuristic's rating of a command, from the state: drills early, then the hardest hit."""
    if isinstance(command, Mulligan):
        return -float(len(command.cards))
    return rating(KINDS[type(command)], getattr(command, "card", ""), len(game.side(seat).drills))


TUNING = Tuning(depth=DEPTH, evaluate=evaluate, playout=Rated(worth, WANDER), iterations_per_second=ITERATIONS_PER_SECOND)
