"""Content is data: every id the TOML names resolves to registered behaviour or other content,
every registered behaviour is used by some content, and there is enough of it (seed 001's
classes, talents, effects and keywords; parties, characters, a boss, boards)."""
from __future__ import annotations

from collections import Counter

import pytest

from domain.rulesets.skirmish.cards import KEYWORDS, STEPS
from domain.rulesets.skirmish.content import CARDS, CONTENT, TARGETS
from domain.rulesets.skirmish.hooks import HOOKS
from domain.rulesets.skirmish.effects.talents import TALENTS, WHEN

PLAYABLE = {k: c for k, c in CONTENT.characters.items() if not CONTENT.parties[c.party].raid_only}
STEPS_OF = [(card, step) for card in CARDS.values() for step in (*card.effects, *card.keyed)]


# -- Every id resolves ------------------------------------------------------------------------

@pytest.mark.parametrize("card", CARDS.values(), ids=lambda c: c.id)
def test_every_step_names_a_registered_step(card):
    for step in (*card.effects, *card.keyed):
        assert step.do in STEPS, f"{card.id}: step {step.do!r} has no handler"


@pytest.mark.parametrize("card", CARDS.values(), ids=lambda c: c.id)
def test_every_keyword_is_registered_and_keyed_steps_have_one(card):
    if card.keyword is not None:
        assert card.keyword in KEYWORDS, f"{card.id}: keyword {card.keyword!r} has no handler"
        assert card.keyword in CONTENT.keywords, f"{card.id}: keyword {card.keyword!r} is not in rules.toml"
        assert card.keyed, f"{card.id}: a keyword with nothing to activate"
    else:
        assert card.keyed == (), f"{card.id}: keyed steps without a keyword"


@pytest.mark.parametrize("card", CARDS.values(), ids=lambda c: c.id)
def test_every_effect_a_step_names_is_a_content_effect(card):
    for step in (*card.effects, *card.keyed):
        if step.do in ("give", "gain"):
            assert step.effect in CONTENT.effects, f"{card.id}: unknown effect {step.effect!r}"
        else:
            assert step.effect is None, f"{card.id}: {step.do} names an effect"
        if step.do in ("damage", "heal"):
            assert step.amount > 0, f"{card.id}: {step.do} of {step.amount}"
        if step.do == "draw":
            assert step.count > 0, f"{card.id}: draw of {step.count}"


@pytest.mark.parametrize("card", CARDS.values(), ids=lambda c: c.id)
def test_every_card_has_one_owner_a_target_and_a_cost(card):
    assert (card.owner is None) != (card.cls is None), f"{card.id}: a card is a class's or a character's"
    if card.owner is not None:
        assert card.owner in CONTENT.characters
        assert card.id in CONTENT.characters[card.owner].cards
        assert 1 <= card.cost <= 3                   # README: unique cards cost 1 to 3 AP
    else:
        assert card.cls in CONTENT.classes and CONTENT.classes[card.cls].skill == card.id
        assert card.cost == 1                        # README: each class skill card costs 1 AP
    assert card.target in TARGETS
    if card.target == "enemy":
        assert card.range is not None and card.range >= 1, f"{card.id}: an enemy card needs a range"
    else:
        assert card.range is None, f"{card.id}: only enemy cards have a range"


@pytest.mark.parametrize("character", CONTENT.characters.values(), ids=lambda c: c.id)
def test_every_character_resolves(character):
    assert character.party in CONTENT.parties
    assert character.cls in CONTENT.classes
    assert character.talent in TALENTS, f"{character.id}: talent {character.talent!r} has no behaviour"
    assert character.talent in HOOKS.kinds, f"{character.id}: talent {character.talent!r} has no hook"
    assert character.talent in CONTENT.talents
    assert character.cards, f"{character.id} has no unique cards"
    for card in character.cards:
        assert card in CARDS and CARDS[card].owner == character.id, f"{character.id}: card {card!r}"


@pytest.mark.parametrize("effect", CONTENT.effects.values(), ids=lambda e: e.id)
def test_every_effect_is_hooked(effect):
    assert effect.id in HOOKS.kinds, f"effect {effect.id!r} has no hook"
    assert effect.lasts in ("timed", "consumed")


@pytest.mark.parametrize("talent", CONTENT.talents.values(), ids=lambda t: t.id)
def test_every_talent_triggers_when_the_content_says(talent):
    assert talent.id in TALENTS
    assert WHEN[talent.id] == talent.when
    assert talent.when in ("prologue", "epilogue", "interlude")


@pytest.mark.parametrize("cls", CONTENT.classes.values(), ids=lambda c: c.id)
def test_every_class_skill_card_exists(cls):
    assert cls.skill in CARDS
    assert CARDS[cls.skill].cls == cls.id
    assert cls.power in CONTENT.tiers and cls.armor in CONTENT.tiers


