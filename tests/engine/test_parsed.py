"""`SetupCache`: a setup parsed once for the same inputs, and afresh whenever anything the parse
read may differ: the raw setup's types and values, the content records it read, or whether the
inputs are a new battle's."""
from __future__ import annotations

from types import MappingProxyType, SimpleNamespace

import msgspec

from domain.engine.content import new_inputs, recorded_inputs
from domain.engine.parsed import SetupCache


class Params(msgspec.Struct, frozen=True):
    size: int = 3


def cache_over(content: SimpleNamespace) -> tuple[SetupCache[dict[str, object]], list[object]]:
    """A cache whose parse notes each call, reads the unit named by the setup, and says
    whether the inputs were new."""
    calls: list[object] = []

    def parse(raw):
        calls.append(raw)
        return {"unit": content.units[raw["unit"]], "new": new_inputs(), "raw": dict(raw)}
    return SetupCache(parse, Params, lambda: content, lambda known, parsed: [("units", parsed["raw"]["unit"])]), calls


def test_the_same_setup_is_parsed_once_and_shared():
    """Given a cache, when the same setup (equal, not the same object) is parsed twice, then the
    parse runs once and both get the one result."""
    content = SimpleNamespace(units={"fox": "Fox"})
    parse, calls = cache_over(content)
    first = parse({"unit": "fox", "level": 2})
    assert parse({"unit": "fox", "level": 2}) is first
    assert len(calls) == 1


def test_a_setup_of_other_types_or_values_is_parsed_again():
    """Given a parsed setup, when one differs only by a type (True for 1, 1.0 for 1, a key order)
    or a value, then each is parsed afresh: marshal tells them all apart."""
    content = SimpleNamespace(units={"fox": "Fox"})
    parse, calls = cache_over(content)
    for raw in ({"unit": "fox", "level": 1}, {"unit": "fox", "level": True}, {"unit": "fox", "level": 1.0},
                {"level": 1, "unit": "fox"}, {"unit": "fox", "level": 2}):
        parse(raw)
    assert len(calls) == 5


def test_a_content_record_replaced_in_place_is_a_miss():
    """Given a parsed setup, when the unit record it read is replaced in the same content object,
    then the next parse reads the new record, while another unit's change keeps the answer."""
    content = SimpleNamespace(units={"fox": "Fox", "owl": "Owl"})
    parse, calls = cache_over(content)
    parse({"unit": "fox"})
    content.units["owl"] = "Owl II"
    parse({"unit": "fox"})
    assert len(calls) == 1
    content.units["fox"] = "Fox II"
    assert parse({"unit": "fox"})["unit"] == "Fox II"
    assert len(calls) == 2


def test_recorded_inputs_are_kept_apart_from_new_ones():
    """Given a setup parsed as a new battle's, when it is parsed as recorded inputs, then the
    parse runs again and says so."""
    content = SimpleNamespace(units={"fox": "Fox"})
    parse, calls = cache_over(content)
    assert parse({"unit": "fox"})["new"] is True
    with recorded_inputs():
        assert parse({"unit": "fox"})["new"] is False
    assert len(calls) == 2


def test_a_setup_of_other_than_json_types_is_never_kept():
    """Given setups holding a tuple or given as a read-only mapping, when each is parsed twice,
    then every parse runs: only JSON's own types are kept."""
    content = SimpleNamespace(units={"fox": "Fox"})
    parse, calls = cache_over(content)
    for raw in ({"unit": "fox", "list": (1, 2)}, MappingProxyType({"unit": "fox"})):
        parse(raw)
        parse(raw)
    assert len(calls) == 4
