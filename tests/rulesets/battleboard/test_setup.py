"""Setup validation (seed 002, Building a Character and Combatants): heroes are presets or
builds (class of two archetypes, 6 + level affinity points, up to three weapons, armor or none,
level 0 to 10, one upgrade a level from the class's archetypes); foes come from an encounter or
a list with a map. Every refusal names the offending field."""
from __future__ import annotations

import pytest

from domain.engine.errors import SetupError
from domain.rulesets.battleboard.content import CONTENT
from domain.rulesets.battleboard.setup import DEFAULT_SETUP, Build, parse_setup, table
from domain.rulesets.battleboard.state import FOES, HEROES, Params

IVO = {"name": "Ivo", "class": ["warden", "arcanist"], "affinities": {"air": 1, "earth": 2, "fire": 2, "water": 2},
       "weapons": ["wand", "talisman"], "armor": "light", "level": 1, "upgrades": ["warden_rally"]}


def hero(**changes):
    return {**IVO, **changes}


def setup(*heroes, **top):
    return {"heroes": list(heroes) or [hero()], "encounter": "goblin_ambush", **top}


def refused(raw, field, match=None):
    with pytest.raises(SetupError, match=match) as raised:
        parse_setup(raw)
    assert raised.value.field == field


# -- Good setups ------------------------------------------------------------------------------

def test_the_default_setup():
    parsed = parse_setup(DEFAULT_SETUP)
    assert [b.name for b in parsed.heroes] == ["Aria", "Bram"]
    assert (parsed.foes, parsed.map) == (CONTENT.encounters["goblin_ambush"].foes, CONTENT.encounters["goblin_ambush"].map)
    assert parsed.params == Params()


def test_a_build_is_taken_as_given():
    parsed = parse_setup(setup(hero()))
    assert parsed.heroes == (Build(name="Ivo", cls=("warden", "arcanist"),
                                   affinities={"air": 1, "earth": 2, "fire": 2, "water": 2}, weapons=("wand", "talisman"),
                                   armor="light", level=1, upgrades=("warden_rally",)),)


def test_a_build_without_a_name_is_named_after_its_class():
    raw = hero()
    del raw["name"]
    assert parse_setup(setup(raw)).heroes[0].name == "Warden / Arcanist"


def test_a_higher_level_spends_more_points_and_unlocks_more_upgrades():
    raw = hero(level=2, affinities={"air": 2, "earth": 2, "fire": 2, "water": 2},
               upgrades=["warden_rally", "arcanist_fireball"])
    assert parse_setup(setup(raw)).heroes[0].level == 2


def test_a_character_may_be_created_at_level_0():
    # given a build of level 0: 6 + 0 affinity points and no upgrade
    raw = hero(level=0, affinities={"air": 1, "earth": 2, "fire": 2, "water": 1}, upgrades=[])
    # when it is parsed
    parsed = parse_setup(setup(raw)).heroes[0]
    # then seed 002, Leveling Up: "A character may level up one or more times at the time of
    # creation -- we recommend that a character levels up once": once is advised, none is allowed
    assert (parsed.level, parsed.upgrades, sum(parsed.affinities.values())) == (0, (), 6)     # 6 + 0 points


def test_a_character_may_wear_no_armor_and_carry_no_weapon():
    # given a build with no weapon and no armor, and one that leaves both out
    bare = hero(weapons=[], armor=None)
    left_out = {k: v for k, v in IVO.items() if k not in ("weapons", "armor")}
    # when each is parsed
    parsed = [parse_setup(setup(raw)).heroes[0] for raw in (bare, left_out)]
    # then seed 002, Weapons: "A character may equip one Primary Weapon and one Secondary Weapon
    # or three Secondary weapons"; Armor: "Each character can choose to wear Light, Medium or
    # Heavy armor". Both are a choice, and none is one too
    assert [(b.weapons, b.armor) for b in parsed] == [((), None), ((), None)]


def test_foes_may_be_listed_with_a_map():
    parsed = parse_setup({"heroes": ["aria"], "foes": ["orc_brute", "goblin_archer"], "map": "thornwood"})
    assert (parsed.foes, parsed.map) == (("orc_brute", "goblin_archer"), "thornwood")


def test_an_encounter_may_be_fought_on_another_map():
    assert parse_setup(setup(map="thornwood")).map == "thornwood"


def test_params_reach_the_setup():
    assert parse_setup(setup(params={"round_limit": 5})).params == Params(round_limit=5)


def test_the_table_has_a_seat_per_hero_and_the_game_masters():
    assert table(setup(hero(), "aria", "bram")).sides == ((HEROES, ("h1", "h2", "h3")), (FOES, ("gm",)))


# -- Refusals name their field ----------------------------------------------------------------

