"""Competitive sets: N battles (or best of N) between the same players, one deck each.

A set is an aggregate of its own beside its battles, hash-chained like them, so its head
hash identifies the whole set. It is generic: a ruleset that carries state from battle to
battle (ring's LP and EXS) exposes `set_rules` with two pure functions,
`apply_carry(setup, carry) -> setup` and `next_carry(carry, setup, game, winner) -> carry`;
without it every battle of the set starts from the same setup.

Each battle's creation is saved in one transaction with the set's `SetBattleStarted` (just
before the battle's `BattleCreated`) and a membership record, so a battle always knows its
set. When a battle ends, the commit listener records the result and starts the next battle
or ends the set: the set moves on by itself whichever process ran the last command.
"""
from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
from eventsourcing.persistence import IntegrityError

from domain.battles import Battles, token_hash, utc_now
from domain.engine.battle import (BattleState, battle_options, check_inputs, open_battle, record, seal_setup,
                                  seat_table)
from domain.engine.chain import GENESIS
from domain.engine.errors import RingsideError, SetupError
from domain.engine.events import Event, Recorded, server_only
from domain.engine.ruleset import Ruleset, get_ruleset
from domain.store import SET_MEMBERSHIP_TOPIC, StoredBlob, StoredRecord

MODES = ("best_of", "all")
MEMBERSHIP_NS = uuid.UUID("0d3f6a52-7f3e-4d7c-8f7e-5f2b9c1e4a20")


class UnknownSet(RingsideError):
    code = "not_found"


class SetCreated(Event, frozen=True, kw_only=True):
    TOPIC = "sets.SetCreated"
    set_id: str
    ruleset: str
    ruleset_version: str
    content_hash: str
    players: dict[str, str | dict[str, str]]
    games: int
    mode: str
    public_setup: dict[str, Any]
    setup: Annotated[dict[str, Any] | None, server_only()]     # sealed parts included
    seat_token_hashes: Annotated[dict[str, str] | None, server_only()] = None
    created_at: str
    private: bool = False


class SetBattleStarted(Event, frozen=True, kw_only=True):
    TOPIC = "sets.SetBattleStarted"
    set_id: str
    index: int
    battle_id: str
    carry: dict[str, Any] | None


class SetBattleFinished(Event, frozen=True, kw_only=True):
    TOPIC = "sets.SetBattleFinished"
    set_id: str
    index: int
    battle_id: str
    winner: str | None
    head: str                                   # the battle's last chain hash
    carry: dict[str, Any] | None                # what the next battle starts from


class SetEnded(Event, frozen=True, kw_only=True):
    TOPIC = "sets.SetEnded"
    set_id: str
    ruleset: str
    players: dict[str, str | dict[str, str]]
    winner: str | None
    score: dict[str, int]


class SetBattle(msgspec.Struct, frozen=True, kw_only=True):
    index: int
    battle_id: str
    carry: dict[str, Any] | None
    winner: str | None = None
    head: str | None = None

    @property
    def finished(self) -> bool:
        return self.head is not None


class SetState(msgspec.Struct, frozen=True, kw_only=True):
    set_id: str
    seq: int
    chain: str
    created: SetCreated
    battles: tuple[SetBattle, ...] = ()
    carry: dict[str, Any] | None = None
    ended: SetEnded | None = None

    def score(self) -> dict[str, int]:
        wins = {seat: 0 for seat in self.created.players}
        for battle in self.battles:
            if battle.winner is not None:
                wins[battle.winner] += 1
        return wins


def evolve_set(state: SetState | None, rec: Recorded) -> SetState:
    event = rec.event
    if state is None:
        assert isinstance(event, SetCreated), event.TOPIC
        return SetState(set_id=event.set_id, seq=rec.seq, chain=rec.chain, created=event)
    state = msgspec.structs.replace(state, seq=rec.seq, chain=rec.chain)
    if isinstance(event, SetBattleStarted):
        started = SetBattle(index=event.index, battle_id=event.battle_id, carry=event.carry)
        return msgspec.structs.replace(state, battles=state.battles + (started,))
    if isinstance(event, SetBattleFinished):
        done = msgspec.structs.replace(state.battles[event.index], winner=event.winner, head=event.head)
        battles = state.battles[:event.index] + (done,) + state.battles[event.index + 1:]
        return msgspec.structs.replace(state, battles=battles, carry=event.carry)
    if isinstance(event, SetEnded):
        return msgspec.structs.replace(state, ended=event)
    raise TypeError(f"not a set event: {event.TOPIC}")


