"""Shared helpers for the storage tests: play a battle through `Battles.submit`, fold records,
start several openers at the same moment."""
from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Callable, Sequence

from domain.battles import Battles, Submitted
from domain.engine.battle import BattleState, fold
from domain.engine.events import Recorded
from domain.engine.ruleset import get_ruleset

RULESET = get_ruleset("deckduel")
PLAYERS = {"p1": "alice", "p2": "bob"}


def next_seat(battles: Battles, battle_id: str) -> str | None:
    """The first seat (sorted) the battle waits for; None once it is over."""
    state = battles.load(battle_id)
    if state.outcome is not None:
        return None
    waiting = sorted(RULESET.awaiting(state.game))
    assert waiting, f"nobody can act at seq {state.seq} but the battle has not ended"
    return waiting[0]


def play_out(battles: Battles, battle_id: str, rng: random.Random, limit: int = 2000) -> list[Submitted]:
    """Play legal commands (chosen by `rng`) until the battle ends; return every Submitted."""
    done: list[Submitted] = []
    for _ in range(limit):
        seat = next_seat(battles, battle_id)
        if seat is None:
            return done
        legal = battles.legal(battle_id, seat)
        assert legal, f"{seat} is awaited but has no legal command"
        done.append(battles.submit(battle_id, seat, rng.choice(legal)))
    raise AssertionError(f"battle {battle_id} did not end within {limit} commands")


def fold_records(records: Sequence[Recorded]) -> BattleState:
    state = None
    for rec in records:
        state = fold(RULESET, state, rec)
    assert state is not None
    return state


def raw_versions(battles: Battles, battle_id: str) -> list[int]:
    """Versions stored for the battle, read from the recorder (no mapper, no cache)."""
    return [e.originator_version for e in battles.store.recorder.select_events(uuid.UUID(battle_id))]


def raw_bodies(battles: Battles, battle_id: str) -> list[bytes]:
    return [bytes(e.state) for e in battles.store.recorder.select_events(uuid.UUID(battle_id))]


def at_once(count: int, start: Callable[[], object]) -> list[BaseException]:
    """Run `start` in `count` threads released together; what each of them raised."""
    starting = threading.Barrier(count)
    failures: list[BaseException] = []

    def run() -> None:
        starting.wait()
        try:
            start()
        except BaseException as error:     # noqa: BLE001 - the test reports every failure
            failures.append(error)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures
