"""The `Sets` service: create sets, read them, and move them on as their battles end.

A set is an aggregate of its own beside its battles, hash-chained like them, so its head
hash identifies the whole set. Each battle's creation is saved in one transaction with the
set's `SetBattleStarted` (just before the battle's `BattleCreated`) and a membership record,
so a battle always knows its set.

When a battle ends, the set records what `decide_battle_end` says. The battles' commit
listener does it at once, in whichever process ran the last command. That listener's
failure is logged and the battle stays committed, so a set can be left behind its battle:
every read of the set (`load`, `get`, the audit) and the periodic `SetSweep` move it on.
Two advancers racing append at the same set version; the store refuses the second, which
reloads and finds the work done.
"""
from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from eventsourcing.persistence import IntegrityError

from domain.ai import check_house_players
from domain.ai.match import DEFAULT_THINK_MS, house_players, play, seeded_bytes
from domain.battles import Battles, token_hash, utc_now
from domain.engine.battle import BattleState, battle_options, check_inputs, open_battle, seal_setup
from domain.engine.clock import ClockSpec, parse_clock
from domain.engine.errors import RingsideError, SetupError
from domain.engine.events import Recorded
from domain.engine.ruleset import Ruleset, get_ruleset, ruleset_of
from domain.engine.table import human_seats
from domain.store import SET_MEMBERSHIP_TOPIC, StoredBlob, StoredRecord

from .decide import BattleResult, SetDecision, battle_setup, decide_battle_end, start_battle
from .events import MODES, SetBattleFinished, SetCreated, SetEnded
from .state import SET_CLOCK, SetState, chain_events, evolve_set, score, set_clock

MEMBERSHIP_NS = uuid.UUID("0d3f6a52-7f3e-4d7c-8f7e-5f2b9c1e4a20")


class UnknownSet(RingsideError):
    code = "not_found"


@dataclass(frozen=True)
class CreatedSet:
    set_id: str
    seat_tokens: dict[str, str]
    battle_id: str
    seed_commitment: str


def new_battle_id() -> str:
    return str(uuid.uuid4())


def membership(battle_id: str, set_id: str, index: int) -> StoredBlob:
    """The record that tells a battle its set, keyed by the battle id."""
    return StoredBlob(uuid.uuid5(MEMBERSHIP_NS, battle_id), 1, SET_MEMBERSHIP_TOPIC,
                      {"set_id": set_id, "index": index})


def per_battle(set_records: Sequence[Recorded]) -> list[tuple[list[Recorded], list[Recorded]]]:
    """A set's log cut at its battles: for each, the records saved before it (up to its
    `SetBattleStarted`) and after it (its `SetBattleFinished`, and the last one's `SetEnded`)."""
    cuts: list[tuple[list[Recorded], list[Recorded]]] = []
    before: list[Recorded] = []
    for rec in set_records:
        if isinstance(rec.event, SetBattleFinished):
            cuts.append((before, [rec]))
            before = []
        elif isinstance(rec.event, SetEnded):
            cuts[-1][1].append(rec)
        else:
            before.append(rec)
    return cuts


