"""Parses and validates a battleboard setup; every error names the offending field.

`{"heroes": [<preset id> | {name?, class, affinities, weapons?, armor?, level?, upgrades?}, ...],
"encounter": id | "foes": [foe ids] with "map": id, "params"?}`. Hero seats are h1..hN in the
order given; the foes are one seat, gm. A character may carry no weapon and wear no armor, and
may be created at level 0 (seed 002, Building a Character).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.engine.content import check_keys, new_inputs, parse_params
from domain.engine.errors import SetupError
from domain.engine.table import Table

from .content import AFFINITIES, Preset, content
from .state import FOES, GM, HERO_SEATS, HEROES, Params

MAX_FOES = 8
MAX_LEVEL = 10
UNPLACEABLE = ("barrier", "challenging")    # board.placeable: no combatant starts on these
BUILD_KEYS = {"name", "class", "affinities", "weapons", "armor", "level", "upgrades"}


class Build(msgspec.Struct, frozen=True, kw_only=True):
    """A character as built (seed 002, Building a Character)."""
    name: str
    cls: tuple[str, str]
    affinities: dict[str, int]      # points added to each affinity's starting 1
    weapons: tuple[str, ...]
    armor: str | None               # None: no armor
    level: int
    upgrades: tuple[str, ...]


class BattleboardSetup(msgspec.Struct, frozen=True, kw_only=True):
    params: Params
    heroes: tuple[Build, ...]
    foes: tuple[str, ...]
    map: str

    def params_json(self) -> dict[str, Any]:
        return msgspec.to_builtins(self.params)


DEFAULT_SETUP: dict[str, Any] = {"heroes": ["aria", "bram"], "encounter": "goblin_ambush"}


def table(setup: Mapping[str, Any]) -> Table:
    """Hero seats h1..hN, one per hero, against the foes' one seat."""
    heroes = setup.get("heroes") if isinstance(setup, Mapping) else None
    count = len(heroes) if isinstance(heroes, list) and 1 <= len(heroes) <= len(HERO_SEATS) else 1
    return Table(sides=((HEROES, HERO_SEATS[:count]), (FOES, (GM,))))


def parse_setup(raw: Mapping[str, Any]) -> BattleboardSetup:
    check_keys(raw, {"heroes", "encounter", "foes", "map", "params"})
    params = parse_params(raw.get("params", {}), Params)
    heroes = raw.get("heroes")
    if not isinstance(heroes, list) or not 1 <= len(heroes) <= len(HERO_SEATS):
        raise SetupError("heroes", f"needs a list of 1 to {len(HERO_SEATS)} heroes, one per hero seat")
    builds = tuple(parse_hero(f"heroes[{i}]", h, params) for i, h in enumerate(heroes))
    foes, board = parse_foes(raw)
    if new_inputs():        # a battle recorded before this check still re-simulates
        check_sections(params, board, {HEROES: len(builds), FOES: len(foes)})
    return BattleboardSetup(params=params, heroes=builds, foes=foes, map=board)


def check_sections(params: Params, board: str, combatants: Mapping[str, int]) -> None:
    """Battle Board: each side's section keeps a row and a cell to arrange each of its
    combatants on (not a barrier nor challenging terrain), or that side could never arrange."""
    if params.section_rows >= params.height:
        raise SetupError("params.section_rows", f"must leave the foes a row: below height {params.height}, "
                                                f"not {params.section_rows}")
    terrain = content().maps[board].terrain
    rows = {HEROES: range(0, params.section_rows), FOES: range(params.section_rows, params.height)}
    for side, count in combatants.items():
        room = sum(terrain(c, r) not in UNPLACEABLE for r in rows[side] for c in range(params.width))
        if room < count:
            raise SetupError("params.width", f"the {side}' section of {board} ({params.width} wide, rows "
                                             f"{rows[side].start}-{rows[side].stop - 1}) has room for {room} of "
                                             f"its {count} combatants")


def parse_foes(raw: Mapping[str, Any]) -> tuple[tuple[str, ...], str]:
    known = content()
    if "encounter" in raw:
        if "foes" in raw:
            raise SetupError("foes", "give an encounter, or foes and a map, not both")
        encounter = known.encounters.get(raw["encounter"]) if isinstance(raw["encounter"], str) else None
        if encounter is None:
            raise SetupError("encounter", f"must be one of {', '.join(known.encounters)}")
        board = raw.get("map", encounter.map)
        foes = encounter.foes
    else:
        listed = raw.get("foes")
        if not isinstance(listed, list) or not 1 <= len(listed) <= MAX_FOES:
            raise SetupError("foes", f"needs an encounter, or a list of 1 to {MAX_FOES} foe ids")
        for i, foe in enumerate(listed):
            if not isinstance(foe, str) or foe not in known.foes:
                raise SetupError(f"foes[{i}]", f"unknown foe; known: {', '.join(known.foes)}")
        board = raw.get("map")
        foes = tuple(listed)
    if not isinstance(board, str) or board not in known.maps:
        raise SetupError("map", f"must be one of {', '.join(known.maps)}")
    return tuple(foes), board