@pytest.mark.parametrize("boss", CONTENT.bosses.values(), ids=lambda b: b.id)
def test_every_boss_and_its_escorts_exist_in_its_raid_only_brood(boss):
    assert boss.boss in CONTENT.characters
    brood = CONTENT.characters[boss.boss].party
    assert CONTENT.parties[brood].raid_only
    assert boss.escorts
    for escort in boss.escorts:
        assert escort in CONTENT.characters, f"{boss.id}: escort {escort!r}"
        assert CONTENT.characters[escort].party == brood


# -- Every registered behaviour is used -------------------------------------------------------

def test_every_registered_step_is_used_by_some_card():
    assert {step.do for _, step in STEPS_OF} == set(STEPS)


def test_every_registered_keyword_is_used_by_some_card():
    assert {c.keyword for c in CARDS.values()} - {None} == set(KEYWORDS)


def test_every_registered_talent_is_some_characters():
    assert {c.talent for c in CONTENT.characters.values()} == set(TALENTS)


def test_every_keyword_and_effect_is_used_by_some_card():
    assert {c.keyword for c in CARDS.values()} - {None} == set(CONTENT.keywords)
    assert {step.effect for _, step in STEPS_OF} - {None} == set(CONTENT.effects)


def test_the_hooks_are_the_talents_and_effects():
    assert HOOKS.kinds == set(CONTENT.talents) | set(CONTENT.effects)


# -- The seed's names and numbers -------------------------------------------------------------

def test_the_seeds_talents_effects_and_keywords_are_all_there():
    assert {t.name for t in CONTENT.talents.values()} == {
        "Early Bird", "Mirror Match", "Intimidating Presence", "Last Will", "Serene Grace", "Second Chance",
        "Gathering Storm"}
    assert {e.name for e in CONTENT.effects.values()} == {
        "Aggression", "Concealed", "Amplify", "Adrenaline", "Prowess", "Fortified", "Restrained"}
    assert {k.name for k in CONTENT.keywords.values()} == {"Storm", "Channel", "Exert", "Aftermath", "Threshold"}


def test_the_classes_are_the_seeds_table():
    table = {c.name: (c.ranged, CONTENT.tiers[c.power].power, CONTENT.tiers[c.armor].armor)
             for c in CONTENT.classes.values()}
    # Caster Huge/Tiny, Ranger Large/Small, Hunter Small/Large, Fighter Tiny/Huge
    assert table == {"Caster": (True, 18, 50), "Ranger": (True, 16, 60), "Hunter": (False, 12, 80),
                     "Fighter": (False, 10, 90)}
    assert {k: (t.power, t.armor) for k, t in CONTENT.tiers.items()} == {
        "tiny": (10, 50), "small": (12, 60), "medium": (14, 70), "large": (16, 80), "huge": (18, 90),
        "gargantuan": (20, 100)}


def test_a_card_pool_is_four_class_cards_and_three_of_each_unique_card():
    pool = Counter(CONTENT.pool("ember", 4, 3))
    assert pool == Counter({"caster_skill": 4, "spark_volley": 3, "kindle": 3})


# -- Enough content ---------------------------------------------------------------------------

def test_there_are_three_parties_and_twelve_playable_characters_of_every_class():
    playable_parties = [p for p in CONTENT.parties.values() if not p.raid_only]
    assert len(playable_parties) >= 3
    assert len(PLAYABLE) >= 12
    assert {c.cls for c in PLAYABLE.values()} == set(CONTENT.classes)
    for party in playable_parties:
        members = [c for c in PLAYABLE.values() if c.party == party.id]
        assert len(members) >= 3, f"{party.id}: a team needs three from one party"


def test_a_boss_has_gathering_storm():
    bosses = [CONTENT.characters[b.boss] for b in CONTENT.bosses.values()]
    assert any(b.talent == "gathering_storm" for b in bosses)
    wyrm = CONTENT.characters["tempest_wyrm"]
    # Gargantuan power 20; Gargantuan armor 100 x 3 = 300; 5 copies of each unique card
    assert CONTENT.stats("tempest_wyrm") == (20, 300)
    assert Counter(CONTENT.pool("tempest_wyrm", 4, 3)) == Counter(
        {"caster_skill": 4, "tempest_breath": 5, "static_field": 5})
    assert wyrm.talent == "gathering_storm"


def test_there_are_at_least_two_boards_with_room_to_deploy():
    assert len(CONTENT.boards) >= 2
    for board in CONTENT.boards.values():
        assert len({len(row) for row in board.rows}) == 1, f"{board.id}: ragged rows"
        assert set("".join(board.rows)) <= set(".#ab"), f"{board.id}: unknown tile"
        for seat in ("p1", "p2"):
            assert len(board.zone(seat)) >= 5, f"{board.id}: {seat} cannot deploy 5"


def test_duel_boards_are_seven_by_eight_with_two_deployment_rows_each():
    for board_id in ("meadow", "ruins"):
        board = CONTENT.boards[board_id]
        assert (board.grid.width, board.grid.height) == (7, 8)
        assert {c.row for c in board.zone("p1")} == {0, 1}
        assert {c.row for c in board.zone("p2")} == {6, 7}
        assert len(board.zone("p1")) == len(board.zone("p2")) == 14      # 7 x 2
