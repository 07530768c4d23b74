from __future__ import annotations

from hashlib import blake2b
from pathlib import Path
from typing import Any

import msgspec
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

GOLDEN = Path(__file__).parent.parent / "golden"
STORED = sorted(GOLDEN.glob("*.jsonl")) + sorted(GOLDEN.glob("ring_*/*.jsonl")) + \
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


# -- events holding structs -----------------------------------------------------------------

class Slot(msgspec.Struct, frozen=True):
    pool: str
    level: int
    extra: int = 0


class Branch(msgspec.Struct, frozen=True):
    name: str
    children: tuple[Branch, ...] = ()


class Weighed(msgspec.Struct, frozen=True):
    weight: float


class Slotted(Event, frozen=True, kw_only=True):
    TOPIC = "test.Slotted"
    slots: tuple[Slot, ...]
    spare: Slot | None = None
    by_seat: dict[str, Slot] = {}


class Grown(Event, frozen=True, kw_only=True):
    TOPIC = "test.Grown"
    root: Branch


class Weighted(Event, frozen=True, kw_only=True):
    TOPIC = "test.Weighted"
    load: Weighed


def test_a_struct_of_exact_fields_is_written_by_msgspec_as_orjson_writes_its_builtins():
    # msgspec sorts a nested struct's fields as orjson sorts the keys of its dict: "extra" < "level" < "pool"
    event = Slotted(slots=(Slot("brawler", 3), Slot("warden", 2, 1)), spare=Slot("hexer", 1),
                    by_seat={"p2": Slot("pyre", 1), "p1": Slot("mender", 2)})
    assert exactly_encoded(Slotted)
    as_builtins = {"seq": 4, "type": "test.Slotted", "data": msgspec.to_builtins(event)}
    assert canonical_event(4, event) == orjson.dumps(as_builtins, option=orjson.OPT_SORT_KEYS)
    assert canonical_event(4, event) == (
        b'{"data":{"by_seat":{"p1":{"extra":0,"level":2,"pool":"mender"},"p2":{"extra":0,"level":1,"pool":"pyre"}},'
        b'"slots":[{"extra":0,"level":3,"pool":"brawler"},{"extra":1,"level":2,"pool":"warden"}],'
        b'"spare":{"extra":0,"level":1,"pool":"hexer"}},"seq":4,"type":"test.Slotted"}')


def test_a_struct_that_holds_itself_is_judged_by_its_other_fields():
    event = Grown(root=Branch("oak", (Branch("limb", (Branch("twig"),)),)))
    assert exactly_encoded(Grown)
    assert canonical_event(2, event) == canonical_bytes(2, "test.Grown", event_data(event)) == (
        b'{"data":{"root":{"children":[{"children":[{"children":[],"name":"twig"}],"name":"limb"}],"name":"oak"}},'
        b'"seq":2,"type":"test.Grown"}')


def test_a_struct_that_may_hold_a_float_goes_through_orjson_as_builtins():
    # orjson writes 1e16 as `1e+16`; it cannot write a struct, so the event goes as builtins
    event = Weighted(load=Weighed(1e16))
    assert not exactly_encoded(Weighted)
    assert canonical_event(1, event) == b'{"data":{"load":{"weight":1e+16}},"seq":1,"type":"test.Weighted"}'


def test_an_event_holding_structs_chains_and_decodes_to_itself():
    event = Slotted(slots=(Slot("brawler", 3),), spare=None)
    out: list[Recorded] = []
    assert chain_events(GENESIS, 0, [event, Weighted(load=Weighed(0.5))], out)[0] == 2
    data = orjson.loads(orjson.dumps(event_data(event)))
    assert data == {"slots": [{"pool": "brawler", "level": 3, "extra": 0}], "spare": None, "by_seat": {}}
    assert out[0].chain == chain_of(GENESIS, 1, "test.Slotted", data)
    assert decode_record(1, "test.Slotted", data, out[0].chain).event == event
