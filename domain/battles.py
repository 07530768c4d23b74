"""The Battles service: create, submit, state, view, events. One battle = one aggregate.

What `api/`, the CLI and the projections call. The work is done by the parts it wires:
- `Loader` (domain/loader.py): the state cache, snapshots and the log follower;
- `Writer` (domain/writer.py): deciding commands and saving batches;
- `Committer` (domain/committer.py): the group-commit thread that runs the writer's jobs;
- `Reading` (domain/reading.py): the one read path;
- domain/access.py: seat tokens and who may view as whom.
The parts' entry points are bound here once, so a call through the service costs no more
than a call to the part.
"""
from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from hashlib import blake2b
from typing import Any

import msgspec

from domain.access import seat_of_token, token_hash
from domain.ai import check_house_players
from domain.committer import Committer, Job, Planned, Read
from domain.engine.battle import BattleState, open_battle
from domain.engine.clock import ClockSpec, parse_clock
from domain.engine.events import Viewer
from domain.engine.ruleset import get_ruleset
from domain.engine.table import Table, human_seats
from domain.engine.wire import check_wire
from domain.loader import Loader, parse_battle_id
from domain.reading import Reading
from domain.store import BattleStore, StoredRecord, store_env
from domain.writer import Ask, ClockAsk, Submitted, Writer, wall_ms

DEFAULT_CACHE = 16384        # battle states kept in memory: size it to the battles in play


