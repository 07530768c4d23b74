"""`search`: information-set Monte Carlo tree search over what the seat knows.

The bot is given its seat's knowledge (`Ruleset.knowledge`, a redacted projection like the
view), never the battle's state, so it cannot read what its seat may not see. It searches
with single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012):

- Each iteration draws one determinization, a full state consistent with the knowledge
  (`Ruleset.determinize`), and a fresh seed for the rules' random draws: a card order, an
  enemy's HP within its band and every roll are sampled, never read.
- It walks one tree, whose nodes are keyed by the commands that lead to them, for every seat
  alike: at each node the seat to act picks among the commands legal in this determinization
  by UCB1, where a child's "parent visits" count the iterations in which it was available.
- It expands one new command, plays on with the fast path (`domain.engine.playout`) for at
  most `depth` commands, and scores the end: the outcome when the battle ended, else the
  game's `evaluate` of the state for each side (0.5 without one).
- After `iterations` iterations it plays the root command visited most.

A run is reproducible: the iteration budget is a number, not a time, and every draw comes
from the bot's RNG. Under a clock the budget shrinks with the seat's time left
(`budget_for`), so a search bot never loses on time by thinking.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import msgspec

from domain.engine.bots import Bot, Seen
from domain.engine.playout import Sim, playout, step, uniform
from domain.engine.rng import Rng
from domain.engine.table import MAX_ITERATIONS

# (a game state, a side) -> that side's chances, 0..1: how a truncated playout is scored
Evaluate = Callable[[Any, str], float]
# (a game state, the seat to move, its legal commands, the RNG) -> the command a playout plays
Playout = Callable[[Any, str, Sequence[Any], Rng], Any]
DEFAULT_ITERATIONS = 200
MIN_ITERATIONS = 8
__all__ = ["MAX_ITERATIONS", "SearchBot", "Tuning", "budget_for"]
# Under a clock: a move may spend this share of the seat's time left.
CLOCK_SHARE = 1 / 20


@dataclass(frozen=True)
class Tuning:
    """How a game's search plays: its budget, its playouts and how it scores where they stop."""
    iterations: int = DEFAULT_ITERATIONS
    depth: int = 100_000                # commands a playout plays before it is scored
    evaluate: Evaluate | None = None
    playout: Playout = uniform
    exploration: float = 0.7            # UCB1's constant, for rewards in 0..1
    iterations_per_second: int = 200    # what the budget assumes under a clock (this machine, worst ruleset)


class Node:
    """One command's child in the tree: the side that chose it, and what it won there."""
    __slots__ = ("side", "visits", "avail", "total", "children")

    def __init__(self, side: str | None):
        self.side = side
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Any, Node] = {}


def command_key(command: Any) -> Any:
    """A command as a tree key: itself when hashable, else its encoding."""
    try:
        hash(command)
        return command
    except TypeError:
        return msgspec.json.encode(command)


def budget_for(tuning: Tuning, time_left_ms: int | None) -> int:
    """The iterations of one move: the tuning's, or fewer when the seat's clock is short."""
    if time_left_ms is None:
        return tuning.iterations
    affordable = int(time_left_ms * CLOCK_SHARE * tuning.iterations_per_second / 1000)
    return max(MIN_ITERATIONS, min(tuning.iterations, affordable))


@dataclass
class Search:
    """One move's search from a seat's knowledge."""
    seen: Seen
    tuning: Tuning
    rng: Rng
    root: Node = field(default_factory=lambda: Node(None))

    def run(self, iterations: int) -> None:
        for _ in range(iterations):
            self.iterate()

    def iterate(self) -> None:
        ruleset, rng = self.seen.ruleset, self.rng
        game = ruleset.determinize(self.seen.knowledge, self.seen.seat, rng)
        sim = Sim(game, 0, rng.next64().to_bytes(8, "big") * 4)
        node, path = self.root, [self.root]
        while sim.outcome is None:
            waiting = ruleset.awaiting(sim.game)
            if not waiting:
                break
            actor = self.seen.seat if node is self.root else min(waiting)
            child, command = self.select(node, actor, ruleset.legal_commands(sim.game, actor))
            sim = step(ruleset, sim, actor, command)
            path.append(child)
            if child.visits == 0:
                break
            node = child
        rewards = self.score(sim, rng)
        self.root.visits += 1
        for n in path[1:]:
            n.visits += 1
            n.total += rewards.get(n.side, 0.5) if n.side is not None else 0.5

    def select(self, node: Node, actor: str, legal: Sequence[Any]) -> tuple[Node, Any]:
        """The child to go down (a new one first, at random), and its command."""
        fresh: list[tuple[Any, Any]] = []
        known: list[tuple[Node, Any]] = []
        for command in legal:
            key = command_key(command)
            child = node.children.get(key)
            if child is None:
                fresh.append((key, command))
            else:
                child.avail += 1
                known.append((child, command))
        if fresh:
            key, command = self.rng.choice(fresh)
            child = node.children[key] = Node(self.seen.sides.get(actor))
            child.avail = 1
            return child, command
        c = self.tuning.exploration
        return max(known, key=lambda pair: pair[0].total / pair[0].visits
                   + c * math.sqrt(math.log(pair[0].avail) / pair[0].visits))

    def score(self, sim: Sim, rng: Rng) -> Mapping[str, float]:
        """Each side's reward: from the outcome, once the battle ended within the playout's depth."""
        sim, _ = playout(self.seen.ruleset, sim, rng, self.tuning.playout, self.tuning.depth)
        sides = set(self.seen.sides.values())
        if sim.outcome is not None:
            winner = sim.outcome.winner
            return {side: 0.5 if winner is None else float(side == winner) for side in sides}
        evaluate = self.tuning.evaluate
        return {side: evaluate(sim.game, side) if evaluate else 0.5 for side in sides}

    def best(self, legal: Sequence[Any]) -> Any:
        """The legal command visited most (then the one that won most; then the first listed)."""
        def rank(command: Any) -> tuple[int, float]:
            child = self.root.children.get(command_key(command))
            return (child.visits, child.total) if child else (0, 0.0)
        return max(legal, key=rank)


class SearchBot(Bot):
    """The `search` policy, over a game's `Tuning`."""
    name = "search"
    searches = True

    def __init__(self, tuning: Tuning | None = None):
        self.tuning = tuning or Tuning()

    def with_iterations(self, iterations: int) -> "SearchBot":
        """The same search with `iterations` per move (its difficulty)."""
        return SearchBot(replace(self.tuning, iterations=iterations))

    def choose(self, view: Any, legal: Sequence[Any], rng: Rng, memory: Any = None) -> Any:
        seen: Seen = view
        if len(legal) == 1:
            return legal[0]
        search = Search(seen, self.tuning, rng)
        search.run(budget_for(self.tuning, seen.time_left_ms))
        return search.best(legal)
