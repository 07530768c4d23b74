"""Bot-vs-bot battles in memory: the same engine functions as live battles, no storage.

A clocked battle is played in virtual time, so the same seed plays the same battle: time
starts at `start_ms`, and each seat thinks `think_ms` over each move, from the moment it
became awaited or made its last move (seats awaited together think at once). The move that
arrives first is played first. A seat whose time (and grace) runs out before its move arrives
gets the timeout a server would record, at the first moment it may be recorded, through
`decide_timeout`: a bot that thinks too long loses on time, or has the rules' automatic move
played for it, exactly as it would live.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

from domain.engine.battle import BattleState, decide_batch, open_battle
from domain.engine.bots import Bot, Seen
from domain.engine.clock import ClockSpec, remaining
from domain.engine.events import Command, Recorded, Viewer
from domain.engine.rng import Rng
from domain.engine.ruleset import Ruleset
from domain.engine.timeouts import decide_timeout, timeout_due

from .memory import Memory

MAX_DECISIONS = 100_000
# A bot's virtual think time per move: a second, a quick human move.
DEFAULT_THINK_MS = 1000


@dataclass
class Match:
    state: BattleState
    records: list[Recorded]
    decisions: int
    timeouts: int = 0


def seeded_bytes(seed: int | str, *parts: object) -> bytes:
    """Deterministic 32 bytes from a simulation seed (for `simulate --seed`)."""
    return blake2b(":".join(map(str, (seed, *parts))).encode(), digest_size=32).digest()


class Pacing:
    """When each awaited seat's next move arrives in virtual time: `think` after the seat
    became awaited or last moved, and never before the battle's latest batch."""

    def __init__(self, think: Mapping[str, int], start_ms: int):
        self.think = dict(think)
        self.now = start_ms
        self.ready: dict[str, int] = {}      # awaited seat -> the time it began thinking

    def next_move(self, awaited: Iterable[str]) -> tuple[int, str]:
        """(when, which seat): the move that arrives first; ties go to the first seat by name."""
        for seat in awaited:
            self.ready.setdefault(seat, self.now)
        return min((max(self.now, self.ready[seat] + self.think[seat]), seat) for seat in awaited)

    def after(self, at_ms: int, actor: str, awaited: Iterable[str]) -> None:
        """A batch accepted at `at_ms` that `actor` moved in (or timed out in): the actor, and
        every seat now awaited that was not before, begin thinking then."""
        self.now = at_ms
        self.ready = {seat: self.ready[seat] if seat in self.ready and seat != actor else at_ms
                      for seat in awaited}


def think_times(think_ms: int | Mapping[str, int], seats: Sequence[str]) -> dict[str, int]:
    """Each seat's think time per move: one for all, or one per seat."""
    if isinstance(think_ms, int):
        return dict.fromkeys(seats, think_ms)
    return {seat: think_ms[seat] for seat in seats}


