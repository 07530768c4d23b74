"""Content is data: every id the TOML names must resolve to registered behaviour."""
import pytest

from domain.rulesets.deckduel.content import CARDS, CONTENT
from domain.rulesets.deckduel.hooks import ATTACK_EFFECTS, DEFENSE_TRIGGERS, HOOKS

ATTACKS = [c for c in CARDS.values() if c.kind == "attack"]
DRILLS = [c for c in CARDS.values() if c.kind == "drill"]


@pytest.mark.parametrize("card", CARDS.values(), ids=lambda c: c.id)
def test_every_named_behaviour_is_registered(card):
    if card.effect is not None:
        assert card.effect in ATTACK_EFFECTS, f"{card.id}: effect {card.effect!r} has no handler"
    if card.trigger is not None:
        assert card.trigger in DEFENSE_TRIGGERS, f"{card.id}: trigger {card.trigger!r} has no handler"
    if card.drill is not None:
        assert card.drill in HOOKS.kinds, f"{card.id}: drill {card.drill!r} has no hook"


@pytest.mark.parametrize("card", CARDS.values(), ids=lambda c: c.id)
def test_every_card_has_a_kind_and_the_fields_of_that_kind(card):
    assert card.kind in ("attack", "drill")
    assert 0 <= card.defense <= 3
    assert card.cost >= 0
    if card.kind == "drill":
        assert card.drill is not None and (card.arrows, card.effect, card.trigger) == (0, None, None)
    else:
        assert card.drill is None and card.arrows >= 1


@pytest.mark.parametrize("character", CONTENT.characters.values(), ids=lambda c: c.id)
def test_every_character_brings_thirty_known_cards(character):
    cards = character.deck_list()
    assert len(cards) == 30
    assert [c for c in cards if c not in CARDS] == []


def test_there_are_enough_distinct_attacks():
    assert len(ATTACKS) >= 12
    assert {c.cost for c in ATTACKS} >= {0, 1, 2, 3, 4}
    assert {c.arrows for c in ATTACKS} >= {1, 2, 3, 4, 5}


def test_there_are_enough_drills_and_defense_triggers():
    assert len(DRILLS) >= 4
    assert len({c.drill for c in DRILLS}) == len(DRILLS)
    assert len({c.trigger for c in CARDS.values()} - {None}) >= 4


def test_every_registered_behaviour_is_used_by_some_card():
    assert {c.effect for c in ATTACKS} - {None} == set(ATTACK_EFFECTS)
    assert {c.trigger for c in CARDS.values()} - {None} == set(DEFENSE_TRIGGERS)
    assert {c.drill for c in DRILLS} == HOOKS.kinds
