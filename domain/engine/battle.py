"""The pure battle runner: the create batch, command batches, folding and seed commitment.

Live battles, in-memory simulation and replay verification all run through these
functions, so a re-simulation is the very code path that produced the log.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from hashlib import blake2b
from typing import Annotated, Any, NamedTuple

import msgspec
import orjson

from .chain import GENESIS, canonical_event, chain_events, link
from .clock import ClockSpec, advance, expiry, starting_seats
from .errors import BattleOver, InvalidInput, NotYourTurn, RuleViolation, SetupError, TimeOut, UnknownRuleset, quote
from .events import Command, Event, Recorded, secret, server_only
from .rng import Rng, batch_cursor
from .ruleset import Decision, Outcome, Ruleset, get_ruleset
from .table import PlayerEntry, Table, parse_player
from .timing import CLOCK_EVENTS, ClockStarted, Clocked, ClockState, fold_clock
from .wire import check_wire, check_wire_again


class BattleCreated(Event, frozen=True, kw_only=True):
    """The first event of every battle: pins the ruleset, setup, players and seed commitment."""
    TOPIC = "engine.BattleCreated"
    battle_id: str
    ruleset: str
    ruleset_version: str
    content_hash: str
    setup: dict[str, Any]
    players: dict[str, str | dict[str, str | int]]      # a player id, or {"bot": policy} for a house seat
    seed_commitment: str
    seed_nonces: dict[str, str] = {}
    seed: Annotated[str | None, server_only()]
    seat_token_hashes: Annotated[dict[str, str] | None, server_only()] = None
    created_at: str
    private: bool = False

    def withheld(self) -> dict[str, Any]:
        try:
            shown = get_ruleset(self.ruleset).withhold_setup(self.setup)
        except UnknownRuleset:      # rules not installed here cannot say what is public
            return {"setup": None}
        return {} if shown is None else {"setup": shown}


class SetupSealed(Event, frozen=True, kw_only=True):
    """The part of a seat's setup only that seat may see (a hidden inventory, say).

    `BattleCreated.setup` holds the public rest. A ruleset opts in by declaring its `sealing`.
    """
    TOPIC = "engine.SetupSealed"
    seat: str
    sealed: Annotated[dict[str, Any] | None, secret(owner="seat")]


class BattleEnded(Event, frozen=True, kw_only=True):
    """The last event: the outcome, and the seed revealed so anyone can audit the battle."""
    TOPIC = "engine.BattleEnded"
    winner: str | None
    reason: str
    seed: str


class BattleState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    battle_id: str
    seq: int
    chain: str
    created: BattleCreated
    seed: bytes
    table: Table
    game: Any
    outcome: Outcome | None = None
    clock: ClockState | None = None         # None: a battle with no clock

    @property
    def spectator_delay(self) -> int:
        """How many actions spectators are held behind, until the battle ends."""
        return int(self.created.setup.get("spectator_delay", 0))

    @property
    def public(self) -> bool:
        """Once a battle has ended its whole history is public, unless it was created private."""
        return self.outcome is not None and not self.created.private


def seed_commitment(revealed: bytes) -> str:
    return blake2b(revealed, digest_size=32).hexdigest()


def effective_seed(revealed: bytes, nonces: Mapping[str, str]) -> bytes:
    """blake2b(revealed || nonces), nonces as sorted-key JSON so every client computes the same."""
    return blake2b(revealed + orjson.dumps(dict(nonces), option=orjson.OPT_SORT_KEYS), digest_size=32).digest()


def open_battle(ruleset: Ruleset[Any], *, battle_id: str, setup: Mapping[str, Any],
                players: Mapping[str, object], revealed: bytes, nonces: Mapping[str, str] | None = None,
                token_hashes: Mapping[str, str] | Callable[[Table], Mapping[str, str]] | None = None,
                created_at: str, private: bool = False, clock: ClockSpec | None = None,
                clock_at_ms: int | None = None, first_move_loses: bool = False) -> tuple[BattleState, list[Recorded]]:
    """The create batch: BattleCreated, then whatever the ruleset's `start` deals and shuffles,
    then (with a `clock`) `ClockStarted` at `clock_at_ms`, the time the battle was created.

    `token_hashes` may be a function of the setup's table, called once the inputs are checked
    (the seats, and so the tokens to hand out, depend on the setup)."""
    checked = check_inputs(ruleset, players, setup, nonces)
    if callable(token_hashes):
        token_hashes = token_hashes(checked.table)
    nonces = {str(k): str(v) for k, v in (nonces or {}).items()}
    options, game_setup = battle_options(setup)
    public, sealed = seal_setup(ruleset, game_setup)
    public.update(options)
    created = BattleCreated(
        battle_id=battle_id, ruleset=ruleset.id, ruleset_version=ruleset.version,
        content_hash=ruleset.content_hash, setup=public, players=checked.players,
        seed_commitment=seed_commitment(revealed), seed_nonces=nonces, seed=revealed.hex(),
        seat_token_hashes=dict(token_hashes) if token_hashes else None,
        created_at=created_at, private=private)
    first = record(GENESIS, 1, created)
    state = fold(ruleset, None, first)
    out = [first]
    for seat, part in sealed.items():
        rec = record(state.chain, state.seq + 1, SetupSealed(seat=seat, sealed=part))
        state = fold(ruleset, state, rec)
        out.append(rec)
    starting = ruleset.start(checked.setup, Rng(state.seed, batch_cursor(state.seq + 1)))
    # A ruleset whose opening ran through a resolver hands back the state too, as `decide` does.
    opening = starting if isinstance(starting, Decision) else Decision(tuple(starting))
    if clock is None:
        return extend(ruleset, state, out, opening)
    at_ms = _given_time(clock_at_ms)

    def started(after: BattleState, ended: bool) -> Event:
        awaited = frozenset() if ended else ruleset.awaiting(after.game)
        return ClockStarted(spec=clock, first_move_loses=first_move_loses, at_ms=at_ms,
                            seats=starting_seats(clock, after.table.seats, awaited, at_ms))
    return extend(ruleset, state, out, opening, started)


def _given_time(at_ms: int | None) -> int:
    if at_ms is None:
        raise ValueError("a clocked battle needs the time (ms since the epoch) of each batch")
    return at_ms


# Setup keys every battle understands, whatever its ruleset; the ruleset never sees them.
MAX_SPECTATOR_DELAY = 1000


def battle_options(setup: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the engine's own options, the ruleset's setup). `spectator_delay`: spectators are held
    this many actions behind the live battle until it ends (0: live)."""
    if not isinstance(setup, Mapping):
        raise SetupError("setup", "the setup must be a JSON object")
    game = dict(setup)
    options: dict[str, Any] = {}
    if "spectator_delay" in game:
        delay = game.pop("spectator_delay")
        if not isinstance(delay, int) or isinstance(delay, bool) or not 0 <= delay <= MAX_SPECTATOR_DELAY:
            raise SetupError("spectator_delay", f"an integer number of actions, 0 to {MAX_SPECTATOR_DELAY}")
        if delay:
            options["spectator_delay"] = delay
    return options, game


