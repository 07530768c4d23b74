"""Bot-vs-bot battles in memory: the same engine functions as live battles, no storage."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

from domain.engine.battle import BattleState, decide_batch, open_battle
from domain.engine.bots import Bot
from domain.engine.events import Command, Recorded, Viewer, wire_event
from domain.engine.rng import Rng
from domain.engine.ruleset import Ruleset

from .memory import Memory

MAX_DECISIONS = 100_000


@dataclass
class Match:
    state: BattleState
    records: list[Recorded]
    decisions: int


def seeded_bytes(seed: int | str, *parts: object) -> bytes:
    """Deterministic 32 bytes from a simulation seed (for `simulate --seed`)."""
    return blake2b(":".join(map(str, (seed, *parts))).encode(), digest_size=32).digest()


def play(ruleset: Ruleset[Any], bots: Mapping[str, Bot], *, battle_id: str, revealed: bytes,
         bot_seed: bytes, setup: Mapping[str, Any] | None = None, players: Mapping[str, Any] | None = None,
         created_at: str = "1970-01-01T00:00:00Z") -> Match:
    state, records = open_battle(
        ruleset, battle_id=battle_id, setup=setup if setup is not None else ruleset.fresh_setup(),
        players=players or house_players(bots), revealed=revealed, created_at=created_at)
    rng = Rng(bot_seed)
    decisions = 0
    # Policies that read the battle history get the same AI memory the service projects.
    memories = {seat: Memory(seat) for seat, bot in bots.items() if bot.needs_memory}
    seen = 0
    while state.outcome is None:
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"{ruleset.id}: no result after {MAX_DECISIONS} decisions")
        waiting = sorted(ruleset.awaiting(state.game))
        if not waiting:
            raise RuntimeError(f"{ruleset.id}: nobody can act at seq {state.seq} but the battle has not ended")
        seat = waiting[0]
        bot = bots[seat]
        legal = ruleset.legal_commands(state.game, seat)
        if memories:
            remember(ruleset, state, records[seen:], memories)
            seen = len(records)
        choice = bot_choice(bot, ruleset, state.game, seat, legal, rng, memories.get(seat))
        state, batch = decide_batch(ruleset, state, seat, choice)
        records.extend(batch)
        decisions += 1
    return Match(state, records, decisions)


def house_players(bots: Mapping[str, Bot]) -> dict[str, Any]:
    """Every seat a house seat of its bot's policy: how simulated battles record their players."""
    return {seat: {"bot": bot.name} for seat, bot in bots.items()}


def bot_choice(bot: Bot, ruleset: Ruleset[Any], game: Any, seat: str, legal: Sequence[Command], rng: Rng,
               memory: Memory | None = None) -> Command | Mapping[str, Any]:
    """What `bot` plays for `seat`, given only the seat's view (and memory) when it reads them."""
    if not bot.needs_view:
        return bot.choose(None, legal, rng)      # picks one of the command objects as they are
    view = ruleset.view(game, Viewer(seat=seat))
    return bot.choose(view, [ruleset.codec.wire(c) for c in legal], rng, memory=memory)


def remember(ruleset: Ruleset[Any], state: BattleState, new: list[Recorded], memories: dict[str, Memory]) -> None:
    """Feed each remembering seat the events it may see, then its view now."""
    for seat, memory in memories.items():
        viewer = Viewer(seat=seat)
        for rec in new:
            memory.observe(wire_event(rec, viewer, state.public), rec.event.is_action())
        memory.settle(ruleset, state.game, ruleset.view(state.game, viewer))
