"""In-memory matches between random bots (deckduel unless asked), turned into replays, plus
tamper tools."""
from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from domain.ai import get_policy
from domain.ai.match import Match, play, seeded_bytes
from domain.engine.battle import BattleState, fold
from domain.engine.chain import GENESIS, chain_of
from domain.engine.events import Recorded
from domain.engine.ruleset import get_ruleset
from replays.format import Replay, build

RULESET = get_ruleset("deckduel")


def match(i: int, seed: str = "replays", ruleset: str = "deckduel", setup: dict[str, Any] | None = None) -> Match:
    bot = get_policy("random", ruleset)
    return play(get_ruleset(ruleset), {"p1": bot, "p2": bot}, battle_id=f"00000000-0000-4000-8000-{i:012d}",
                revealed=seeded_bytes(seed, "seed", i), bot_seed=seeded_bytes(seed, "bots", i), setup=setup,
                created_at="2024-01-01T00:00:00.000Z")


def replay_of(m: Match) -> Replay:
    return build(m.state, m.records)


def clone(replay: Replay) -> Replay:
    return Replay(copy.deepcopy(replay.header), copy.deepcopy(replay.events))


def rechain(events: list[dict[str, Any]], start: int = 0) -> None:
    """Recompute every chain from index `start` on, as a forger with the hash function would."""
    chain = events[start - 1]["chain"] if start > 0 else GENESIS
    for line in events[start:]:
        chain = chain_of(chain, line["seq"], line["type"], line["data"])
        line["chain"] = chain


def forge(replay: Replay, k: int, **changes: Any) -> tuple[Replay, Any]:
    """A forger's edit: change event `k`'s data, recompute every chain from it, verify.

    The chain is valid afterwards, so only re-simulation can catch the forgery.
    """
    from replays.verify import verify

    bad = clone(replay)
    bad.events[k]["data"].update(changes)
    rechain(bad.events, k)
    return bad, verify(bad)


def renumber(events: list[dict[str, Any]]) -> None:
    for i, line in enumerate(events, start=1):
        line["seq"] = i


def first_index(replay: Replay, topic: str, after: int = 0) -> int:
    """Index (0-based) of the first event of `topic` at or after index `after`."""
    for i, line in enumerate(replay.events[after:], start=after):
        if line["type"] == topic:
            return i
    raise LookupError(topic)


def fold_until(records: Sequence[Recorded], n: int) -> BattleState:
    state = None
    for rec in records[:n]:
        state = fold(RULESET, state, rec)
    assert state is not None
    return state


def batch_ends(records: Sequence[Recorded]) -> list[int]:
    """The seq of the last event of every batch (the create batch included)."""
    ends = []
    for rec in records[1:]:
        if rec.event.starts_batch():
            ends.append(rec.seq - 1)
    ends.append(records[-1].seq)
    return ends