def parse_hero(path: str, raw: object, params: Params) -> Build:
    known = content()
    if isinstance(raw, str):
        preset = known.presets.get(raw)
        if preset is None:
            raise SetupError(path, f"unknown preset; known: {', '.join(known.presets)}, or a build object")
        raw = preset_build(preset)
    if not isinstance(raw, Mapping):
        raise SetupError(path, "needs a preset id or a build object {class, affinities, weapons, armor, level, upgrades}")
    unknown = set(raw) - BUILD_KEYS
    if unknown:
        raise SetupError(f"{path}.{sorted(unknown)[0]}", "unknown field")
    level = _int(f"{path}.level", raw.get("level", 1), 0, MAX_LEVEL)
    cls = _class(f"{path}.class", raw.get("class"))
    name = raw.get("name", " / ".join(known.archetypes[a].name for a in cls))
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        raise SetupError(f"{path}.name", "must be a non-empty string of at most 40 characters")
    return Build(name=name, cls=cls, affinities=_affinities(f"{path}.affinities", raw.get("affinities"), params, level),
                 weapons=_weapons(f"{path}.weapons", raw.get("weapons", [])),
                 armor=_armor(f"{path}.armor", raw.get("armor")),
                 level=level, upgrades=_upgrades(f"{path}.upgrades", raw.get("upgrades", []), cls, level))


def preset_build(p: Preset) -> dict[str, Any]:
    return {"name": p.name, "class": list(p.cls), "affinities": dict(p.affinities), "weapons": list(p.weapons),
            "armor": p.armor, "level": p.level, "upgrades": list(p.upgrades)}


def _int(path: str, value: object, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise SetupError(path, f"must be an integer from {lo} to {hi}")
    return value


def _class(path: str, raw: object) -> tuple[str, str]:
    if not isinstance(raw, list) or len(raw) != 2:
        raise SetupError(path, "a class is two archetypes: [archetype, archetype]")
    archetypes = content().archetypes
    for i, arch in enumerate(raw):
        if not isinstance(arch, str) or arch not in archetypes:
            raise SetupError(f"{path}[{i}]", f"unknown archetype; known: {', '.join(archetypes)}")
    if raw[0] == raw[1]:
        raise SetupError(f"{path}[1]", "a class is two different archetypes")
    return raw[0], raw[1]


def _affinities(path: str, raw: object, params: Params, level: int) -> dict[str, int]:
    """Affinities: each starts at `affinity_start`, plus `affinity_points` points and one a level."""
    if not isinstance(raw, Mapping):
        raise SetupError(path, f"needs the points added to {', '.join(AFFINITIES)}")
    unknown = set(raw) - set(AFFINITIES)
    if unknown:
        raise SetupError(f"{path}.{sorted(unknown)[0]}", f"unknown affinity; they are {', '.join(AFFINITIES)}")
    budget = params.affinity_points + level
    points = {a: _int(f"{path}.{a}", raw.get(a, 0), 0, budget) for a in AFFINITIES}
    if sum(points.values()) != budget:
        raise SetupError(path, f"spend exactly {budget} affinity points ({params.affinity_points} + 1 a level, "
                         f"level {level}), not {sum(points.values())}")
    return points


def _weapons(path: str, raw: object) -> tuple[str, ...]:
    """Weapons: a character "may equip" one primary and one secondary, or up to three
    secondaries; so none at all too."""
    if not isinstance(raw, list) or len(raw) > 3:
        raise SetupError(path, "a list of at most 3 weapons: 1 primary and 1 secondary, or up to 3 secondary")
    weapons = content().weapons
    for i, weapon in enumerate(raw):
        if not isinstance(weapon, str) or weapon not in weapons:
            raise SetupError(f"{path}[{i}]", f"unknown weapon; known: {', '.join(weapons)}")
        if weapon in raw[:i]:
            raise SetupError(f"{path}[{i}]", "each weapon is equipped once")
    primaries = [w for w in raw if weapons[w].slot == "primary"]
    if len(primaries) > 1 or (primaries and len(raw) > 2):
        raise SetupError(path, "equip one primary and one secondary weapon, or up to three secondary weapons")
    return tuple(raw)


def _armor(path: str, raw: object) -> str | None:
    """Armor: a character "can choose to wear" light, medium or heavy armor, or none (null)."""
    armor = content().armor
    if raw is not None and (not isinstance(raw, str) or raw not in armor):
        raise SetupError(path, f"must be one of {', '.join(armor)}, or null for no armor")
    return raw


def _upgrades(path: str, raw: object, cls: tuple[str, str], level: int) -> tuple[str, ...]:
    """Leveling up: one upgrade a level, from the class's two archetypes."""
    if not isinstance(raw, list) or len(raw) != level:
        raise SetupError(path, f"a level {level} character has unlocked exactly {level} upgrade"
                         f"{'' if level == 1 else 's'}")
    allowed = [u for a in cls for u in content().archetypes[a].upgrades]
    for i, upgrade in enumerate(raw):
        if not isinstance(upgrade, str) or upgrade not in allowed:
            raise SetupError(f"{path}[{i}]", f"not an upgrade of {' / '.join(cls)}; they are {', '.join(allowed)}")
        if upgrade in raw[:i]:
            raise SetupError(f"{path}[{i}]", "each upgrade is unlocked once")
    return tuple(raw)
