"""Canonical encoding and the per-battle hash chain (DESIGN.md non-negotiable 6)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from hashlib import blake2b
from typing import Protocol, TypeVar

import msgspec
import msgspec.inspect as mi
import orjson

from .events import Event, Recorded, event_data

GENESIS = "0" * 64

# Copying a ready hasher is cheaper than building one from its keyword arguments each time;
# the digest is the same as `blake2b(data, digest_size=32)`.
_BLAKE2B_32 = blake2b(digest_size=32)
_SORT_KEYS = orjson.OPT_SORT_KEYS


def canonical_bytes(seq: int, topic: str, data: Mapping[str, object]) -> bytes:
    return orjson.dumps({"seq": seq, "type": topic, "data": data}, option=orjson.OPT_SORT_KEYS)


def link(previous: str, canonical: bytes) -> str:
    digest = _BLAKE2B_32.copy()
    digest.update(bytes.fromhex(previous))
    digest.update(canonical)
    return digest.hexdigest()


def chain_of(previous: str, seq: int, topic: str, data: Mapping[str, object]) -> str:
    # canonical_bytes and link, inlined: this runs once for every event of every battle.
    digest = _BLAKE2B_32.copy()
    digest.update(bytes.fromhex(previous))
    digest.update(orjson.dumps({"seq": seq, "type": topic, "data": data}, option=_SORT_KEYS))
    return digest.hexdigest()


# -- Chaining events as they are made ---------------------------------------------------
# `canonical_bytes` builds a dict of the event's fields for orjson to sort. msgspec can write
# the same bytes straight from the event: a struct's fields in sorted order, as `_Canonical`
# puts "data", "seq" and "type". It does for every value an event of an exact type may
# hold: strings (every code point escaped alike), integers, booleans, null, and arrays,
# string-keyed objects and nested structs of those (a nested struct's fields are sorted
# too, as orjson sorts the keys of its builtins form). Floats it writes differently (`1e+16`
# is `1e16`), and a field typed Any might hold one, so events with such fields still go
# through orjson, given the event as builtins all the way down: orjson cannot write a
# struct. `tests/engine/test_chain.py` checks both ways agree on every stored golden and
# fixture.

class _Canonical(msgspec.Struct, gc=False):
    data: Event
    seq: int
    type: str


_encode_sorted = msgspec.json.Encoder(order="sorted").encode
# event class -> whether msgspec writes its canonical bytes exactly as orjson does
_EXACT: dict[type, bool] = {}


def exactly_encoded(cls: type[Event]) -> bool:
    """Whether every value `cls` declares is one msgspec writes as orjson does (see above)."""
    found = _EXACT.get(cls)
    if found is None:
        found = _EXACT[cls] = _exact_type(mi.type_info(cls), frozenset())
    return found


def _exact_type(t: mi.Type, within: frozenset[type]) -> bool:
    """`within`: the struct classes whose fields are being checked, so that a struct that
    holds itself is judged by its other fields instead of recursing for ever."""
    if isinstance(t, (mi.StrType, mi.IntType, mi.BoolType, mi.NoneType)):
        return True
    if isinstance(t, mi.LiteralType):
        return all(type(v) in (str, int) for v in t.values)
    if isinstance(t, mi.UnionType):
        return all(_exact_type(u, within) for u in t.types)
    if isinstance(t, (mi.VarTupleType, mi.ListType)):
        return _exact_type(t.item_type, within)
    if isinstance(t, mi.TupleType):
        return all(_exact_type(u, within) for u in t.item_types)
    if isinstance(t, mi.DictType):
        return isinstance(t.key_type, mi.StrType) and _exact_type(t.value_type, within)
    if isinstance(t, mi.StructType):
        if t.cls in within:
            return True
        inner = within | {t.cls}
        return (t.tag is None and not t.array_like
                and all(f.name == f.encode_name and _exact_type(f.type, inner) for f in t.fields))
    return False


def canonical_event(seq: int, event: Event) -> bytes:
    """`canonical_bytes(seq, event.TOPIC, event_data(event))`, without the dict where it can."""
    if _EXACT.get(type(event)) or exactly_encoded(type(event)):
        return _encode_sorted(_Canonical(event, seq, event.TOPIC))
    return orjson.dumps({"seq": seq, "type": event.TOPIC, "data": event_data(event)}, option=_SORT_KEYS)


def chain_events(previous: str, seq: int, events: Iterable[Event], out: list[Recorded]) -> tuple[int, str]:
    """Append each event to `out` as a `Recorded`, chained on from `previous` at `seq` + 1,
    and return the last (seq, chain). The running digest stays binary between events, sparing
    a hex round trip per event."""
    chain = previous
    raw = bytes.fromhex(previous)
    exact = _EXACT
    for event in events:
        seq += 1
        digest = _BLAKE2B_32.copy()
        digest.update(raw)
        if exact.get(type(event)):
            digest.update(_encode_sorted(_Canonical(event, seq, event.TOPIC)))
        else:
            digest.update(canonical_event(seq, event))
        raw = digest.digest()
        chain = raw.hex()
        out.append(Recorded(seq, event, chain))
    return seq, chain


def link_fault(seq: int, chain: str, rec: Recorded) -> str | None:
    """Why the record `rec` does not follow a log whose last record is `seq`
    with hash `chain`: out of order, or its hash not chained from the one before; None if it does."""
    if rec.seq != seq + 1:
        return f"seq {rec.seq} follows seq {seq}"
    if rec.chain != chain_of(chain, rec.seq, rec.event.TOPIC, rec.stored_data()):
        return "its hash does not chain from the event before it"
    return None


class Head(Protocol):
    """An aggregate's state as far as its chain goes: its last seq and hash."""
    @property
    def seq(self) -> int: ...

    @property
    def chain(self) -> str: ...


H = TypeVar("H", bound=Head)


def chain_folded(state: H, events: Iterable[Event], evolve: Callable[[H, Recorded], H]) -> tuple[H, list[Recorded]]:
    """Record `events` after the aggregate's head, each hash-chained to the one before, and fold
    each into the state with `evolve` (a queue's, a tournament's)."""
    records = []
    for event in events:
        rec = Recorded(state.seq + 1, event, link(state.chain, canonical_event(state.seq + 1, event)))
        state = evolve(state, rec)
        records.append(rec)
    return state, records