@pytest.mark.parametrize(("raw", "field"), [
    ({"encounter": "goblin_ambush"}, "heroes"),
    (setup(hero(), hero(), hero(), hero(), hero()), "heroes"),
    ({"heroes": [], "encounter": "goblin_ambush"}, "heroes"),
    (setup("zed"), "heroes[0]"),
    (setup(42), "heroes[0]"),
    (setup("aria", hero(colour="red")), "heroes[1].colour"),
    (setup(hero(name="")), "heroes[0].name"),
    (setup(hero(name="x" * 41)), "heroes[0].name"),
    (setup(hero(level=-1)), "heroes[0].level"),
    (setup(hero(level=11)), "heroes[0].level"),
    (setup(hero(**{"class": ["warden"]})), "heroes[0].class"),
    (setup(hero(**{"class": "warden"})), "heroes[0].class"),
    (setup(hero(**{"class": ["warden", "bard"]})), "heroes[0].class[1]"),
    (setup(hero(**{"class": ["bard", "warden"]})), "heroes[0].class[0]"),
    (setup(hero(**{"class": ["warden", "warden"]})), "heroes[0].class[1]"),
    (setup("aria", hero(affinities={"air": 1, "earth": 1, "fire": 1, "water": 1})), "heroes[1].affinities"),
    (setup(hero(affinities=[1, 2, 3, 1])), "heroes[0].affinities"),
    (setup(hero(affinities={"air": 7, "wind": 0})), "heroes[0].affinities.wind"),
    (setup(hero(affinities={"air": -1, "earth": 4, "fire": 2, "water": 2})), "heroes[0].affinities.air"),
    (setup(hero(affinities={"air": 8, "earth": 0, "fire": 0, "water": 0})), "heroes[0].affinities.air"),
    (setup(hero(weapons="wand")), "heroes[0].weapons"),
    (setup(hero(weapons=["dagger", "wand", "blowgun", "talisman"])), "heroes[0].weapons"),
    (setup(hero(weapons=["longsword", "spear"])), "heroes[0].weapons"),
    (setup(hero(weapons=["longsword", "dagger", "wand"])), "heroes[0].weapons"),
    (setup(hero(weapons=["wand", "club"])), "heroes[0].weapons[1]"),
    (setup(hero(weapons=["wand", "wand"])), "heroes[0].weapons[1]"),
    (setup(hero(armor="plate")), "heroes[0].armor"),
    (setup(hero(armor=0)), "heroes[0].armor"),
    (setup(hero(upgrades=["vanguard_charge"])), "heroes[0].upgrades[0]"),
    (setup(hero(upgrades=["warden_rally", "warden_rally"], level=2,
                affinities={"air": 2, "earth": 2, "fire": 2, "water": 2})), "heroes[0].upgrades[1]"),
    (setup(hero(upgrades=[])), "heroes[0].upgrades"),
    (setup(hero(upgrades=["warden_rally", "arcanist_fireball"])), "heroes[0].upgrades"),
    (setup(encounter="dragon_den"), "encounter"),
    ({"heroes": ["aria"], "encounter": "goblin_ambush", "foes": ["orc_brute"]}, "foes"),
    ({"heroes": ["aria"], "map": "thornwood"}, "foes"),
    ({"heroes": ["aria"], "foes": [], "map": "thornwood"}, "foes"),
    ({"heroes": ["aria"], "foes": ["orc_brute"] * 9, "map": "thornwood"}, "foes"),
    ({"heroes": ["aria"], "foes": ["orc_brute", "troll"], "map": "thornwood"}, "foes[1]"),
    ({"heroes": ["aria"], "foes": ["orc_brute"]}, "map"),
    ({"heroes": ["aria"], "foes": ["orc_brute"], "map": "moon"}, "map"),
    (setup(map="moon"), "map"),
    (setup(params={"round_limit": -1}), "params.round_limit"),
    (setup(params={"speed_of_light": 1}), "params.speed_of_light"),
    (setup(weather="rain"), "weather"),
])
def test_a_bad_setup_names_its_field(raw, field):
    refused(raw, field)


def test_the_affinity_budget_is_six_plus_the_level():
    refused(setup(hero(affinities={"air": 1, "earth": 2, "fire": 2, "water": 1})), "heroes[0].affinities",
            r"spend exactly 7 affinity points \(6 \+ 1 a level, level 1\), not 6")


def test_an_upgrade_must_come_from_the_class():
    refused(setup(hero(upgrades=["vanguard_charge"])), "heroes[0].upgrades[0]", "not an upgrade of warden / arcanist")


@pytest.mark.parametrize("preset", sorted(CONTENT.presets))
def test_every_preset_is_a_valid_build(preset):
    parsed = parse_setup(setup(preset))
    assert parsed.heroes[0].name == CONTENT.presets[preset].name
