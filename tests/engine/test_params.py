"""A ruleset's `params`: every integer declares its range, and `parse_params` holds a setup to
it, naming the param and the range it broke (HTTP 422)."""
from __future__ import annotations

from typing import Annotated, Literal

import msgspec
import pytest

from domain.engine.content import PARAM_MAX, Bound, param_bounds, parse_params, recorded_inputs
from domain.engine.errors import SetupError


class Params(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    hand_size: Annotated[int, Bound(1, 12)] = 7
    turns: Annotated[int, Bound(0, PARAM_MAX)] = 80
    fair: bool = True
    tiebreak: Literal["hp", "share"] = "hp"


def test_the_declared_ranges_are_read_for_every_integer_param():
    assert param_bounds(Params) == {"hand_size": (1, 12), "turns": (0, PARAM_MAX)}


def test_params_within_their_ranges_are_parsed():
    assert parse_params({}, Params) == Params()
    assert parse_params({"hand_size": 1, "turns": PARAM_MAX, "fair": False}, Params) \
        == Params(hand_size=1, turns=PARAM_MAX, fair=False)
    assert parse_params({"hand_size": 12, "tiebreak": "share"}, Params) == Params(hand_size=12, tiebreak="share")


@pytest.mark.parametrize("raw, message", [
    ({"hand_size": 0}, "setup.params.hand_size: must be between 1 and 12, not 0"),
    ({"hand_size": 13}, "setup.params.hand_size: must be between 1 and 12, not 13"),
    ({"hand_size": 2**63 - 1}, "setup.params.hand_size: must be between 1 and 12, not 9223372036854775807"),
    ({"hand_size": 2**64}, "setup.params.hand_size: must be between 1 and 12, not 18446744073709551616"),
    ({"turns": -1}, "setup.params.turns: must be between 0 and 1000000, not -1"),
    ({"turns": PARAM_MAX + 1}, "setup.params.turns: must be between 0 and 1000000, not 1000001"),
])
def test_a_param_past_its_range_is_refused_naming_it_and_the_range(raw, message):
    with pytest.raises(SetupError) as caught:
        parse_params(raw, Params)
    assert (caught.value.field, caught.value.message) == (message.split(":")[0].removeprefix("setup."), message)
    assert caught.value.code == "bad_setup"


@pytest.mark.parametrize("raw, field, message", [
    ({"hand_size": "7"}, "params.hand_size", "Expected `int`, got `str` - at `$.hand_size`"),
    ({"hand_size": True}, "params.hand_size", "Expected `int`, got `bool` - at `$.hand_size`"),
    ({"tiebreak": "coin"}, "params.tiebreak", "Invalid enum value 'coin' - at `$.tiebreak`"),
    ({"hand_sise": 7}, "params.hand_sise", "Object contains unknown field `hand_sise`"),
    ([], "params", "Expected `object`, got `array`"),
])
def test_a_param_of_the_wrong_type_is_refused_naming_it(raw, field, message):
    with pytest.raises(SetupError) as caught:
        parse_params(raw, Params)
    assert (caught.value.field, caught.value.message) == (field, f"setup.{field}: {message}")


class Unbounded(msgspec.Struct, frozen=True, kw_only=True):
    fair: bool = True
    hand_size: Annotated[int, msgspec.Meta(ge=0)] = 7


class Unlimited(msgspec.Struct, frozen=True, kw_only=True):
    turns: Annotated[int, Bound(0, PARAM_MAX + 1)] = 80


class Plain(msgspec.Struct, frozen=True, kw_only=True):
    turns: int = 80


@pytest.mark.parametrize("cls, name", [(Unbounded, "Unbounded.hand_size"), (Unlimited, "Unlimited.turns"),
                                       (Plain, "Plain.turns")])
def test_an_integer_param_without_a_declared_range_is_a_programming_error(cls, name):
    with pytest.raises(TypeError) as caught:
        param_bounds(cls)
    assert str(caught.value) == (f"tests.engine.test_params.{name} declares no range within 0..1000000: "
                                 "annotate it Annotated[int, Bound(lo, hi)]")
    with pytest.raises(TypeError):
        parse_params({}, cls)


def test_params_decoded_from_the_log_are_not_held_to_todays_ranges():
    """A battle created while a range was wider still folds: only new setups are held to it."""
    recorded = msgspec.json.encode({"hand_size": 40, "turns": 80})
    assert msgspec.json.decode(recorded, type=Params) == Params(hand_size=40)
    assert msgspec.convert({"hand_size": 40}, type=Params) == Params(hand_size=40)


def test_a_recorded_setup_is_held_to_the_lower_end_and_to_what_the_engine_ever_took():
    # given a recorded setup re-simulated (verify, a set's audit)
    with recorded_inputs():
        # then a value past today's upper end (12) but within PARAM_MAX is read as recorded
        assert parse_params({"hand_size": 40}, Params) == Params(hand_size=40)
        # and one below the lower end, or past PARAM_MAX, is still refused
        for raw, message in (({"hand_size": 0}, "setup.params.hand_size: must be between 1 and 1000000, not 0"),
                             ({"turns": PARAM_MAX + 1},
                              "setup.params.turns: must be between 0 and 1000000, not 1000001")):
            with pytest.raises(SetupError) as caught:
                parse_params(raw, Params)
            assert caught.value.message == message
    # and outside it, today's range holds again
    with pytest.raises(SetupError):
        parse_params({"hand_size": 40}, Params)
