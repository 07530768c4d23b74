"""Ring content: units, ability pools, leaders, items, equipment, battlefields, Dynamics and
deck presets, loaded from `content/*.toml` into frozen records and hashed.

Content is data; what a step (`do`) or a Dynamic (`kind`) does is Python registered under
the same id in `steps.py` or `effects/`. `tests/rulesets/ring/test_content.py` checks every id resolves
and every pool has the shape seed 000 gives it (6 arts x 3 children, 6 per tier).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from domain.engine.content import ContentFiles, InForce

CONTENT_DIR = Path(__file__).parent / "content"
ATTRIBUTES = ("hp", "mp", "atk", "def", "skl", "pry")   # growable, and lowered by EXS
TIERS = (1, 2, 3)
Triple = tuple[int, int, int]                            # by effectiveness: glancing, normal, critical


class Spec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class Grant(Spec, frozen=True, kw_only=True):
    """A Dynamic brought into battle by a unit, leader, equipment or battlefield."""
    kind: str
    severity: int = 5


class Step(Spec, frozen=True, kw_only=True):
    """One effect of an ability or item; `do` names the registered step."""
    do: str
    to: str = "target"                 # target, self, user_leader, enemy_leader
    power: Triple = (0, 0, 0)          # damage / healing / amount by effectiveness
    hits: int = 1
    penetration: int = 0               # basis points (seed 000, ATK and DEF)
    escalate: int = 0                  # extra power per earlier use of the ability this battle
    dynamic: str | None = None
    severity: Triple = (0, 0, 0)
    chance: Triple = (10_000, 10_000, 10_000)   # basis points
    attr: str | None = None
    pool: str | None = None            # a pool id; lose_pool also takes "highest" or "latest"
    into: str | None = None            # replace_pool: the pool that takes `pool`'s place
    tag: str | None = None


class Ability(Spec, frozen=True, kw_only=True):
    id: str
    name: str
    pool: str                          # "leader" for leader abilities, "item" for items
    art: str = ""
    tier: int = 1
    ap: int
    mp: int = 0                        # the MP it takes from its user: a side effect (seed 000)
    tags: tuple[str, ...] = ()
    target: str                        # see `TARGETS`
    effectiveness: str = "default"     # default, friendly, sure
    needs_tag: str | None = None       # only affects targets with this TAG (seed 000, TAG)
    steps: tuple[Step, ...]
    text: str = ""


TARGETS = ("enemy_ring", "enemy_unit", "enemy_team", "self", "ally", "ally_team", "ally_bench",
           "dynamic", "field", "enemy_leader", "ally_leader")


class Unit(Spec, frozen=True, kw_only=True):
    id: str
    name: str
    role: str
    tags: tuple[str, ...]
    attributes: dict[str, int]         # hp, lp, mp, atk, def, skl, pry
    pools: dict[str, int]              # pool -> level (1-3)
    dynamics: tuple[Grant, ...] = ()   # Unit Dynamics
    gp: int                            # Growth Points budget
    text: str = ""


class Pool(Spec, frozen=True, kw_only=True):
    id: str
    name: str
    dynamics: tuple[str, str, str]     # its Pool Dynamics
    arts: dict[str, str]               # parent art id -> name
    text: str = ""


class Leader(Spec, frozen=True, kw_only=True):
    id: str
    name: str
    hp: int
    ap: int = 10
    swap_cost: int = 3
    item_cost: int = 1
    initiative: int = 0                # added to the initiative roll
    advantage: str                     # preview, boost, dynamic, battlefield
    boost_attr: str | None = None
    boost_bp: int = 0
    advantage_dynamic: Grant | None = None
    dynamics: tuple[Grant, ...] = ()   # Leader Dynamics
    abilities: tuple[str, ...] = ()    # unique leader abilities
    text: str = ""


class Item(Spec, frozen=True, kw_only=True):
    id: str
    name: str
    price: int                         # GP
    target: str
    tags: tuple[str, ...] = ()
    steps: tuple[Step, ...]
    text: str = ""

    def as_ability(self) -> Ability:
        return Ability(id=self.id, name=self.name, pool="item", ap=0, tags=self.tags, target=self.target,
                       effectiveness="sure", steps=self.steps, text=self.text)


class Equipment(Spec, frozen=True, kw_only=True):
    id: str
    name: str
    attributes: dict[str, int] = {}    # added to the base, before growth (seed 000)
    tags: tuple[str, ...] = ()
    add_pool: dict[str, int] = {}      # pool -> level
    replace_pool: dict[str, str] = {}  # old pool -> new pool (same level)
    upgrade_pool: str | None = None    # a pool id, "lowest" or "third"
    upgrade_levels: int = 1
    extra_slots: int = 0               # on every pool
    dynamics: tuple[Grant, ...] = ()   # Equipment Dynamics
    text: str = ""


class Battlefield(Spec, frozen=True, kw_only=True):
    id: str
    name: str
    dynamics: tuple[Grant, ...]
    text: str = ""


class Dynamic(Spec, frozen=True, kw_only=True):
    id: str
    name: str
    phase: str                         # before or after (seed 000, Check Phase)
    on: str = "unit"                   # what it attaches to: unit, team, field, dynamic
    value: int = 0                     # the kind's base number (see effects/dynamics.py)
    scale: int = 0                     # how much more per severity point
    threshold: int = 0
    tag: str | None = None
    text: str


class DeckUnit(Spec, frozen=True, kw_only=True):
    unit: str
    equipment: str | None = None
    growth: dict[str, int] = {}        # attribute -> GP spent
    slots: dict[str, int] = {}         # pool -> GP-bought extra slots
    levels: dict[str, int] = {}        # pool -> GP-bought levels
    priorities: tuple[str, ...] = ()   # ability ids, highest priority first


class Deck(Spec, frozen=True, kw_only=True):
    leader: str
    units: tuple[DeckUnit, ...]
    items: tuple[str, ...] = ()


def _records(raw: dict[str, Any], key: str, cls: type) -> dict[str, Any]:
    return {rid: msgspec.convert({"id": rid, **body}, type=cls) for rid, body in raw.get(key, {}).items()}


class Content(ContentFiles):
    TABLES = ("units", "pools", "abilities", "leaders", "items", "equipment", "battlefields", "dynamics", "decks")

    def __init__(self, directory: Path = CONTENT_DIR):
        super().__init__(directory)
        raw: dict[str, dict[str, Any]] = {}
        for name, body in self.files.items():
            for key, table in self.toml(name).items():
                clash = set(raw.setdefault(key, {})) & set(table)
                if clash:
                    raise ValueError(f"{name}: {key} {sorted(clash)[0]!r} is defined twice")
                raw[key].update(table)
        self.units: dict[str, Unit] = _records(raw, "units", Unit)
        self.pools: dict[str, Pool] = _records(raw, "pools", Pool)
        self.abilities: dict[str, Ability] = _records(raw, "abilities", Ability)
        self.leaders: dict[str, Leader] = _records(raw, "leaders", Leader)
        self.items: dict[str, Item] = _records(raw, "items", Item)
        self.equipment: dict[str, Equipment] = _records(raw, "equipment", Equipment)
        self.battlefields: dict[str, Battlefield] = _records(raw, "battlefields", Battlefield)
        self.dynamics: dict[str, Dynamic] = _records(raw, "dynamics", Dynamic)
        self.decks: dict[str, Deck] = {k: msgspec.convert(v, type=Deck) for k, v in raw.get("decks", {}).items()}
        self.item_abilities = {k: v.as_ability() for k, v in self.items.items()}
        self.pool_abilities: dict[str, tuple[Ability, ...]] = {
            pid: tuple(a for a in self.abilities.values() if a.pool == pid) for pid in self.pools}

    def ability(self, ability_id: str) -> Ability:
        found = self.abilities.get(ability_id) or self.item_abilities.get(ability_id)
        if found is None:
            raise KeyError(ability_id)
        return found



CONTENT = Content()
IN_FORCE = InForce(CONTENT, "ring_content")
content, playing = IN_FORCE.get, IN_FORCE.playing