class Sets:
    """Create sets, read them, and move them on as their battles end."""

    def __init__(self, battles: Battles, retries: int = 8):
        self.battles = battles
        self.retries = retries
        battles.committed.append(self._on_commit)

    # -- writing ---------------------------------------------------------------------------
    def create(self, ruleset_id: str, players: Mapping[str, Any], setup: Mapping[str, Any] | None = None, *,
               games: int = 3, mode: str = "best_of", seed_nonces: Mapping[str, str] | None = None,
               private: bool = False, set_id: str | None = None,
               clock: ClockSpec | Mapping[str, Any] | str | None = None,
               token_hashes: Mapping[str, str] | None = None) -> CreatedSet:
        """A set and its first battle. A token per seat a person plays acts in every battle; a
        house seat gets none. With a `clock` (a preset's name or its fields) every battle runs
        it, and a seat that never makes its first move loses that battle. `token_hashes` gives
        a seat's token by its hash instead (a tournament's entrant token): none is made for it."""
        ruleset = get_ruleset(ruleset_id)
        created = self._created(ruleset, players, setup, games, mode, private, set_id, seed_nonces, clock)
        human = human_seats(created.players)
        given = {seat: hashed for seat, hashed in (token_hashes or {}).items() if seat in human}
        tokens = {seat: secrets.token_urlsafe(32) for seat in human if seat not in given}
        hashes = {**{s: token_hash(t) for s, t in tokens.items()}, **given}
        created = msgspec.structs.replace(created, seat_token_hashes=hashes or None)
        state, opening = chain_events(None, [created])
        first = start_battle(state, ruleset, new_battle_id())
        state, started = chain_events(state, first.events)
        battle = self._open(ruleset, state, opening + started, first, nonces=seed_nonces)
        return CreatedSet(created.set_id, tokens, battle.battle_id, battle.created.seed_commitment)

    def _created(self, ruleset: Ruleset[Any], players: Mapping[str, Any], setup: Mapping[str, Any] | None,
                 games: int, mode: str, private: bool, set_id: str | None,
                 nonces: Mapping[str, str] | None = None,
                 clock: ClockSpec | Mapping[str, Any] | str | None = None) -> SetCreated:
        if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= 99:
            raise SetupError("games", "a set has 1 to 99 games")
        if mode not in MODES:
            raise SetupError("mode", f"mode must be one of {', '.join(MODES)}")
        spec = clock if isinstance(clock, ClockSpec) else parse_clock(clock)
        base = dict(ruleset.fresh_setup() if setup is None else setup)
        options, game = battle_options(base)
        if SET_CLOCK in game:
            raise SetupError(SET_CLOCK, "a set's clock is its own field (clock), not part of the setup")
        players = check_inputs(ruleset, players, battle_setup(ruleset, base, None), nonces).players
        check_house_players(ruleset.id, players)
        public = {**seal_setup(ruleset, game)[0], **options}
        if spec is not None:
            public[SET_CLOCK] = msgspec.to_builtins(spec)
        return SetCreated(set_id=str(uuid.UUID(set_id) if set_id else uuid.uuid4()), ruleset=ruleset.id,
                          ruleset_version=ruleset.version, content_hash=ruleset.content_hash,
                          players=dict(players), games=games, mode=mode, public_setup=public, setup=base,
                          created_at=utc_now(), private=private)

    def _open(self, ruleset: Ruleset[Any], state: SetState, set_records: list[Recorded], decision: SetDecision,
              *, nonces: Mapping[str, str] | None = None) -> BattleState:
        """Open the battle `state` has just started, from the decided setup, and save it in one
        transaction after the set's `set_records` (ending in its `SetBattleStarted`)."""
        current, created = state.battles[-1], state.created
        assert decision.next_setup is not None
        clock = set_clock(created)
        battle, records = open_battle(
            ruleset, battle_id=current.battle_id, setup=decision.next_setup, players=created.players,
            revealed=secrets.token_bytes(32), nonces=nonces, token_hashes=created.seat_token_hashes,
            created_at=utc_now(), private=created.private, clock=clock,
            clock_at_ms=self.battles.now_ms() if clock is not None else None, first_move_loses=True)
        self.battles.append_batch(uuid.UUID(current.battle_id), records, battle, previous_seq=0,
                                  before=[StoredRecord(uuid.UUID(state.set_id), r) for r in set_records],
                                  extra=[membership(current.battle_id, state.set_id, current.index)])
        return battle

    def _on_commit(self, battle_id: str, records: list[Recorded], state: BattleState) -> None:
        if state.outcome is None or records[-1].seq != state.seq:
            return
        set_id = self.set_of(battle_id)
        if set_id is not None:
            self.advance(set_id)

    def advance(self, set_id: str) -> SetState:
        """Record the result of the set's battle in progress if it has ended, starting the next
        battle or ending the set. Idempotent; a concurrent advancer's win is reloaded, not redone."""
        for attempt in range(self.retries + 1):
            state = self._fold(set_id)
            current = state.in_progress
            if current is None:
                return state
            battle = self.battles.load(current.battle_id)
            if battle.outcome is None:
                return state
            try:
                return self._finish(state, battle)
            except IntegrityError:
                if attempt == self.retries:
                    raise
        raise AssertionError("unreachable")

    def _finish(self, state: SetState, battle: BattleState) -> SetState:
        ruleset = ruleset_of(state.created)
        decision = decide_battle_end(state, BattleResult.of(battle), ruleset, new_battle_id())
        after, records = chain_events(state, decision.events)
        if decision.next_setup is None:
            self.battles.store.save(*(StoredRecord(uuid.UUID(state.set_id), r) for r in records))
        else:
            self._open(ruleset, after, records, decision)
        return after

    def simulate(self, ruleset_id: str, bots: Mapping[str, Any], *, games: int, mode: str, seed: str,
                 setup: Mapping[str, Any] | None = None, players: Mapping[str, Any] | None = None,
                 number: int = 0, clock: ClockSpec | Mapping[str, Any] | str | None = None,
                 think_ms: int | Mapping[str, int] = DEFAULT_THINK_MS) -> SetState:
        """Play a whole set bot against bot in memory, decided as a live set is; store it. With
        a `clock`, each battle runs it in virtual time (`domain.ai.match.play`)."""
        ruleset = get_ruleset(ruleset_id)
        players = players or house_players(bots)
        created = self._created(ruleset, players, setup, games, mode, False, None, clock=clock)
        state, set_records = chain_events(None, [created])
        decision = start_battle(state, ruleset, new_battle_id())
        played: list[tuple[list[Recorded], BattleState]] = []
        while True:
            state, decided = chain_events(state, decision.events)
            set_records += decided
            if decision.next_setup is None:
                break
            i = len(played)
            match = play(ruleset, bots, battle_id=state.battles[-1].battle_id, setup=decision.next_setup,
                         revealed=seeded_bytes(seed, "set", number, i),
                         bot_seed=seeded_bytes(seed, "set-bots", number, i), players=players, created_at=utc_now(),
                         clock=set_clock(created), think_ms=think_ms, first_move_loses=True)
            played.append((match.records, match.state))
            decision = decide_battle_end(state, BattleResult.of(match.state), ruleset, new_battle_id())
        self.record_simulated(state.set_id, set_records, played)
        return state

    def record_simulated(self, set_id: str, set_records: Sequence[Recorded],
                         played: Sequence[tuple[Sequence[Recorded], BattleState]]) -> None:
        """Store a set played in memory: each battle in one transaction, with the set's records up
        to its `SetBattleStarted` before it and its result (and the set's end) after it."""
        sid = uuid.UUID(set_id)
        for index, ((before, after), (records, battle)) in enumerate(zip(per_battle(set_records), played,
                                                                          strict=True)):
            self.battles.append_batch(uuid.UUID(battle.battle_id), list(records), battle, previous_seq=0,
                                      before=[StoredRecord(sid, r) for r in before],
                                      extra=[*(StoredRecord(sid, r) for r in after),
                                             membership(battle.battle_id, set_id, index)])

    # -- reading ---------------------------------------------------------------------------
    def load(self, set_id: str) -> SetState:
        """The set, first moved on if its battle in progress has ended unrecorded."""
        return self.advance(set_id)

    def _fold(self, set_id: str) -> SetState:
        state = None
        for rec in self.records(set_id):
            state = evolve_set(state, rec)
        assert state is not None
        return state

    def records(self, set_id: str) -> list[Recorded]:
        """The set's log as stored."""
        try:
            sid = uuid.UUID(str(set_id))
        except ValueError:
            raise UnknownSet(f"no set {set_id!r}", set_id=str(set_id)) from None
        found = self.battles.store.stored_records(sid)
        if not found:
            raise UnknownSet(f"no set {set_id!r}", set_id=str(set_id))
        return found

    def set_of(self, battle_id: str) -> str | None:
        try:
            key = uuid.uuid5(MEMBERSHIP_NS, str(uuid.UUID(str(battle_id))))
        except ValueError:
            return None
        found = self.battles.store.stored_blob(key)
        return found.body["set_id"] if found is not None else None

    @staticmethod
    def shown_setup(state: SetState) -> dict[str, Any] | None:
        """The set's public setup, without what its rules withhold (a scripted deck order)
        until every battle of it is public."""
        created = state.created
        if state.public:
            return created.public_setup
        withheld = ruleset_of(created).withhold_setup(created.public_setup)
        return created.public_setup if withheld is None else withheld

    def get(self, set_id: str) -> dict[str, Any]:
        """The set as anyone may see it: its battles, score and result; the head hash of each
        battle once it is public, and the set's own once the set is."""
        state = self.load(set_id)
        created = state.created
        current = state.in_progress
        # A battle's head is recorded once it has ended: public then, unless the set is private.
        battles = [{**msgspec.to_builtins(b), "head": None if created.private else b.head} for b in state.battles]
        return {"set_id": state.set_id, "ruleset": created.ruleset, "players": created.players,
                "games": created.games, "mode": created.mode, "setup": self.shown_setup(state),
                "clock": msgspec.to_builtins(set_clock(created)),
                "battles": battles, "score": score(state),
                "winner": state.ended.winner if state.ended else None, "finished": state.ended is not None,
                "current_battle": current.battle_id if current else None,
                "head": state.chain if state.public else None, "seq": state.seq, "created_at": created.created_at}
