"""What a client may send: `check_wire` refuses what the chain's and digest's encoders cannot
store, naming the field; errors quote at most a short prefix of what they refuse."""
from __future__ import annotations

import math
from types import MappingProxyType

import msgspec
import orjson
import pytest

from domain.engine.errors import MAX_MESSAGE, InvalidInput, RuleViolation, clip, quote
from domain.engine.wire import INT_MAX, INT_MIN, MAX_DEPTH, check_wire, check_wire_again, value_key


def refused(value: object, field: str = "command") -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        check_wire(value, field)
    assert caught.value.code == "invalid"
    assert caught.value.message.startswith(caught.value.details["field"] + ": ")
    return caught.value


def nested(depth: int) -> object:
    value: object = 0
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("value", [
    None, True, False, 0, INT_MIN, INT_MAX, 1.5, -0.0, "", "ascii", "héllo ✓ 🂡",
    {"type": "mulligan", "cards": ["jab", "hook"]}, [1, [2, {"a": None}]], ("tuple", 1),
    MappingProxyType({"a": 1}), nested(MAX_DEPTH),
])
def test_storable_json_passes_and_both_encoders_take_it(value):
    check_wire(value, "command")
    orjson.dumps(value, default=dict)
    msgspec.json.encode(value, enc_hook=dict)


@pytest.mark.parametrize("value, root, field", [
    ("\ud800", "players.p1", "players.p1"),
    ({"p1": "a", "p2": "\udfff"}, "players", "players.p2"),
    ({"type": "mulligan", "cards": ["jab", "\udc00"]}, "command", "command.cards[1]"),
    ({"params": {"hand_size": 2**64}}, "setup", "setup.params.hand_size"),
    ({"n": INT_MAX + 1}, "command", "command.n"),
    ({"n": INT_MIN - 1}, "command", "command.n"),
    ([math.nan], "command", "command[0]"),
    ({"x": {"y": math.inf}}, "command", "command.x.y"),
    ({"x": object()}, "command", "command.x"),
    ({"x": {1: "a"}}, "command", "command.x"),
    ({"x": {"ok": 1, "bad\ud800": 2}}, "command", "command.x"),
])
def test_refusals_name_the_field(value, root, field):
    assert refused(value, root).details["field"] == field


def test_refusals_say_why():
    assert "lone surrogate '\\ud800' at index 2" in refused("ab\ud800").message
    assert "64-bit integer range" in refused(2**63).message
    assert refused(2**63).details["max"] == INT_MAX
    assert "NaN or infinity" in refused(-math.inf).message
    assert "has a key that is not valid Unicode" in refused({"\ud800": 1}).message
    assert "a value of type bytes is not JSON" in refused(b"x").message


def test_nesting_past_the_limit_is_refused_before_any_recursion_limit():
    assert "nested more than 64 levels" in refused(nested(MAX_DEPTH + 1)).message
    refused(nested(100_000))


def test_long_keys_are_shortened_in_the_path():
    field = refused({"k" * 10_000: "\ud800"}).details["field"]
    assert field == "command." + "k" * 39 + "…"


def test_quote_shows_a_short_prefix_of_any_value():
    assert quote("jab") == "'jab'"
    assert quote("x" * 1000) == "'" + "x" * 58 + "…"
    assert len(quote(["card"] * 10**6)) <= 60
    assert quote("\ud800") == "'\\ud800'"
    assert quote(2**70, 10) == "118059162…"


def test_messages_are_capped_and_always_utf8():
    assert clip("abcd", 3) == "ab…" and clip("abc", 3) == "abc"
    assert clip("bad \ud800 one") == "bad \\ud800 one"
    error = RuleViolation("refused: " + "x" * 18_000_000)
    assert len(error.message) == MAX_MESSAGE and error.message.endswith("…")
    assert len(str(error)) == MAX_MESSAGE


def test_an_integer_too_long_to_print_is_refused_and_described():
    # Python will not print an int of over 4,300 digits; 10**5000 has 16,610 bits.
    with pytest.raises(InvalidInput) as refused:
        check_wire({"n": 10**5000}, "command")
    assert refused.value.details["field"] == "command.n"
    assert quote(10**5000) == "<an integer of 16610 bits>"


def test_a_value_checked_again_is_known_by_its_exact_types_and_values():
    """Given a setup that passed `check_wire_again`, when it is sent again, then it passes; when
    a value like it holds a lone surrogate, an integer past 64 bits, NaN, or a str subclass
    holding a lone surrogate, then each is refused, every time: a refused value is never
    remembered, and a value is told apart from a passed one by its exact types."""
    good = {"deck": ["jab", "hook"], "n": INT_MAX, "x": 1.5}
    check_wire_again(good, "setup")
    check_wire_again({"deck": ["jab", "hook"], "n": INT_MAX, "x": 1.5}, "setup")

    class Text(str):
        pass
    for bad in ({"deck": ["jab", "\ud800"], "n": INT_MAX, "x": 1.5},
                {"deck": ["jab", "hook"], "n": INT_MAX + 1, "x": 1.5},
                {"deck": ["jab", "hook"], "n": INT_MAX, "x": math.nan},
                {"deck": ["jab", Text("\ud800")], "n": 1}):
        for _ in range(2):
            with pytest.raises(InvalidInput):
                check_wire_again(bad, "setup")
    assert value_key(True) != value_key(1) and value_key([1]) != value_key((1,)) and value_key(Text("a")) is None