def set_over(state: SetState) -> bool:
    """`all`: every game is played. `best_of`: a seat has won more than half, or all are played."""
    played = sum(1 for b in state.battles if b.finished)
    if played >= state.created.games:
        return True
    return state.created.mode == "best_of" and max(state.score().values()) > state.created.games // 2


def set_winner(score: Mapping[str, int]) -> str | None:
    best = max(score.values())
    leaders = [seat for seat, wins in score.items() if wins == best]
    return leaders[0] if len(leaders) == 1 else None


def battle_setup(ruleset: Ruleset[Any], base: Mapping[str, Any], carry: dict[str, Any] | None) -> dict[str, Any]:
    rules = ruleset.set_rules
    return dict(rules.apply_carry(dict(base), carry)) if rules is not None else dict(base)


def carry_after(ruleset: Ruleset[Any], carry: dict[str, Any] | None, setup: Mapping[str, Any],
                battle: BattleState) -> dict[str, Any] | None:
    rules = ruleset.set_rules
    if rules is None:
        return None
    winner = battle.outcome.winner if battle.outcome else None
    return rules.next_carry(carry, dict(setup), battle.game, winner)


@dataclass(frozen=True)
class CreatedSet:
    set_id: str
    seat_tokens: dict[str, str]
    battle_id: str
    seed_commitment: str


