"""Combatants from builds and foe types: the affinity formulas, armor, and what each upgrade
unlocks (registered by id, the `effect` an upgrade names in content)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.engine.registry import Registry

from .content import Upgrade, content
from .setup import BattleboardSetup, Build
from .state import FOES, GM, HEROES

Sheet = dict[str, Any]              # the combatant being built, as its start-event JSON
UPGRADES: Registry[str, Callable[[Upgrade, Sheet], None]] = Registry("battleboard upgrade effect")


@UPGRADES.register("action")
def _action(u: Upgrade, sheet: Sheet) -> None:
    _add(sheet["actions"], u.action)


@UPGRADES.register("stat")
def _stat(u: Upgrade, sheet: Sheet) -> None:
    key = {"focus": "focus_stat", "energy": "energy_stat"}.get(u.stat or "", u.stat or "")
    sheet[key] += u.amount


@UPGRADES.register("movement")
def _movement(u: Upgrade, sheet: Sheet) -> None:
    _add(sheet["movement"], u.movement)


@UPGRADES.register("teleport")
def _teleport(u: Upgrade, sheet: Sheet) -> None:
    sheet["teleport"] += u.amount


def _add(items: list[str], item: str | None) -> None:
    if item is not None and item not in items:
        items.append(item)


def affinity_stats(affinities: dict[str, int], start: int) -> dict[str, int]:
    """Seed 002, Affinities: each affinity starts at `start` plus the points put in it."""
    a = {k: start + v for k, v in affinities.items()}
    return {"speed": a["air"] + a["earth"], "evasion": a["air"] + a["water"], "defense": a["earth"] + a["water"],
            "resilience": a["earth"] + a["fire"], "focus_stat": a["fire"] + a["water"],
            "energy_stat": a["air"] + a["fire"]}


def hero_sheet(seat: str, build: Build, start: int) -> Sheet:
    known = content()
    stats = affinity_stats(build.affinities, start)
    actions = list(known.basic)
    for arch in build.cls:
        for power in known.archetypes[arch].powers:
            _add(actions, power)
    for weapon in build.weapons:
        for action in known.weapons[weapon].actions:
            _add(actions, action)
    sheet: Sheet = {"id": seat, "side": HEROES, "seat": seat, "name": build.name, "rank": "character", **stats,
                    "actions": actions, "movement": [], "teleport": 0,
                    "build": {"class": list(build.cls), "affinities": dict(build.affinities), "weapons": list(build.weapons),
                              "armor": build.armor, "level": build.level, "upgrades": list(build.upgrades)}}
    if build.armor is not None:         # Armor: a character may wear none
        armor = known.armor[build.armor]
        sheet["speed"] = max(0, sheet["speed"] + armor.speed)
        sheet["evasion"] += armor.evasion
        sheet["defense"] += armor.defense
    for upgrade_id in build.upgrades:
        u = known.upgrades[upgrade_id]
        UPGRADES[u.effect](u, sheet)
    return sheet


def foe_sheet(number: int, foe_id: str) -> Sheet:
    foe = content().foes[foe_id]
    actions = list(content().basic)
    for action in foe.actions:
        _add(actions, action)
    return {"id": f"f{number}", "side": FOES, "seat": GM, "name": foe.name, "rank": foe.rank, "speed": foe.speed,
            "evasion": foe.evasion, "defense": foe.defense, "resilience": foe.resilience, "focus_stat": foe.focus,
            "energy_stat": foe.energy, "actions": actions, "movement": list(foe.movement), "teleport": foe.teleport,
            "build": {"foe": foe_id}}


def sheets(setup: BattleboardSetup) -> list[Sheet]:
    start = setup.params.affinity_start
    heroes = [hero_sheet(f"h{i + 1}", b, start) for i, b in enumerate(setup.heroes)]
    return heroes + [foe_sheet(i + 1, f) for i, f in enumerate(setup.foes)]
