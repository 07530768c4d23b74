"""Setup validation, the dealt start, and command parsing: every refusal names what is wrong."""
import msgspec
import pytest

from domain.engine.errors import RuleViolation, SetupError
from domain.rulesets.deckduel import RULESET
from domain.rulesets.deckduel.commands import Discard, Mulligan, Pass, PlayAttack
from domain.rulesets.deckduel.content import CONTENT
from domain.rulesets.deckduel.events import CardsDrawn, DeckPrepared, DuelStarted
from domain.rulesets.deckduel.state import Params

from .given import deck, scripted_setup, started

ORDERED = deck("haymaker", "hook", "parry", "whetstone", "uppercut", "surge", "scholar", filler="straight")


def with_seat(seat_fields=None, **top):
    setup = {"p1": {"character": "kira", **(seat_fields or {})}, "p2": {"character": "brom"}}
    setup.update(top)
    return setup


def test_a_fixed_order_keeps_the_deck_as_listed_and_deals_from_the_top():
    events, state = started(scripted_setup(ORDERED, deck(), first_player="p1"))
    assert events[0] == DuelStarted(params=msgspec.to_builtins(Params()), characters={"p1": "kira", "p2": "brom"},
                                    first_player="p1")
    assert events[1:3] == [DeckPrepared(seat="p1", size=30, shuffled=False, order=tuple(ORDERED)),
                           CardsDrawn(seat="p1", count=5, cards=tuple(ORDERED[:5]))]
    assert state.p1.deck == tuple(ORDERED[5:])
    assert (state.phase, state.first_player, RULESET.awaiting(state)) == ("mulligan", "p1", frozenset({"p1", "p2"}))


def test_a_shuffled_deck_is_a_seeded_permutation():
    setup = with_seat({"deck": ORDERED})
    first = started(setup, seed=b"one")[0][1]
    assert first.shuffled is True and first.order != tuple(ORDERED)
    assert sorted(first.order) == sorted(ORDERED)
    assert started(setup, seed=b"one")[0][1] == first
    assert started(setup, seed=b"two")[0][1].order != first.order


def test_without_a_deck_the_character_brings_its_own():
    events, _ = started(with_seat())
    assert sorted(events[1].order) == sorted(CONTENT.characters["kira"].deck_list())
    assert sorted(events[3].order) == sorted(CONTENT.characters["brom"].deck_list())


def test_params_reach_the_duel():
    setup = scripted_setup(deck(size=12), deck(size=12), deck_size=12, initial_hand=3, zero_icon_perfect=False)
    events, state = started(setup)
    assert state.params == Params(deck_size=12, initial_hand=3, zero_icon_perfect=False)
    assert events[2] == CardsDrawn(seat="p1", count=3, cards=("jab", "jab", "jab"))


BAD_CARD = deck()
BAD_CARD[3] = "zzz"
NOT_A_CARD_ID = deck()
NOT_A_CARD_ID[4] = ["jab"]


BAD_SETUPS = [
    (with_seat({"character": "zed"}), "p1.character"),
    (with_seat({"character": ["kira"]}), "p1.character"),
    (with_seat({"deck": BAD_CARD}), "p1.deck[3]"),
    (with_seat({"deck": NOT_A_CARD_ID}), "p1.deck[4]"),
    (with_seat({"deck": deck(size=29)}), "p1.deck"),
    (with_seat({"deck": "jab"}), "p1.deck"),
    (with_seat({"shuffle": "no"}), "p1.shuffle"),
    (with_seat({"colour": "red"}), "p1.colour"),
    (with_seat(params={"hand_size": -1}), "params.hand_size"),
    (with_seat(params={"hand_size": "seven"}), "params.hand_size"),
    (with_seat(params={"deck_size": 8}), "params.deck_size"),
    (with_seat(params={"hand_sise": 7}), "params.hand_sise"),
    (with_seat(params=[]), "params"),
    (with_seat(first_player="p3"), "first_player"),
    (with_seat(p3={"character": "vex"}), "p3"),
    ({"p1": {"character": "kira"}}, "p2"),
]


@pytest.mark.parametrize(("setup", "field"), BAD_SETUPS, ids=[field for _, field in BAD_SETUPS])
def test_a_bad_setup_names_the_field(setup, field):
    with pytest.raises(SetupError) as refused:
        RULESET.parse_setup(setup)
    assert refused.value.field == field
    assert refused.value.message.startswith(f"setup.{field}: ")


def test_unknown_cards_are_named_in_the_message():
    with pytest.raises(SetupError, match="unknown card 'zzz'"):
        RULESET.parse_setup(with_seat({"deck": BAD_CARD}))


# Command parsing (the wire `type` is the command tag).

@pytest.mark.parametrize(("wire", "command"), [
    ({"type": "attack", "card": "jab"}, PlayAttack(card="jab")),
    ({"type": "pass"}, Pass()),
    ({"type": "discard", "card": "hook"}, Discard(card="hook")),
    ({"type": "mulligan", "cards": ["jab", "hook"]}, Mulligan(cards=("jab", "hook"))),
    ({"type": "mulligan"}, Mulligan(cards=())),
])
def test_commands_parse_from_the_wire(wire, command):
    assert RULESET.codec.parse(wire) == command


def test_an_unknown_command_type_is_refused_with_the_known_ones():
    with pytest.raises(RuleViolation, match="unknown command type 'fly'") as refused:
        RULESET.codec.parse({"type": "fly"})
    assert refused.value.details == {"type": "fly", "expected": ["attack", "discard", "drill", "mulligan", "pass"]}


@pytest.mark.parametrize(("wire", "message"), [
    ({"type": "attack", "card": "jab", "target": "p2"}, "bad attack command: Object contains unknown field `target`"),
    ({"type": "attack"}, "bad attack command: Object missing required field `card`"),
    ({"type": "pass", "card": "jab"}, "bad pass command: Object contains unknown field `card`"),
    ("pass", "a command must be a JSON object with a 'type'"),
])
def test_a_malformed_command_is_refused(wire, message):
    with pytest.raises(RuleViolation) as refused:
        RULESET.codec.parse(wire)
    assert refused.value.message == message