class Sets:
    """Create sets, read them, and move them on as their battles end."""

    def __init__(self, battles: Battles, retries: int = 8):
        self.battles = battles
        self.retries = retries
        battles.committed.append(self._on_commit)

    # -- writing ---------------------------------------------------------------------------
    def create(self, ruleset_id: str, players: Mapping[str, str], setup: Mapping[str, Any] | None = None, *,
               games: int = 3, mode: str = "best_of", seed_nonces: Mapping[str, str] | None = None,
               private: bool = False, set_id: str | None = None) -> CreatedSet:
        ruleset = get_ruleset(ruleset_id)
        created = self._created(ruleset, players, setup, games, mode, private, set_id, seed_nonces)
        tokens = {seat: secrets.token_urlsafe(32) for seat in created.players}
        created = msgspec.structs.replace(created, seat_token_hashes={s: token_hash(t) for s, t in tokens.items()})
        first = record(GENESIS, 1, created)
        state = evolve_set(None, first)
        battle = self._start_battle(ruleset, state, [first], nonces=seed_nonces)
        return CreatedSet(created.set_id, tokens, battle.battle_id, battle.created.seed_commitment)

    def _created(self, ruleset: Ruleset[Any], players: Mapping[str, Any], setup: Mapping[str, Any] | None,
                 games: int, mode: str, private: bool, set_id: str | None,
                 nonces: Mapping[str, str] | None = None) -> SetCreated:
        if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= 99:
            raise SetupError("games", "a set has 1 to 99 games")
        if mode not in MODES:
            raise SetupError("mode", f"mode must be one of {', '.join(MODES)}")
        base = dict(ruleset.fresh_setup() if setup is None else setup)
        _, players = check_inputs(ruleset, players, battle_setup(ruleset, base, None), nonces)
        options, game = battle_options(base)
        public = {**seal_setup(ruleset, game)[0], **options}
        return SetCreated(set_id=str(uuid.UUID(set_id) if set_id else uuid.uuid4()), ruleset=ruleset.id,
                          ruleset_version=ruleset.version, content_hash=ruleset.content_hash,
                          players=dict(players), games=games, mode=mode, public_setup=public, setup=base,
                          created_at=utc_now(), private=private)

    def _start_battle(self, ruleset: Ruleset[Any], state: SetState, pending: list[Recorded], *,
                      nonces: Mapping[str, str] | None = None) -> BattleState:
        """Open the next battle of the set and save it with the set's pending records."""
        index = len(state.battles)
        bid = uuid.uuid4()
        started = record(state.chain, state.seq + 1, SetBattleStarted(
            set_id=state.set_id, index=index, battle_id=str(bid), carry=state.carry))
        created = state.created
        battle, records = open_battle(
            ruleset, battle_id=str(bid), setup=battle_setup(ruleset, created.setup or {}, state.carry),
            players=created.players, revealed=secrets.token_bytes(32), nonces=nonces,
            token_hashes=created.seat_token_hashes, created_at=utc_now(), private=created.private)
        sid = uuid.UUID(state.set_id)
        self.battles.append_batch(bid, records, battle, previous_seq=0,
                                  before=[StoredRecord(sid, r) for r in (*pending, started)],
                                  extra=[self._membership(str(bid), state.set_id, index)])
        return battle

    @staticmethod
    def _membership(battle_id: str, set_id: str, index: int) -> StoredBlob:
        return StoredBlob(uuid.uuid5(MEMBERSHIP_NS, battle_id), 1, SET_MEMBERSHIP_TOPIC,
                          {"set_id": set_id, "index": index})

    def _on_commit(self, battle_id: str, records: list[Recorded], state: BattleState) -> None:
        if state.outcome is None or records[-1].seq != state.seq:
            return
        set_id = self.set_of(battle_id)
        if set_id is not None:
            self.advance(set_id)

    def advance(self, set_id: str) -> SetState:
        """Record the current battle's result if it has ended; start the next or end the set."""
        for attempt in range(self.retries + 1):
            state = self.load(set_id)
            if state.ended is not None or not state.battles or state.battles[-1].finished:
                return state
            current = state.battles[-1]
            battle = self.battles.load(current.battle_id)
            if battle.outcome is None:
                return state
            try:
                self._finish_battle(state, current, battle)
            except IntegrityError:
                if attempt == self.retries:
                    raise
                continue
            return self.load(set_id)
        raise AssertionError("unreachable")

    def _finish_battle(self, state: SetState, current: SetBattle, battle: BattleState) -> None:
        ruleset = get_ruleset(state.created.ruleset)
        setup = battle_setup(ruleset, state.created.setup or {}, current.carry)
        finished = record(state.chain, state.seq + 1, SetBattleFinished(
            set_id=state.set_id, index=current.index, battle_id=current.battle_id,
            winner=battle.outcome.winner if battle.outcome else None, head=battle.chain,
            carry=carry_after(ruleset, current.carry, setup, battle)))
        after = evolve_set(state, finished)
        if not set_over(after):
            self._start_battle(ruleset, after, [finished])
            return
        score = after.score()
        ended = record(after.chain, after.seq + 1, SetEnded(
            set_id=state.set_id, ruleset=state.created.ruleset, players=state.created.players,
            winner=set_winner(score), score=score))
        self.battles.store.save(*(StoredRecord(uuid.UUID(state.set_id), r) for r in (finished, ended)))

    def record_simulated(self, ruleset: Ruleset[Any], created: SetCreated,
                         played: Sequence[tuple[Sequence[Recorded], BattleState]]) -> SetState:
        """Store a set whose battles were played in memory: each battle in one transaction with
        its `SetBattleStarted` before it and its result (and the set's end) after it."""
        first = record(GENESIS, 1, created)
        state, pending = evolve_set(None, first), [first]
        sid = uuid.UUID(created.set_id)
        for records, battle in played:
            started = record(state.chain, state.seq + 1, SetBattleStarted(
                set_id=state.set_id, index=len(state.battles), battle_id=battle.battle_id, carry=state.carry))
            state = evolve_set(state, started)
            current = state.battles[-1]
            setup = battle_setup(ruleset, created.setup or {}, current.carry)
            after = [record(state.chain, state.seq + 1, SetBattleFinished(
                set_id=state.set_id, index=current.index, battle_id=battle.battle_id,
                winner=battle.outcome.winner if battle.outcome else None, head=battle.chain,
                carry=carry_after(ruleset, current.carry, setup, battle)))]
            state = evolve_set(state, after[0])
            if set_over(state):
                score = state.score()
                after.append(record(state.chain, state.seq + 1, SetEnded(
                    set_id=state.set_id, ruleset=ruleset.id, players=created.players,
                    winner=set_winner(score), score=score)))
                state = evolve_set(state, after[-1])
            self.battles.append_batch(
                uuid.UUID(battle.battle_id), list(records), battle, previous_seq=0,
                before=[StoredRecord(sid, r) for r in (*pending, started)],
                extra=[*(StoredRecord(sid, r) for r in after),
                       self._membership(battle.battle_id, state.set_id, current.index)])
            pending = []
        return state

    def simulate(self, ruleset_id: str, bots: Mapping[str, Any], *, games: int, mode: str, seed: str,
                 setup: Mapping[str, Any] | None = None, players: Mapping[str, str] | None = None,
                 number: int = 0) -> SetState:
        """Play a whole set bot against bot in memory, carrying over between battles; store it."""
        from domain.ai.match import play, seeded_bytes

        ruleset = get_ruleset(ruleset_id)
        players = players or {s: f"bot-{s}" for s in seat_table(ruleset, setup or ruleset.default_setup).seats}
        created = self._created(ruleset, players, setup, games, mode, False, None)
        probe = evolve_set(None, record(GENESIS, 1, created))
        played: list[tuple[list[Recorded], BattleState]] = []
        carry = None
        while not set_over(probe):
            i = len(played)
            battle_setup_i = battle_setup(ruleset, created.setup or {}, carry)
            match = play(ruleset, bots, battle_id=str(uuid.uuid4()), revealed=seeded_bytes(seed, "set", number, i),
                         bot_seed=seeded_bytes(seed, "set-bots", number, i), setup=battle_setup_i, players=players,
                         created_at=utc_now())
            played.append((match.records, match.state))
            probe = evolve_set(probe, Recorded(probe.seq + 1, SetBattleStarted(
                set_id=created.set_id, index=i, battle_id=match.state.battle_id, carry=carry), ""))
            carry = carry_after(ruleset, carry, battle_setup_i, match.state)
            probe = evolve_set(probe, Recorded(probe.seq + 1, SetBattleFinished(
                set_id=created.set_id, index=i, battle_id=match.state.battle_id,
                winner=match.state.outcome.winner if match.state.outcome else None, head=match.state.chain,
                carry=carry), ""))
        return self.record_simulated(ruleset, created, played)

    # -- reading ---------------------------------------------------------------------------
    def load(self, set_id: str) -> SetState:
        try:
            sid = uuid.UUID(str(set_id))
        except ValueError:
            raise UnknownSet(f"no set {set_id!r}", set_id=str(set_id)) from None
        state = None
        for rec in self.battles.store.events.get(sid):
            state = evolve_set(state, rec)
        if state is None:
            raise UnknownSet(f"no set {set_id!r}", set_id=str(set_id))
        return state

    def records(self, set_id: str) -> list[Recorded]:
        self.load(set_id)
        return list(self.battles.store.events.get(uuid.UUID(str(set_id))))

    def set_of(self, battle_id: str) -> str | None:
        try:
            key = uuid.uuid5(MEMBERSHIP_NS, str(uuid.UUID(str(battle_id))))
        except ValueError:
            return None
        found = list(self.battles.store.events.get(key, limit=1))
        return found[0].body["set_id"] if found else None

    @staticmethod
    def shown_setup(state: SetState) -> dict[str, Any] | None:
        """The set's public setup, without what its rules withhold (a scripted deck order)
        until every battle of it is public."""
        created = state.created
        if state.ended is not None and not created.private:
            return created.public_setup
        withheld = get_ruleset(created.ruleset).withhold_setup(created.public_setup)
        return created.public_setup if withheld is None else withheld

    def get(self, set_id: str) -> dict[str, Any]:
        """The set as JSON: its battles, score and result, and its head hash."""
        state = self.load(set_id)
        created = state.created
        current = next((b.battle_id for b in state.battles if not b.finished), None)
        return {"set_id": state.set_id, "ruleset": created.ruleset, "players": created.players,
                "games": created.games, "mode": created.mode, "setup": self.shown_setup(state),
                "battles": [msgspec.to_builtins(b) for b in state.battles], "score": state.score(),
                "winner": state.ended.winner if state.ended else None, "finished": state.ended is not None,
                "current_battle": current, "head": state.chain, "seq": state.seq, "created_at": created.created_at}