def parse_battle_setup(ruleset: Ruleset[Any], setup: Mapping[str, Any]) -> Any:
    """Validate a whole setup (engine options and the ruleset's part); SetupError names the field."""
    return ruleset.parse_setup(battle_options(setup)[1])


def seal_setup(ruleset: Ruleset[Any], setup: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the public setup, each seat's sealed part); rulesets that hide nothing seal nothing."""
    if ruleset.sealing is None:
        return dict(setup), {}
    public, sealed = ruleset.sealing.seal(setup)
    return dict(public), {seat: dict(part) for seat, part in sealed.items()}


def unsealed_setup(ruleset: Ruleset[Any], records: Sequence[Recorded]) -> dict[str, Any]:
    """The whole setup a battle was created with, from BattleCreated and its SetupSealed events."""
    created: BattleCreated = records[0].event  # type: ignore[assignment]
    sealed = {}
    for rec in records[1:]:
        if not isinstance(rec.event, SetupSealed):
            break
        sealed[rec.event.seat] = rec.event.sealed or {}
    if not sealed or ruleset.sealing is None:
        return dict(created.setup)
    options, public = battle_options(created.setup)
    return {**ruleset.sealing.unseal(public, sealed), **options}


MAX_NONCE = 128


def seat_table(ruleset: Ruleset[Any], setup: Mapping[str, Any]) -> Table:
    """Who sits where in a battle of this (whole, valid) setup."""
    return ruleset.table(battle_options(setup)[1])


class Checked(NamedTuple):
    """A battle's inputs once checked: the parsed setup, its table, and one player per seat."""
    setup: Any
    table: Table
    players: dict[str, PlayerEntry]


def check_inputs(ruleset: Ruleset[Any], players: Mapping[str, Any], setup: Any,
                 nonces: Mapping[str, str] | None) -> Checked:
    """Everything a battle is created from is JSON the chain can hash (`check_wire`), within
    its limits; a SetupError or InvalidInput names the field."""
    check_wire(players, "players")
    check_wire_again(setup, "setup")        # battles are made from a few setups, again and again
    check_wire(nonces, "seed_nonces")
    parsed = parse_battle_setup(ruleset, setup)
    table = seat_table(ruleset, setup)
    entries = check_players(ruleset, table, players)
    if nonces is not None and (not isinstance(nonces, Mapping) or len(nonces) > len(table.seats)
                               or any(len(str(v)) > MAX_NONCE for v in nonces.values())):
        raise InvalidInput("seed_nonces", f"at most one nonce per seat, each at most {MAX_NONCE} characters")
    return Checked(parsed, table, entries)


def check_players(ruleset: Ruleset[Any], table: Table, players: Mapping[str, Any]) -> dict[str, PlayerEntry]:
    """One player (or house bot) per seat of the table. The players sit outside the setup, so
    their errors name `players`, not `setup.players`."""
    if not isinstance(players, Mapping) or set(players) != set(table.seats):
        raise InvalidInput("players", f"{ruleset.id} needs exactly the seats {', '.join(table.seats)}")
    return {seat: parse_player(seat, players[seat]) for seat in table.seats}


def decide_batch(ruleset: Ruleset[Any], state: BattleState, seat: str, command: Command | Mapping[str, Any], *,
                 wire_checked: bool = False, at_ms: int | None = None,
                 awaited: Collection[str] | None = None) -> tuple[BattleState, list[Recorded]]:
    """One command: check whose turn it is, run `decide`, chain the events, end if decided.
    A command given as JSON is checked to be storable (`check_wire`), unless the caller
    says it has checked it already (`wire_checked`). A clocked battle needs `at_ms`, the time
    the command was accepted: TimeOut if the seat's time had run out by then. `awaited`: the
    seats `ruleset.awaiting` gave for this state, where the caller has just asked."""
    if state.outcome is not None:
        raise BattleOver("the battle is over", seq=state.seq)
    if not state.table.has_seat(seat):
        raise RuleViolation(f"{quote(seat)} is not a seat of this battle")
    waiting = ruleset.awaiting(state.game) if awaited is None else awaited
    if seat not in waiting and _wire_type(command) not in ruleset.anytime:
        raise NotYourTurn(f"{seat} cannot act now; waiting for {', '.join(sorted(waiting)) or 'nobody'}",
                          awaiting=sorted(waiting))
    if state.clock is not None:
        check_time(state.clock, seat, _given_time(at_ms))
    if isinstance(command, Command):
        cmd = command
    else:
        if not wire_checked:
            check_wire(command, "command")
        cmd = ruleset.codec.parse(command)
    decision = ruleset.decide(state.game, seat, cmd, Rng(state.seed, batch_cursor(state.seq + 1)))
    events = decision.events
    if not events or not events[0].starts_batch() or events[0].acting_seat() != seat:
        raise RuntimeError(f"{ruleset.id}: a command batch must start with the acting seat's action event, "
                           f"got {[e.TOPIC for e in events[:1]]}")
    if state.clock is None:
        return extend(ruleset, state, [], decision)
    return extend(ruleset, state, [], decision, clocked(ruleset, state, seat, _given_time(at_ms)))


def check_time(clock: ClockState, seat: str, at_ms: int) -> None:
    """A command from `seat` accepted at `at_ms`: refused once its time (and grace) ran out,
    and while another seat's has: that seat's timeout comes first, so that no command can
    end or restart a clock that had already run out. Time never goes back within a battle."""
    if at_ms < clock.at_ms:
        raise RuleViolation(f"the time {at_ms} is before the battle's last recorded time {clock.at_ms}")
    spec = clock.spec
    late = {who: ends for who, sc in clock.seats.items() if (ends := expiry(spec, sc)) is not None and at_ms >= ends}
    if late:
        who = seat if seat in late else next(iter(late))        # the acting seat first
        deadline = late[who] - spec.grace_ms
        raise TimeOut(f"{who}'s time ran out at {deadline} (ms since the epoch, with {spec.grace_ms} ms of "
                      f"grace); the server records the timeout", seat=who, deadline_ms=deadline)


def clocked(ruleset: Ruleset[Any], before: BattleState, actor: str, at_ms: int, *,
            automatic: bool = False) -> Callable[[BattleState, bool], Event]:
    """The `Clocked` event that closes a batch `actor` started at `at_ms` in `before`."""
    assert before.clock is not None
    clock, turn = before.clock, ruleset.turn(before.game)

    def close(after: BattleState, ended: bool) -> Event:
        awaited = frozenset() if ended else ruleset.awaiting(after.game)
        seats = advance(clock.spec, clock.seats, at_ms, actor=actor, awaited=awaited,
                        new_turn=ruleset.turn(after.game) != turn, ended=ended, automatic=automatic)
        return Clocked(at_ms=at_ms, seats=seats)
    return close


def _wire_type(command: Command | Mapping[str, Any]) -> object:
    return command.wire_type() if isinstance(command, Command) else command.get("type")


def extend(ruleset: Ruleset[Any], state: BattleState, out: list[Recorded], decision: Decision[Any],
           clock: Callable[[BattleState, bool], Event] | None = None) -> tuple[BattleState, list[Recorded]]:
    """Chain `decision`'s events onto `state`, then close the batch (`close_batch`)."""
    return close_batch(ruleset, apply_decision(ruleset, state, out, decision), out, clock)


def apply_decision(ruleset: Ruleset[Any], state: BattleState, out: list[Recorded],
                   decision: Decision[Any]) -> BattleState:
    """Chain `decision`'s events onto `state` (appending them to `out`): the state after them."""
    events = decision.events
    if decision.state is not None:
        # The resolver already evolved these events: chain them, then take its state.
        seq, chain = chain_events(state.chain, state.seq, events, out)
        return msgspec.structs.replace(state, seq=seq, chain=chain, game=decision.state)
    for event in events:
        rec = record(state.chain, state.seq + 1, event)
        state = fold(ruleset, state, rec)
        out.append(rec)
    return state


def close_batch(ruleset: Ruleset[Any], state: BattleState, out: list[Recorded],
                clock: Callable[[BattleState, bool], Event] | None = None) -> tuple[BattleState, list[Recorded]]:
    """End a batch: the clock event `clock` makes of the state (and whether the game is
    decided), then `BattleEnded` if it is."""
    result = ruleset.outcome(state.game)
    if clock is not None:
        rec = record(state.chain, state.seq + 1, clock(state, result is not None))
        state = fold(ruleset, state, rec)
        out.append(rec)
    if result is not None:
        ended = BattleEnded(winner=result.winner, reason=result.reason, seed=state.created.seed or "")
        rec = record(state.chain, state.seq + 1, ended)
        state = fold(ruleset, state, rec)
        out.append(rec)
    return state, out


def record(previous: str, seq: int, event: Event) -> Recorded:
    return Recorded(seq, event, link(previous, canonical_event(seq, event)))


def fold(ruleset: Ruleset[Any], state: BattleState | None, rec: Recorded) -> BattleState:
    """The battle-level reducer: engine events here, everything else to the ruleset's evolve."""
    event = rec.event
    if state is None:
        if not isinstance(event, BattleCreated):
            raise RuleViolation(f"a battle starts with BattleCreated, not {event.TOPIC}")
        revealed = bytes.fromhex(event.seed or "")
        return BattleState(battle_id=event.battle_id, seq=rec.seq, chain=rec.chain, created=event,
                           seed=effective_seed(revealed, event.seed_nonces),
                           table=seat_table(ruleset, event.setup), game=None)
    if isinstance(event, SetupSealed):
        return msgspec.structs.replace(state, seq=rec.seq, chain=rec.chain)
    if isinstance(event, CLOCK_EVENTS):
        return msgspec.structs.replace(state, seq=rec.seq, chain=rec.chain, clock=fold_clock(state.clock, event))
    if isinstance(event, BattleEnded):
        return msgspec.structs.replace(state, seq=rec.seq, chain=rec.chain,
                                       outcome=Outcome(winner=event.winner, reason=event.reason))
    return msgspec.structs.replace(state, seq=rec.seq, chain=rec.chain,
                                   game=ruleset.evolve(state.game, event))
