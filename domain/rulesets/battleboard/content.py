"""Loads the TOML content (tokens, actions, archetypes, upgrades, weapons, armor, foes, maps)
into frozen records and hashes it."""
from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import msgspec

from domain.engine.content import ContentFiles, InForce

T = TypeVar("T", bound=msgspec.Struct)

CONTENT_DIR = Path(__file__).parent / "content"
KINDS = ("attack", "tactics", "guard", "move")
PATTERNS = ("single", "scatter", "flurry", "line", "burst", "path", "wave")
TARGETS = ("enemy", "ally", "self")
RANKS = ("mob", "elite", "boss")
MOVEMENT = ("flight", "swimming", "climbing", "bull_rush")
STATS = ("speed", "evasion", "defense", "resilience", "focus", "energy")
AFFINITIES = ("air", "earth", "fire", "water")
# Map legend: one character per cell. Digits are elevated terrain of that level.
TERRAIN = {".": "plain", "d": "difficult", "c": "challenging", "#": "barrier", "h": "hazardous",
           "o": "obscuring", "~": "liquid"}


class Token(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An effect token of seed 002 (Effects): `negative` ones are what Heroic can eliminate;
    `immediate` ones (Wound) act when applied and are never kept."""
    id: str
    name: str
    text: str
    negative: bool
    immediate: bool = False


class Step(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One thing a non-attack action does, by registered id (`do`): untap tokens, gain
    movement, grant a movement type, give an effect token, take a guard stance..."""
    do: str
    amount: int = 0
    token: str | None = None
    movement: str | None = None
    stance: str | None = None


class Action(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    kind: str                       # attack, tactics, guard or move
    text: str
    target: str = "self"            # enemy (attacks), ally (an ally or yourself) or self
    pattern: str = "single"
    dice: str | None = None         # "Nd*M+K": an attack
    range: int = 0                  # from an origin on or next to the movement path
    effects: tuple[str, ...] = ()   # effect tokens applied on a tap (tactics) or a break (attack)
    steps: tuple[Step, ...] = ()
    energy: int = 0
    focus: int = 0
    repeatable: bool = False
    basic: bool = False             # open to every combatant (seed 002, Basic Actions)


class Upgrade(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What leveling up unlocks, by registered id (`effect`): an action, a stat, a movement type."""
    id: str
    name: str
    text: str
    effect: str                     # action, stat, movement or teleport
    action: str | None = None
    stat: str | None = None
    movement: str | None = None
    amount: int = 0


class Archetype(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    text: str
    powers: tuple[str, ...]         # base powers: action ids
    upgrades: tuple[str, ...]       # exactly 10 upgrade ids


class Weapon(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    slot: str                       # primary or secondary
    text: str
    actions: tuple[str, ...]


class Armor(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    speed: int = 0
    evasion: int = 0
    defense: int = 0


class Foe(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    rank: str                       # mob, elite or boss
    text: str
    speed: int
    evasion: int
    defense: int
    resilience: int
    focus: int = 0                  # mobs have neither focus nor energy, elites energy only
    energy: int = 0
    actions: tuple[str, ...]
    movement: tuple[str, ...] = ()
    teleport: int = 0


class Map(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Rows from row 0 (the heroes' edge) to row 5 (the foes' edge), one legend character a cell."""
    id: str
    name: str
    text: str
    rows: tuple[str, ...]

    def terrain(self, col: int, row: int) -> str:
        mark = self.rows[row][col]
        return "elevated" if mark.isdigit() else TERRAIN[mark]

    def level(self, col: int, row: int) -> int:
        mark = self.rows[row][col]
        return int(mark) if mark.isdigit() else 0


class Encounter(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A ready-made foes side: foe ids (repeats allowed) and the map it is fought on."""
    id: str
    name: str
    foes: tuple[str, ...]
    map: str


class Preset(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A ready-made character: a setup may name it instead of giving the whole build."""
    id: str
    name: str
    cls: tuple[str, str] = msgspec.field(name="class")
    affinities: dict[str, int]
    weapons: tuple[str, ...]
    armor: str
    level: int = 1
    upgrades: tuple[str, ...] = ()


class BattleboardContent(ContentFiles):
    TABLES = ("tokens", "actions", "archetypes", "upgrades", "weapons", "armor", "foes", "maps",
              "encounters", "presets")

    def __init__(self, directory: Path = CONTENT_DIR):
        super().__init__(directory)
        self.tokens = self._load("tokens.toml", "tokens", Token)
        self.actions = self._load("actions.toml", "actions", Action)
        self.archetypes = self._load("archetypes.toml", "archetypes", Archetype)
        self.upgrades = self._load("upgrades.toml", "upgrades", Upgrade)
        self.weapons = self._load("equipment.toml", "weapons", Weapon)
        self.armor = self._load("equipment.toml", "armor", Armor)
        self.foes = self._load("foes.toml", "foes", Foe)
        self.maps = self._load("maps.toml", "maps", Map)
        self.encounters = self._load("maps.toml", "encounters", Encounter)
        self.presets = self._load("presets.toml", "presets", Preset)
        self.basic = tuple(a.id for a in self.actions.values() if a.basic)
        self._cells: dict[str, dict[tuple[int, int], tuple[str, int]]] = {}
        # Each map's tables at each board size (`layout.layout_of`), built from this content once.
        self.layouts: dict[tuple[str, int, int], Any] = {}

    def cells(self, map_id: str) -> dict[tuple[int, int], tuple[str, int]]:
        """Each cell of a map, (col, row) -> (terrain, level), read once."""
        found = self._cells.get(map_id)
        if found is None:
            m = self.maps[map_id]
            found = {(c, r): (m.terrain(c, r), m.level(c, r)) for r in range(len(m.rows)) for c in range(len(m.rows[r]))}
            self._cells[map_id] = found
        return found

    def _load(self, file: str, table: str, cls: type[T]) -> dict[str, T]:
        raw = self.toml(file).get(table, {}) if file in self.files else {}
        return {key: msgspec.convert({"id": key, **value}, type=cls) for key, value in raw.items()}


# Today's content, for declaring the ruleset. The rules read the content in force through
# `content()`: a kept release plays its own (`domain.engine.releases`).
CONTENT = BattleboardContent()
IN_FORCE = InForce(CONTENT, "battleboard_content")
content, playing = IN_FORCE.get, IN_FORCE.playing
