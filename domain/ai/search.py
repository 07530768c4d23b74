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

A game tunes it (`Tuning`): how deep a playout goes, how it plays (`Rated`: the command a cheap
rating likes best, now and then any), how its end is scored, and two things a short playout
cannot judge. `shortlist` narrows the root to the few commands a greedy rater ranks best, when
a turn lists more than one move's iterations can tell apart (`Shortlist`); `anchor` keeps the
rater's first choice unless the search's best won clearly more a visit (by that many standard
errors), where the playouts cannot tell the options apart and would otherwise pick at random; `prepared`
makes a decision without searching at all, such as a team pick whose worth shows only turns
later; `rollouts` makes the decisions it names by rollouts instead (`rollouts.py`: greedy's
choice and its runners-up, each played on by greedy through the other side's reply). They read
the seat's own view of its knowledge (`Seen.view`), so none reads a secret.

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

from domain.ai.rollouts import Evaluate, Rollouts
from domain.engine.bots import Bot, Seen
from domain.engine.playout import Sim, fresh_seed, playout, step, uniform
from domain.engine.rng import Rng
from domain.engine.scoring import Wire, best
from domain.engine.table import MAX_ITERATIONS

# (a game state, the seat to move, its legal commands, the RNG) -> the command a playout plays
Playout = Callable[[Any, str, Sequence[Any], Rng], Any]
# (a game state, the seat to move, one legal command) -> how much a playout likes it
Worth = Callable[[Any, str, Any], float]
# (the seat's view, its legal wire commands) -> a rating of each
Rate = Callable[[Mapping[str, Any], Sequence[Wire]], Sequence[float]]
# (what the seat knows, its legal commands, the RNG) -> a command made without searching, or None
Prepared = Callable[[Seen, Sequence[Any], Rng], Any]
DEFAULT_ITERATIONS = 200
MIN_ITERATIONS = 8
__all__ = ["MAX_ITERATIONS", "Rated", "SearchBot", "Shortlist", "Tuning", "budget_for", "chosen_by"]
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
    tree: bool = True                   # False: a flat search, UCB1 over the root and a playout below
    shortlist: "Shortlist | None" = None    # the root commands weighed
    anchor: float = 0.0                 # the standard errors by which the search's best must beat the
                                        # shortlist's first to be played instead (0: the best always)
    prepared: Prepared | None = None    # a decision made without searching (None: search it)
    rollouts: Rollouts | None = None    # the decisions rolled out instead (`rollouts.py`)


def everywhere(state: Any) -> bool:
    return True


@dataclass(frozen=True)
class Rated:
    """A playout policy: the command `worth` rates best (a tie broken by the RNG), or any legal
    command with chance `wander`, or whenever `when(state)` says the rating does not apply."""
    worth: Worth
    wander: tuple[int, int]
    when: Callable[[Any], bool] = everywhere

    def __call__(self, game: Any, seat: str, legal: Sequence[Any], rng: Rng) -> Any:
        if len(legal) == 1 or not self.when(game) or rng.chance(*self.wander):
            return rng.choice(legal)
        return best([self.worth(game, seat, command) for command in legal], legal, rng)


@dataclass(frozen=True)
class Shortlist:
    """The root commands a search weighs: the `size` that `rate` ranks best from the seat's own
    view, in their listed order, wherever `when(knowledge)` (elsewhere all of them)."""
    rate: Rate
    size: int
    when: Callable[[Any], bool] = everywhere

    def narrowed(self, legal: Sequence[Any], ranked: list[int] | None) -> Sequence[Any]:
        """The `size` best of `legal` by `ranked`, in their listed order (all of them unranked)."""
        if ranked is None or len(legal) <= self.size:
            return legal
        return [legal[i] for i in sorted(ranked[:self.size])]

    def ranked(self, seen: Seen, legal: Sequence[Any]) -> list[int] | None:
        """The legal commands' indexes, the best rated first (the first listed among equals);
        None where the rating does not apply."""
        if not self.when(seen.knowledge):
            return None
        rated = self.rate(seen.view(), [seen.ruleset.codec.wire(command) for command in legal])
        return sorted(range(len(legal)), key=lambda i: -rated[i])


def chosen_by(bot: Bot, seen: Seen, legal: Sequence[Any], rng: Rng) -> Any:
    """The command a bot that reads the view (`greedy`) plays for the seat, from the seat's own
    view of its knowledge."""
    wires = [seen.ruleset.codec.wire(command) for command in legal]
    return legal[wires.index(bot.choose(seen.view(), wires, rng))]


class Node:
    """One command's child in the tree: the side that chose it, and what it won there."""
    __slots__ = ("side", "visits", "avail", "total", "squares", "children")

    def __init__(self, side: str | None):
        self.side = side
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.squares = 0.0          # the sum of the rewards' squares, for their spread
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
    allowed: frozenset[Any] | None = None     # the root commands weighed (None: every legal one)
    root: Node = field(default_factory=lambda: Node(None))

    def run(self, iterations: int) -> None:
        for _ in range(iterations):
            self.iterate()

    def iterate(self) -> None:
        ruleset, rng = self.seen.ruleset, self.rng
        game = ruleset.determinize(self.seen.knowledge, self.seen.seat, rng)
        sim = Sim(game, 0, fresh_seed(rng))
        node, path = self.root, [self.root]
        while sim.outcome is None:
            waiting = ruleset.awaiting(sim.game)
            if not waiting:
                break
            actor = self.seen.seat if node is self.root else min(waiting)
            child, command = self.select(node, actor, ruleset.legal_commands(sim.game, actor))
            sim = step(ruleset, sim, actor, command)
            path.append(child)
            if child.visits == 0 or not self.tuning.tree:
                break
            node = child
        rewards = self.score(sim, rng)
        self.root.visits += 1
        for n in path[1:]:
            n.visits += 1
            reward = rewards.get(n.side, 0.5) if n.side is not None else 0.5
            n.total += reward
            n.squares += reward * reward

    def select(self, node: Node, actor: str, legal: Sequence[Any]) -> tuple[Node, Any]:
        """The child to go down (a new one first, at random), and its command."""
        if node is self.root and self.allowed is not None:
            legal = [command for command in legal if command_key(command) in self.allowed]
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

    def spread(self, command: Any) -> tuple[float, float]:
        """The mean reward of the root command's iterations and its variance (the mean's
        squared standard error); (0, 0) when it had none."""
        child = self.root.children.get(command_key(command))
        if child is None or not child.visits:
            return 0.0, 0.0
        mean = child.total / child.visits
        return mean, max(0.0, child.squares / child.visits - mean * mean) / child.visits

    def anchored(self, best: Any, first: Any, z: float) -> Any:
        """`best`, if its mean reward beats `first`'s by at least `z` standard errors of the
        difference (and by something); else `first`."""
        (mean, var), (base, base_var) = self.spread(best), self.spread(first)
        lead = mean - base
        return best if lead > 0 and lead * lead >= z * z * (var + base_var) else first


class SearchBot(Bot):
    """The `search` policy, over a game's `Tuning`."""
    name = "search"
    searches = True

    def __init__(self, tuning: Tuning | None = None):
        self.tuning = tuning or Tuning()

    def with_iterations(self, iterations: int) -> "SearchBot":
        """The same search with `iterations` per move (its difficulty)."""
        return type(self)(replace(self.tuning, iterations=iterations))

    def choose(self, view: Any, legal: Sequence[Any], rng: Rng, memory: Any = None) -> Any:
        seen: Seen = view
        tuning = self.tuning
        if len(legal) == 1:
            return legal[0]
        made = tuning.prepared(seen, legal, rng) if tuning.prepared is not None else None
        if made is not None:
            return made
        budget = budget_for(tuning, seen.time_left_ms)
        if tuning.rollouts is not None and tuning.rollouts.when(seen):
            return tuning.rollouts.choose(seen, legal, rng, budget / DEFAULT_ITERATIONS)
        shortlist = tuning.shortlist
        ranked = self.ranked(seen, legal)
        weighed = shortlist.narrowed(legal, ranked) if shortlist is not None else legal
        allowed = frozenset(map(command_key, weighed)) if len(weighed) < len(legal) else None
        search = Search(seen, tuning, rng, allowed)
        search.run(budget)
        best = search.best(weighed)
        if ranked is None or not tuning.anchor:
            return best
        return search.anchored(best, legal[ranked[0]], tuning.anchor)

    def ranked(self, seen: Seen, legal: Sequence[Any]) -> list[int] | None:
        """The shortlist's ranking of `legal`, when it narrows them or anchors the choice."""
        shortlist = self.tuning.shortlist
        if shortlist is None or (len(legal) <= shortlist.size and not self.tuning.anchor):
            return None
        return shortlist.ranked(seen, legal)
