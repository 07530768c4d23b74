from typing import Annotated

import orjson
import pytest

from domain.engine.chain import chain_of
from domain.engine.errors import ReplayError, RuleViolation
from domain.engine.events import (OMNISCIENT, SPECTATOR, Command, CommandCodec, Event, Recorded, Viewer,
                                  decode_event, event_data, redact, secret, server_only, wire_event)


class CardPeeked(Event, frozen=True, kw_only=True):
    TOPIC = "test.CardPeeked"
    seat: str
    card: Annotated[str | None, secret(owner="seat")]
    order: Annotated[tuple[str, ...] | None, server_only()] = None
    count: int = 0


class Renamed(Event, frozen=True, kw_only=True):
    TOPIC = "test.Renamed"
    class_version = 2
    name: str
    score: int

    @staticmethod
    def upcast_v1_v2(data):
        return {**data, "score": 0}


class Attack(Command, tag="attack"):
    card: str


class Pass(Command, tag="pass"):
    pass


def test_secret_fields_are_visible_to_the_owner_and_omniscient_only():
    e = CardPeeked(seat="p1", card="jab", order=("a", "b"), count=2)
    assert redact(e, Viewer("p1"), public=False) == ({"seat": "p1", "card": "jab", "order": None, "count": 2}, False)
    assert redact(e, Viewer("p2"), public=False) == ({"seat": "p1", "card": None, "order": None, "count": 2}, False)
    assert redact(e, SPECTATOR, public=False)[0]["card"] is None
    assert redact(e, OMNISCIENT, public=False) == ({"seat": "p1", "card": "jab", "order": ("a", "b"), "count": 2}, True)
    assert redact(e, SPECTATOR, public=True)[1] is True


def test_chains_are_sent_once_the_battle_is_public_and_redaction_is_flagged():
    rec = Recorded(4, CardPeeked(seat="p1", card="jab"), "ab" * 32)
    # Seen whole by its owner, yet no chain: it commits to the hidden events before it.
    assert wire_event(rec, Viewer("p1"), False) == {
        "seq": 4, "type": "test.CardPeeked", "data": {"seat": "p1", "card": "jab", "order": None, "count": 0},
        "chain": None}
    assert wire_event(rec, Viewer("p2"), False)["chain"] is None
    assert wire_event(rec, Viewer("p2"), False)["redacted"] is True
    assert wire_event(rec, OMNISCIENT, False)["chain"] == "ab" * 32
    assert wire_event(rec, Viewer("p2"), True) == {
        "seq": 4, "type": "test.CardPeeked", "data": {"seat": "p1", "card": "jab", "order": None, "count": 0},
        "chain": "ab" * 32}


def test_a_visible_chain_would_let_a_viewer_brute_force_the_hidden_event_before_it():
    """Why chains wait for the end: from chain 3 and the whole event 5 with its chain, the
    hidden card of event 4 is found by trying each card id."""
    before = "cd" * 32
    hidden = Recorded(4, CardPeeked(seat="p1", card="jab"), chain_of(before, 4, "test.CardPeeked",
                                                                    event_data(CardPeeked(seat="p1", card="jab"))))
    after = CardPeeked(seat="p2", card=None)
    chain5 = chain_of(hidden.chain, 5, "test.CardPeeked", event_data(after))
    guesses = [card for card in ("hook", "jab", "cross")
               if chain_of(chain_of(before, 4, "test.CardPeeked", event_data(CardPeeked(seat="p1", card=card))),
                           5, "test.CardPeeked", event_data(after)) == chain5]
    assert guesses == ["jab"]
    assert wire_event(Recorded(5, after, chain5), Viewer("p2"), False)["chain"] is None


def test_topics_are_explicit_and_unique():
    with pytest.raises(TypeError, match="must set a TOPIC"):
        class NoTopic(Event, frozen=True, kw_only=True):
            x: int
    with pytest.raises(TypeError, match="already used"):
        class Clash(Event, frozen=True, kw_only=True):
            TOPIC = "test.CardPeeked"


def test_decode_is_typed_and_upcasts_old_versions():
    data = orjson.loads(orjson.dumps(wire_event(Recorded(1, CardPeeked(seat="p1", card="x", order=("a",)), ""),
                                                OMNISCIENT, True)["data"]))
    assert decode_event("test.CardPeeked", data) == CardPeeked(seat="p1", card="x", order=("a",))
    assert decode_event("test.Renamed", {"name": "n"}, version=1) == Renamed(name="n", score=0)
    with pytest.raises(ReplayError, match="unknown event type"):
        decode_event("test.Nope", {})
    with pytest.raises(ReplayError, match="count"):
        decode_event("test.CardPeeked", {"seat": "p1", "card": None, "count": "many"})


def test_commands_parse_with_clear_errors():
    codec = CommandCodec((Attack, Pass))
    assert codec.parse({"type": "attack", "card": "jab"}) == Attack(card="jab")
    assert codec.wire(Pass()) == {"type": "pass"}
    for bad, message in [({"type": "heal"}, "unknown command type 'heal'"), ({"type": "attack"}, "missing required"),
                         ({"type": "attack", "card": "jab", "x": 1}, "unknown field"), ([1], "JSON object")]:
        with pytest.raises(RuleViolation, match=message):
            codec.parse(bad)


def test_viewer_parse():
    assert Viewer.parse("spectator") == SPECTATOR
    assert Viewer.parse("all") == OMNISCIENT
    assert Viewer.parse("p2") == Viewer(seat="p2")