def play(ruleset: Ruleset[Any], bots: Mapping[str, Bot], *, battle_id: str, revealed: bytes,
         bot_seed: bytes, setup: Mapping[str, Any] | None = None, players: Mapping[str, Any] | None = None,
         created_at: str = "1970-01-01T00:00:00Z", clock: ClockSpec | None = None,
         think_ms: int | Mapping[str, int] = DEFAULT_THINK_MS, start_ms: int = 0,
         first_move_loses: bool = False, watch: Callable[[Any], None] | None = None) -> Match:
    """Play a battle to its end: with a `clock`, in virtual time from `start_ms` (see above);
    `first_move_loses` as in a set; `watch` sees the game state after each batch."""
    state, records = open_battle(
        ruleset, battle_id=battle_id, setup=setup if setup is not None else ruleset.fresh_setup(),
        players=players or house_players(bots), revealed=revealed, created_at=created_at,
        clock=clock, clock_at_ms=start_ms if clock is not None else None, first_move_loses=first_move_loses)
    rng = Rng(bot_seed)
    pacing = Pacing(think_times(think_ms, state.table.seats), start_ms) if clock is not None else None
    decisions, timeouts = 0, 0
    # Policies that read the battle history get the same AI memory the service projects.
    memories = {seat: Memory(seat) for seat, bot in bots.items() if bot.needs_memory}
    seen = 0
    while state.outcome is None:
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"{ruleset.id}: no result after {MAX_DECISIONS} decisions")
        waiting = sorted(ruleset.awaiting(state.game))
        if not waiting:
            raise RuntimeError(f"{ruleset.id}: nobody can act at seq {state.seq} but the battle has not ended")
        at_ms, seat = pacing.next_move(waiting) if pacing is not None else (None, waiting[0])
        due = timeout_due(state)
        if at_ms is not None and due is not None and due[0] <= at_ms:
            at_ms, seat = due        # a clock runs out before that move arrives: the timeout comes first
            state, batch = decide_timeout(ruleset, state, seat, at_ms)
            timeouts += 1
        else:
            if memories:
                remember(ruleset, state, records[seen:], memories)
                seen = len(records)
            legal = ruleset.legal_commands(state.game, seat)
            choice = bot_choice(bots[seat], ruleset, state.game, seat, legal, rng, memories.get(seat),
                                seen=seen_by(ruleset, state, seat, at_ms) if bots[seat].searches else None)
            state, batch = decide_batch(ruleset, state, seat, choice, at_ms=at_ms, awaited=waiting)
        records.extend(batch)
        decisions += 1
        if watch is not None:
            watch(state.game)
        if pacing is not None and at_ms is not None and state.outcome is None:
            pacing.after(at_ms, seat, ruleset.awaiting(state.game))
    return Match(state, records, decisions, timeouts)


def house_players(bots: Mapping[str, Bot]) -> dict[str, Any]:
    """Every seat a house seat of its bot's policy: how simulated battles record their players."""
    return {seat: {"bot": bot.name} for seat, bot in bots.items()}


def bot_choice(bot: Bot, ruleset: Ruleset[Any], game: Any, seat: str, legal: Sequence[Command], rng: Rng,
               memory: Memory | None = None, seen: Seen | None = None) -> Command | Mapping[str, Any]:
    """What `bot` plays for `seat`, given only the seat's view (and memory) when it reads them,
    or only its knowledge (`seen`) when it searches."""
    if bot.searches:
        if seen is None:
            raise ValueError(f"the {bot.name} bot searches: it needs the seat's knowledge")
        return bot.choose(seen, legal, rng)
    if not bot.needs_view:
        return bot.choose(None, legal, rng)      # picks one of the command objects as they are
    view = ruleset.view(game, Viewer(seat=seat))
    return bot.choose(view, [ruleset.codec.wire(c) for c in legal], rng, memory=memory)


def seen_by(ruleset: Ruleset[Any], state: BattleState, seat: str, at_ms: int | None) -> Seen:
    """What `seat` knows of `state`, for a searching bot: its knowledge, the table's sides and
    (in a clocked battle, at `at_ms`) its time left."""
    table = state.table
    sides = {s: table.side_of(s) for s in table.seats}
    left = None
    if state.clock is not None and at_ms is not None and seat in state.clock.seats:
        left = remaining(state.clock.spec, state.clock.seats[seat], at_ms)
    return Seen(ruleset, seat, ruleset.knowledge(state.game, seat), sides, left)


def remember(ruleset: Ruleset[Any], state: BattleState, new: list[Recorded], memories: dict[str, Memory]) -> None:
    """Feed each remembering seat the events it may see, then its view now."""
    for seat, memory in memories.items():
        viewer = Viewer(seat=seat)
        for rec in new:
            memory.take(rec, viewer, state.public)
        memory.settle(ruleset, state.game, ruleset.view(state.game, viewer))
