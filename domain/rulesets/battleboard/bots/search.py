"""Battleboard's `search`: ISMCTS (`domain.ai.search`) over the seat's knowledge
(`knowledge.py`), for either side. At the root it weighs the `SHORTLIST` commands the greedy
bot rates best from the seat's view (which walk the board: `greedy.py`); a playout plays on
with a cheap rating read from the state, and is scored by the defense tokens each side has left.
It plays greedy's first unless its best won clearly more (`ANCHOR` standard errors).

That is how the heroes play. The game master's decisions are rolled out instead
(`domain.ai.rollouts`): where a foe should stand is decided by what the heroes do next, which
a playout that stops inside the foes' own turn cannot see, and the foes' five options often came
within a hundredth of each other there. The game master's base policy is greedy's scorer with
its own `MASTER` weights (bolder than greedy's, and guarded); its choice and the two it rates
next are each played on, for `ROLLOUT_DEPTH` commands (the rest of the foes' turn and the
heroes' reply), by that policy on the foes' seat and by greedy on the heroes', from the same
draws, and the base policy's choice is kept unless another won clearly more."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from domain.ai.rollouts import Rollouts
from domain.ai.search import Rated, Shortlist, Tuning
from domain.engine.bots import Seen

from ..attack import parse_dice
from ..commands import Act, Advance, Choose, Convert, Defend, Move
from ..content import content
from ..state import FOES, HEROES, Battleboard, Combatant, Pos
from .greedy import greedy, score, weighing
from .plan import GREEDY, Weights, apart, cost, in_area, support_worth

DEPTH = 10                  # commands a playout plays: about one combatant's turn
STEEPNESS = 5.0             # how sharply the lead in tokens turns into chances
WANDER = (1, 5)             # the chance the playout plays any command instead of the best
SHORTLIST = 5               # root commands weighed: the greedy bot's best
ANCHOR = 2.0                # greedy's first is played unless the search's best beats it by this many standard errors
# the game master's decisions are rolled out (`domain.ai.rollouts`): its base policy's best and
# the next two, each from 6 draws, played on for 40 commands (through the heroes' reply)
ROLLOUT_CANDIDATES, ROLLOUT_DRAWS, ROLLOUT_DEPTH = 3, 6, 40
# the game master's base policy: greedy's, but it weighs the heroes' threat to a cell half as
# much, and spends focus on its Defense to turn a break into a tap (README, Bots: measured
# against greedy heroes)
MASTER = Weights(threat=0.3, guard=0.2)


def evaluate(state: Battleboard, side: str) -> float:
    """`side`'s chances: a logistic of the heroes' strength less the foes'."""
    lead = _strength(state, HEROES) - _strength(state, "foes")
    heroes = 1 / (1 + math.exp(-STEEPNESS * lead))
    return heroes if side == HEROES else 1 - heroes


def _strength(state: Battleboard, side: str) -> float:
    """The mean over the side's combatants of: 0 when defeated, else a half for standing and a
    half for its tokens left (a tapped one worth half an untapped one) out of its Resilience."""
    total, count = 0.0, 0
    for u in state.units.values():
        if u.side != side:
            continue
        count += 1
        if not u.defeated:
            total += 0.5 + 0.5 * min(1.0, (u.untapped + 0.5 * u.tapped) / max(1, u.resilience))
    return total / max(1, count)


def worth(state: Battleboard, seat: str, cmd: Any) -> float:
    """The greedy bot's rating (`greedy.score`), read from the state with the printed stats."""
    if isinstance(cmd, Choose):
        return 1.0 if cmd.go == "first" else 0.0
    if isinstance(cmd, Defend):
        return -cmd.focus * 0.1 + (0.5 if cmd.lose == "untapped" else 0.0)
    if isinstance(cmd, Advance):
        return 0.5
    if isinstance(cmd, Convert):
        return -1.0
    if isinstance(cmd, Move):
        return _move_worth(state, state.units[cmd.unit], cmd.to)
    if isinstance(cmd, Act):
        return _act_worth(state, state.units[cmd.unit], cmd)
    return 0.0                  # end the turn, or a placement (any cell alike)


def _foes_of(state: Battleboard, me: Combatant) -> list[Combatant]:
    return [u for u in state.units.values() if u.side != me.side and not u.defeated and u.cell is not None]


def _move_worth(state: Battleboard, me: Combatant, to: Pos) -> float:
    """Toward the nearest foe, while the combatant still has an action to take there."""
    foes = _foes_of(state, me)
    if me.cell is None or not foes or len(me.taken) >= me.slots + me.doubled:
        return -1.0
    here = min(apart(me.cell, f.cell) for f in foes if f.cell is not None)
    there = min(apart(to, f.cell) for f in foes if f.cell is not None)
    return 0.3 * (here - there) - 0.05 if there >= 1 else -1.0


def _act_worth(state: Battleboard, me: Combatant, cmd: Act) -> float:
    action = content().actions[cmd.action]
    if action.dice is not None:
        n, m, k = parse_dice(action.dice)
        hit = [state.units[t] for t in cmd.targets] or \
            [u for u in _foes_of(state, me) if u.cell is not None and in_area(cmd.row, cmd.col, cmd.at, u.cell)]
        gain = 0.0
        for t in hit:
            hits = n * max(2, 12 - max(t.evasion, 0)) / 12
            gain += max(0.0, hits * m + k - t.defense * 0.5) + 1
        return 1.0 + gain + 0.3 * len(action.effects) + 0.2 * cmd.reroll - cost(action, cmd.reroll)
    target = state.units[(cmd.targets or (me.id,))[0]]
    room = target.resilience - target.untapped - target.tapped
    return support_worth(action, state.mendable(target.id), room) - cost(action)


def rate(view: Mapping[str, Any], wires: Sequence[Mapping[str, Any]], weights: Weights = GREEDY) -> list[float]:
    """The greedy bot's score of each legal command, from the seat's view (with `weights`)."""
    return [score(view, wire, weights) for wire in wires]


def as_foes(seen: Seen) -> bool:
    return seen.sides[seen.seat] == FOES


# the slowest moves measured (a turn's first steps, every move listed): ~170 a second
TUNING = Tuning(depth=DEPTH, evaluate=evaluate, playout=Rated(worth, WANDER), iterations_per_second=150,
                shortlist=Shortlist(rate, SHORTLIST), anchor=ANCHOR,
                rollouts=Rollouts(partial(weighing, MASTER), partial(rate, weights=MASTER), evaluate,
                                  ROLLOUT_CANDIDATES, ROLLOUT_DRAWS, ROLLOUT_DEPTH, when=as_foes, model=greedy))
