"""Verify a replay: the hash chain, the seed commitment, and a full re-simulation.

The re-simulation feeds each batch's action event back through `decide` under the pinned
ruleset and requires every produced event to hash to the recorded chain: byte for byte.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from hashlib import blake2b
from typing import Any

from domain.engine.battle import BattleCreated, BattleEnded, BattleState, decide_batch, open_battle, unsealed_setup
from domain.engine.chain import GENESIS, chain_of
from domain.engine.content import recorded_inputs
from domain.engine.errors import RingsideError, TimeOut, UnknownRuleset
from domain.engine.events import Recorded, decode_record, event_data
from domain.engine.ruleset import Ruleset, get_ruleset, pinned_ruleset
from domain.engine.timeouts import credit_outage, decide_timeout, recorded_time, started_clock
from domain.engine.timing import ClockCredited, TimedOut

from .format import Replay


@dataclass(frozen=True)
class Report:
    status: str                     # "ok", "fail", or "unverifiable" (pinned ruleset not installed)
    events: int
    head: str | None = None
    seq: int | None = None          # the first bad event
    reason: str | None = None
    winner: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


class Bad(Exception):
    def __init__(self, seq: int | None, reason: str):
        super().__init__(reason)
        self.seq, self.reason = seq, reason


class Unverifiable(Exception):
    pass


def verify(replay: Replay) -> Report:
    events = replay.events
    try:
        head = check_chain(events)
        records = decode(events)
        check_seed(replay.header, records)
        winner = resimulate(replay.header, records)
    except Bad as bad:
        return Report("fail", len(events), seq=bad.seq, reason=bad.reason)
    except Unverifiable as why:
        return Report("unverifiable", len(events), reason=str(why))
    return Report("ok", len(events), head=head, winner=winner)


def check_chain(events: Sequence[Mapping[str, Any]]) -> str:
    chain = GENESIS
    for expected, line in enumerate(events, start=1):
        # Lines read from JSON are dicts: the exact type check spares the ABC check per line.
        if type(line) is not dict and not isinstance(line, Mapping):
            raise Bad(expected, "event line lacks seq, type, data or chain")
        try:
            seq, topic, data, recorded = line["seq"], line["type"], line["data"], line["chain"]
        except KeyError:
            raise Bad(expected, "event line lacks seq, type, data or chain") from None
        if seq != expected:
            raise Bad(expected, f"expected seq {expected}, found {seq!r} (missing, duplicated or reordered)")
        if recorded is None:
            raise Bad(expected, "event is redacted; only a full replay can be verified")
        if (type(data) is not dict and not isinstance(data, Mapping)) or not isinstance(topic, str):
            raise Bad(expected, "event type or data is malformed")
        try:
            chain = chain_of(chain, expected, topic, data)
        except TypeError as exc:            # orjson's: a lone surrogate, an int past 64 bits, a non-str key
            raise Bad(expected, f"event data is not storable JSON: {exc}") from None
        if chain != recorded:
            raise Bad(expected, "hash chain mismatch: the event or one before it was altered")
    if not events:
        raise Bad(1, "the replay has no events")
    return chain


def decode(events: Sequence[Mapping[str, Any]]) -> list[Recorded]:
    records = []
    for line in events:
        try:
            records.append(decode_record(line["seq"], line["type"], line["data"], line["chain"], _version(line)))
        except RingsideError as exc:
            raise Bad(line["seq"], exc.message) from None
    return records


def _version(line: Mapping[str, Any]) -> int:
    version = line.get("v", 1)
    if type(version) is not int or version < 1:         # a bool is no version, nor is 1.0
        raise Bad(line["seq"], f"bad class version {version!r}")
    return version


def check_seed(header: Mapping[str, Any], records: list[Recorded]) -> None:
    created = records[0].event
    if not isinstance(created, BattleCreated):
        raise Bad(1, "the first event is not BattleCreated")
    for rec in records[:-1]:
        if isinstance(rec.event, BattleEnded):
            raise Bad(rec.seq + 1, "an event follows BattleEnded")
    if not isinstance(records[-1].event, BattleEnded):
        raise Bad(records[-1].seq + 1, "the battle has not ended; its seed is not revealed yet")
    seed, pinned = header.get("seed"), header.get("ruleset")
    if not isinstance(seed, Mapping) or not isinstance(pinned, Mapping):
        raise Bad(1, "the header's seed and ruleset must be JSON objects")
    revealed = seed.get("revealed")
    try:
        revealed_bytes = bytes.fromhex(revealed or "")
    except ValueError:
        raise Bad(1, "the revealed seed is not hex") from None
    if blake2b(revealed_bytes, digest_size=32).hexdigest() != created.seed_commitment:
        raise Bad(1, "the revealed seed does not match the seed commitment")
    if seed.get("commitment") != created.seed_commitment or seed.get("nonces") != created.seed_nonces:
        raise Bad(1, "the header's seed commitment or nonces differ from BattleCreated")
    if created.seed != revealed or records[-1].event.seed != revealed:
        raise Bad(1 if created.seed != revealed else records[-1].seq, "the seed in the log differs from the revealed seed")
    if (pinned.get("id"), pinned.get("version"), pinned.get("content_hash")) != \
            (created.ruleset, created.ruleset_version, created.content_hash):
        raise Bad(1, "the header's ruleset differs from the one BattleCreated pins")
    for name in ("battle_id", "players", "setup", "created_at"):
        if header.get(name) != getattr(created, name):
            raise Bad(1, f"the header's {name} differs from BattleCreated")


def resimulate(header: Mapping[str, Any], records: list[Recorded]) -> str | None:
    created: BattleCreated = records[0].event  # type: ignore[assignment]
    try:
        ruleset = pinned_ruleset(created.ruleset, created.ruleset_version, created.content_hash)
    except UnknownRuleset:
        raise Unverifiable(f"ruleset {created.ruleset!r} is not installed") from None
    if ruleset is None:
        installed = get_ruleset(created.ruleset)
        raise Unverifiable(
            f"the replay pins {created.ruleset} {created.ruleset_version} (content {created.content_hash}); "
            f"installed is {installed.version} (content {installed.content_hash}), which keeps "
            f"{', '.join(installed.earlier_versions) or 'no earlier release'}; re-simulation needs the pinned one")
    clock = started_clock(records)
    try:
        with recorded_inputs():        # held to the limits of its day, not today's
            state, produced = open_battle(
                ruleset, battle_id=created.battle_id, setup=unsealed_setup(ruleset, records), players=created.players,
                revealed=bytes.fromhex(created.seed or ""), nonces=created.seed_nonces,
                token_hashes=created.seat_token_hashes, created_at=created.created_at, private=created.private,
                clock=clock.spec if clock else None, clock_at_ms=clock.at_ms if clock else None,
                first_move_loses=clock.first_move_loses if clock else False)
    except RingsideError as exc:
        raise Bad(1, f"the setup does not start a battle: {exc.message}") from None
    compare(produced, records, GENESIS)
    at = len(produced)
    while at < len(records):
        state, produced = rebatch(ruleset, state, records, at)
        compare(produced, records[at:], records[at - 1].chain)
        at += len(produced)
    if state.outcome is None:
        raise Bad(records[-1].seq, "re-simulation did not end the battle")
    return state.outcome.winner


def rebatch(ruleset: Ruleset[Any], state: BattleState, records: list[Recorded],
            at: int) -> tuple[BattleState, list[Recorded]]:
    """Re-simulate the batch that starts at `records[at]`: a command at its recorded accept
    time, a timeout, or an outage's credit."""
    opening, seq = records[at].event, records[at].seq
    try:
        if isinstance(opening, TimedOut):
            state, produced = decide_timeout(ruleset, state, opening.seat, opening.at_ms)
            if produced[0].event != opening:
                raise Bad(seq, f"the timeout's consequence is {opening.consequence}; "
                               f"the clock makes it {produced[0].event.consequence}")  # type: ignore[attr-defined]
            return state, produced
        if isinstance(opening, ClockCredited):
            return credit_outage(ruleset, state, opening.since_ms, opening.at_ms, opening.reason)
    except RingsideError as exc:
        raise Bad(seq, f"the {opening.TOPIC} is not due here: {exc.message}") from None
    seat = opening.acting_seat()
    if not opening.starts_batch() or seat is None:
        raise Bad(seq, f"{opening.TOPIC} does not start a command batch")
    try:
        # The command's every value was in the event's data, which `check_chain` encoded: what
        # `check_wire` refuses, the canonical encoding refused there (NaN and infinity, which it
        # writes as null, hashed as null, and re-simulate to it).
        return decide_batch(ruleset, state, seat, opening.command_wire(), wire_checked=True,
                            at_ms=recorded_time(records, at) if state.clock is not None else None)
    except TimeOut as exc:
        raise Bad(seq, f"the command was accepted after its seat's time ran out: {exc.message}") from None
    except (RingsideError, TypeError, ValueError) as exc:
        raise Bad(seq, f"the action is not legal here: {getattr(exc, 'message', exc)}") from None


def compare(produced: list[Recorded], recorded: list[Recorded], previous: str) -> None:
    """Byte for byte: each produced event must link onto the recorded chain exactly as the
    recorded event does. An event written under an older class version (its own bytes
    already checked by the chain) must instead upcast to what re-simulation made."""
    for i, mine in enumerate(produced):
        if i >= len(recorded):
            raise Bad(mine.seq, f"the log ends where re-simulation produces {mine.event.TOPIC}")
        theirs = recorded[i]
        if theirs.written is not None:
            same = mine.event == theirs.event
        elif mine.chain == theirs.chain:
            same = True
        else:   # the chains part after an upcast event: link this one onto the recorded chain
            same = chain_of(previous, mine.seq, mine.event.TOPIC, event_data(mine.event)) == theirs.chain
        if not same:
            if mine.event.TOPIC == theirs.event.TOPIC:
                raise Bad(theirs.seq, f"re-simulation produced {mine.event.TOPIC} with other data than the log has")
            raise Bad(theirs.seq, f"re-simulation produced {mine.event.TOPIC}, the log has {theirs.event.TOPIC}")
        previous = theirs.chain