@dataclass(frozen=True)
class CreatedBattle:
    battle_id: str
    seat_tokens: dict[str, str]
    seed_commitment: str
    seq: int


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Battles:
    def __init__(self, url: str | None = None, *, snapshot_every: int = 100, cache_size: int = DEFAULT_CACHE,
                 retries: int = 8, now_ms: Callable[[], int] = wall_ms):
        self.store = BattleStore(env=store_env(url))
        self.loader = loader = Loader(self.store, cache_size)
        self.writer = writer = Writer(loader, snapshot_every=snapshot_every, retries=retries, now_ms=now_ms)
        self.now_ms = now_ms        # the wall clock of every batch's accept time
        self.committer = Committer(writer)
        self.reading = Reading(loader)
        self.cache = loader.cache
        self.follower = loader.follower
        self.committed = writer.committed        # commit listeners: (battle id, records, state after)
        self.load = loader.load
        self.records = loader.records
        self.ruleset_of = loader.ruleset_of
        self.battle_ids = loader.battle_ids
        self.append_batch = writer.append_batch
        self.save_battle = writer.save_battle
        self._plan_submit = writer.plan_submit
        self._submit_alone = writer.submit_alone

    def close(self) -> None:
        self.committer.close()
        self.store.close()

    def __enter__(self) -> "Battles":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------
    def create(self, ruleset_id: str, players: Mapping[str, str], setup: Mapping[str, Any] | None = None,
               *, seed_nonces: Mapping[str, str] | None = None, private: bool = False,
               revealed: bytes | None = None, battle_id: str | None = None,
               created_at: str | None = None, seat_tokens: Mapping[str, str] | None = None,
               clock: ClockSpec | Mapping[str, Any] | str | None = None,
               first_move_loses: bool = False) -> CreatedBattle:
        """Create a battle: one secret token per seat a person plays (only hashes are kept; a
        house seat gets none), a committed seed, and a `clock` (a preset's name, its fields,
        or none: the default).

        `seat_tokens` reuses tokens already handed out (a set's battles share its tokens)."""
        return self.create_later(ruleset_id, players, setup, seed_nonces=seed_nonces, private=private,
                                 revealed=revealed, battle_id=battle_id, created_at=created_at,
                                 seat_tokens=seat_tokens, clock=clock, first_move_loses=first_move_loses).result()

    def create_later(self, ruleset_id: str, players: Mapping[str, str], setup: Mapping[str, Any] | None = None,
                     *, seed_nonces: Mapping[str, str] | None = None, private: bool = False,
                     revealed: bytes | None = None, battle_id: str | None = None, created_at: str | None = None,
                     seat_tokens: Mapping[str, str] | None = None,
                     clock: ClockSpec | Mapping[str, Any] | str | None = None,
                     first_move_loses: bool = False) -> Future[CreatedBattle]:
        """`create` without waiting: the battle is decided here (SetupError at once), and the
        future holds the answer once the group holding it has committed. In a set a seat
        that never makes its first move loses (`first_move_loses`) instead of aborting."""
        ruleset = get_ruleset(ruleset_id)
        spec = clock if isinstance(clock, ClockSpec) else parse_clock(clock)
        bid = uuid.UUID(battle_id) if battle_id else uuid.uuid4()
        tokens: dict[str, str] = {}

        def hashes(table: Table) -> dict[str, str]:
            # Called once the players are checked: they name exactly the table's seats.
            human = human_seats(players)
            given = seat_tokens or {seat: secrets.token_urlsafe(32) for seat in human}
            tokens.update({seat: token for seat, token in given.items() if seat in human})
            return {s: token_hash(t) for s, t in tokens.items()}
        state, records = open_battle(
            ruleset, battle_id=str(bid), setup=ruleset.fresh_setup() if setup is None else setup,
            players=players, revealed=revealed if revealed is not None else secrets.token_bytes(32),
            nonces=seed_nonces, token_hashes=hashes,
            created_at=created_at or utc_now(), private=private,
            clock=spec, clock_at_ms=self.now_ms() if spec is not None else None, first_move_loses=first_move_loses)
        check_house_players(ruleset.id, state.created.players)
        made = CreatedBattle(str(bid), tokens, state.created.seed_commitment, state.seq)
        planned = Planned(bid, records, state, 0, [StoredRecord(bid, r) for r in records], made)

        def alone() -> CreatedBattle:
            self.append_batch(bid, records, state, previous_seq=0)
            return made
        return self.committer.submit(Job(plan=lambda heads, keys: planned, alone=alone))

    def submit(self, battle_id: str, seat: str, command: Mapping[str, Any], *,
               expected_seq: int | None = None, idempotency_key: str | None = None) -> Submitted:
        """Decide and append one command atomically (group-committed with any others arriving
        together); retry on a concurrent append."""
        return self.submit_later(battle_id, command, seat=seat, expected_seq=expected_seq,
                                 idempotency_key=idempotency_key).result()

    def submit_later(self, battle_id: str, command: Mapping[str, Any], *, seat: str | None = None,
                     token: str | None = None, expected_seq: int | None = None,
                     idempotency_key: str | None = None) -> Future[Submitted]:
        """`submit` without waiting: the future holds the answer once its batch has committed.
        The seat is `seat`, or the one `token` opens (checked by the writer)."""
        bid = parse_battle_id(battle_id)
        check_wire(command, "command")     # before the digest, which cannot encode every value
        digest = blake2b(msgspec.json.encode(command, order="sorted"), digest_size=16).hexdigest()
        ask = Ask(bid, seat, token, command, expected_seq, idempotency_key, digest)
        return self.committer.submit(Job(plan=lambda heads, keys: self._plan_submit(ask, heads, keys),
                                         alone=lambda: self._submit_alone(ask)))

    def timeout_later(self, battle_id: str, seat: str, expected_seq: int) -> Future[Submitted]:
        """Record that `seat`'s time ran out (RuleViolation if it has not, StaleState if the
        battle has moved past `expected_seq`): the server's own batch, decided now."""
        ask = ClockAsk(parse_battle_id(battle_id), expected_seq, seat=seat)
        return self.committer.submit(Job(plan=lambda heads, keys: self.writer.plan_clock(ask, heads),
                                         alone=lambda: self.writer.clock_alone(ask)))

    def credit_later(self, battle_id: str, since_ms: int, reason: str, expected_seq: int) -> Future[Submitted]:
        """Credit every running clock of the battle with the outage from `since_ms` until now."""
        ask = ClockAsk(parse_battle_id(battle_id), expected_seq, since_ms=since_ms, reason=reason)
        return self.committer.submit(Job(plan=lambda heads, keys: self.writer.plan_clock(ask, heads),
                                         alone=lambda: self.writer.clock_alone(ask)))

    # -- reading ---------------------------------------------------------------------------
    def latest_later(self, battle_id: str) -> Future[BattleState | None]:
        """The battle's latest state as of a sync with the log that starts after this call,
        without reading its tail: from the cache, so None when it is not cached (`load` it)."""
        key = str(parse_battle_id(battle_id))
        return self.committer.submit(Read(lambda: self.cache.get(key)))

    def view(self, battle_id: str, viewer: Viewer, at: int | None = None) -> dict[str, Any]:
        """The view now or at seq `at`, as `viewer` may see it (held back for spectators)."""
        return self.reading.sight(battle_id, viewer).view(at)

    def events(self, battle_id: str, viewer: Viewer, from_seq: int = 1) -> list[dict[str, Any]]:
        """The log from `from_seq` as `viewer` may see it (redacted; held back for spectators)."""
        return self.reading.sight(battle_id, viewer).events(from_seq)

    def legal(self, battle_id: str, seat: str, state: BattleState | None = None) -> list[dict[str, object]]:
        """The seat's legal commands as wire JSON (in `state` when the caller has just loaded it)."""
        state = state or self.load(battle_id)
        if state.outcome is not None:
            return []
        ruleset = self.ruleset_of(state)
        return [ruleset.codec.wire(c) for c in ruleset.legal_commands(state.game, seat)]

    def seat_for_token(self, battle_id: str, token: str, state: BattleState | None = None) -> str | None:
        """The seat a token belongs to (in `state` when the caller has it); None if it matches none."""
        return seat_of_token(state.created if state is not None else self.loader.created(battle_id), token)
