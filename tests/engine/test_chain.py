from hashlib import blake2b
from pathlib import Path
from typing import Any

import orjson

from domain.engine.chain import (GENESIS, canonical_bytes, canonical_event, chain_events, chain_of, exactly_encoded,
                                 link)
from domain.engine.events import Event, Recorded, decode_record, event_data


def test_canonical_bytes_sort_keys_at_every_level():
    assert canonical_bytes(3, "t.X", {"b": 1, "a": {"z": 0, "y": [1, 2]}}) == \
        b'{"data":{"a":{"y":[1,2],"z":0},"b":1},"seq":3,"type":"t.X"}'


def test_chain_matches_the_design_formula():
    data = {"seat": "p1", "card": "jab"}
    expected = blake2b(bytes.fromhex(GENESIS) + orjson.dumps({"seq": 1, "type": "t.X", "data": data},
                                                             option=orjson.OPT_SORT_KEYS), digest_size=32).hexdigest()
    assert chain_of(GENESIS, 1, "t.X", data) == expected
    assert GENESIS == "0" * 64


def test_any_change_changes_the_link():
    base = link(GENESIS, b"abc")
    assert link(GENESIS, b"abd") != base
    assert link("1" + GENESIS[1:], b"abc") != base


# -- canonical_event: msgspec's bytes where they are orjson's -------------------------------

STORED = sorted((Path(__file__).parent.parent / "golden").glob("*.jsonl")) + \
    sorted((Path(__file__).parent.parent / "replays" / "fixtures").glob("*/*.jsonl"))


def stored_lines():
    for path in STORED:
        for line in path.read_bytes().splitlines():
            wire = orjson.loads(line)
            if "seq" in wire:            # replay files open with a header line
                yield wire


def test_canonical_event_writes_what_canonical_bytes_writes_for_every_stored_event():
    exact = 0
    for wire in stored_lines():
        rec = decode_record(wire["seq"], wire["type"], wire["data"], wire["chain"], wire.get("v", 1))
        if rec.written is not None:         # upcast: the chain covers the bytes as written
            continue
        assert canonical_event(rec.seq, rec.event) == canonical_bytes(wire["seq"], wire["type"], wire["data"])
        exact += exactly_encoded(type(rec.event))
    assert exact > 10_000                   # most events take msgspec's way


def test_chain_events_links_as_chain_of_does():
    lines = [w for w in stored_lines() if w["type"] == "engine.EffectTriggered"][:50]
    events = [decode_record(w["seq"], w["type"], w["data"], w["chain"]).event for w in lines]
    out: list[Recorded] = []
    assert chain_events(GENESIS, 7, events, out) == (57, out[-1].chain)
    chain = GENESIS
    for seq, (rec, event) in enumerate(zip(out, events), start=8):
        chain = chain_of(chain, seq, event.TOPIC, event_data(event))
        assert (rec.seq, rec.event, rec.chain) == (seq, event, chain)


class Measured(Event, frozen=True, kw_only=True):
    TOPIC = "test.Measured"
    value: float
    note: str


class Noted(Event, frozen=True, kw_only=True):
    TOPIC = "test.Noted"
    note: str
    extra: dict[str, Any] = {}


class Counted(Event, frozen=True, kw_only=True):
    TOPIC = "test.Counted"
    counts: dict[str, tuple[int, ...]]
    who: str | None = None
    flag: bool = False


def test_events_that_may_hold_a_float_keep_orjsons_bytes():
    # msgspec writes 1e16 as `1e16`, orjson as `1e+16`: such fields never take msgspec's way
    assert not exactly_encoded(Measured) and not exactly_encoded(Noted) and exactly_encoded(Counted)
    for event in (Measured(value=1e16, note="é\u2028\x1f"), Noted(note="x", extra={"b": 1e22, "a": [0.1]}),
                  Counted(counts={"z": (1, -2), "a": ()}, who="\"\\", flag=True)):
        assert canonical_event(9, event) == canonical_bytes(9, event.TOPIC, event_data(event))


def test_strings_escape_alike_in_both_encoders():
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    assert canonical_event(1, Noted(note=text)) == canonical_bytes(1, "test.Noted", {"note": text, "extra": {}})
