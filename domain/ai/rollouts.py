"""Rollouts: a decision made by playing a few candidates on, each by a base policy.

Some decisions a short playout scored by an evaluation cannot judge, because what decides
them is how the other side answers, turns later. For those a search's tuning can name
`Rollouts`: the on-line policy improvement of Tesauro and Galperin (1996), over the seat's
knowledge. The base policy reads a seat's view: the game's `greedy` bot, or a greedy of the
tuning's own weighing:

- the candidates are the base policy's own choice and the `candidates - 1` commands its rating
  ranks next (`rate`, from the seat's view);
- each draw is one determinization of the seat's knowledge (`Ruleset.determinize`), one seed
  for the rules' draws and one for the bots': every candidate is played from the same draw,
  so their difference is read draw by draw (common random numbers);
- from the candidate on, every seat plays from its own view of the drawn state, for at most
  `depth` commands: the seat's own side by the base policy, the others by the tuning's `model`
  of how they play (the base policy, unless it names another); the rollout scores the outcome
  when the battle ended, else the tuning's `evaluate`;
- the base policy's choice is kept unless another candidate beat it, over the draws, by `z`
  standard errors of the paired difference (and by something): a rollout's result is noisy,
  and a coin toss must not replace the base policy's choice.

It reads only what its seat knows (the draws are made from its knowledge), and every draw
comes from the bot's RNG, so a run is reproducible. Its cost is its draws: `draws` at the
search's default budget, fewer when the budget is smaller (a lower difficulty, or a clock
running short), and none, the base policy's choice at once, below `MIN_DRAWS`.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from domain.engine.bots import Bot, BotFactory, Seen
from domain.engine.events import Viewer
from domain.engine.playout import Sim, fresh_seed, playout, step
from domain.engine.rng import Rng
from domain.engine.scoring import Wire

# (a game state, a side) -> that side's chances, 0..1: how a truncated playout or rollout is scored
Evaluate = Callable[[Any, str], float]
# (the seat's view, its legal wire commands) -> a rating of each, the base policy's order
Rank = Callable[[Mapping[str, Any], Sequence[Wire]], Sequence[float]]
MIN_DRAWS = 2


def everywhere(seen: Seen) -> bool:
    return True


@dataclass(frozen=True)
class Rollouts:
    """Which decisions are rolled out (`when`), by which base policy, and how many rollouts."""
    policy: BotFactory              # the base policy, which reads the view (the game's greedy, or its own)
    rank: Rank                      # how the base policy rates each candidate
    evaluate: Evaluate              # how a rollout that did not reach the end is scored
    candidates: int = 4
    draws: int = 8                  # at the search's default budget
    depth: int = 40                 # commands a rollout plays after the candidate
    z: float = 2.0
    when: Callable[[Seen], bool] = everywhere
    model: BotFactory | None = None     # how the other sides play in a rollout (None: the base policy)

    def choose(self, seen: Seen, legal: Sequence[Any], rng: Rng, share: float = 1.0) -> Any:
        """The command to play: the base policy's own, unless another candidate's rollouts won
        clearly more. `share` is the budget's share of the default (fewer draws under a clock)."""
        codec = seen.ruleset.codec
        wires = [codec.wire(command) for command in legal]
        view = seen.view()
        first = wires.index(self.policy().choose(view, wires, rng))
        draws = self.draws_for(share)
        if not draws:
            return legal[first]
        rated = self.rank(view, wires)
        others = sorted((i for i in range(len(legal)) if i != first), key=lambda i: -rated[i])
        picked = [first, *others[:self.candidates - 1]]
        results: list[list[float]] = [[] for _ in picked]
        for _ in range(draws):
            game = seen.ruleset.determinize(seen.knowledge, seen.seat, rng)
            seeds = (fresh_seed(rng), fresh_seed(rng))
            for result, i in zip(results, picked):
                result.append(self.rollout(seen, game, legal[i], seeds))
        return legal[picked[clear_lead(results, self.z)]]

    def draws_for(self, share: float) -> int:
        """The draws of a decision whose budget is `share` of the default: none (the base policy's
        choice, at once) where that leaves fewer than `MIN_DRAWS`, too few to tell a lead from luck."""
        draws = round(self.draws * share)
        return draws if draws >= MIN_DRAWS else 0

    def rollout(self, seen: Seen, game: Any, command: Any, seeds: tuple[bytes, bytes]) -> float:
        """The seat's side's result when `command` is played on `game` and the policies play on."""
        ruleset, side = seen.ruleset, seen.sides[seen.seat]
        own = self.policy()
        policies = Policies(side, seen.sides, own, own if self.model is None else self.model())
        sim = step(ruleset, Sim(game, 0, seeds[0]), seen.seat, command)
        sim, _ = playout(ruleset, sim, Rng(seeds[1]), partial(played_by, policies, ruleset), self.depth)
        if sim.outcome is not None:
            winner = sim.outcome.winner
            return 0.5 if winner is None else float(winner == side)
        return self.evaluate(sim.game, side)


@dataclass(frozen=True)
class Policies:
    """Who plays which seat in a rollout: the base policy on `side`'s seats, the model elsewhere."""
    side: str
    sides: Mapping[str, str]            # each seat's side
    own: Bot
    other: Bot

    def of(self, seat: str) -> Bot:
        return self.own if self.sides.get(seat) == self.side else self.other


def played_by(policies: Policies, ruleset: Any, game: Any, seat: str, legal: Sequence[Any], rng: Rng) -> Any:
    """The command `seat`'s policy plays in `game`."""
    return played(policies.of(seat), ruleset, game, seat, legal, rng)


def played(policy: Bot, ruleset: Any, game: Any, seat: str, legal: Sequence[Any], rng: Rng) -> Any:
    """The command the view-reading `policy` plays for `seat` in `game`, from the seat's view."""
    if len(legal) == 1:
        return legal[0]
    wires = [ruleset.codec.wire(command) for command in legal]
    return legal[wires.index(policy.choose(ruleset.view(game, Viewer(seat=seat)), wires, rng))]


def clear_lead(results: Sequence[Sequence[float]], z: float) -> int:
    """The index of the candidate to play: the one whose lead over the first (paired draw by
    draw) is largest among those that lead by `z` standard errors; 0 when none does."""
    base, chosen, most = results[0], 0, 0.0
    n = len(base)
    for i, result in enumerate(results[1:], 1):
        diffs = [a - b for a, b in zip(result, base)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n
        if mean > most and mean >= z * math.sqrt(var):
            chosen, most = i, mean
    return chosen
