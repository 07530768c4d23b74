"""Loads the TOML content (classes, characters, cards, talents, effects, keywords, boards) into
frozen records and hashes it."""
from __future__ import annotations

from functools import cached_property
from pathlib import Path

import msgspec

from domain.engine.content import ContentFiles, InForce
from domain.engine.grid import Cell, Grid, cell_bits

CONTENT_DIR = Path(__file__).parent / "content"
TARGETS = ("self", "ally", "enemy", "all_allies", "all_enemies")


class Tier(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    power: int
    armor: int


class Class(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    ranged: bool
    power: str
    armor: str
    skill: str


class Party(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    text: str = ""
    raid_only: bool = False         # a boss's brood: never part of a player's team


class Character(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    party: str
    cls: str = msgspec.field(name="class")
    talent: str
    cards: tuple[str, ...]
    power: str | None = None        # a tier other than the class's (a boss)
    armor: str | None = None
    armor_scale: int = 1            # a raid boss's armor is its tier's times this
    copies: int | None = None       # copies of each unique card other than params.unique_copies


class Step(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    do: str
    amount: int = 0
    count: int = 0
    effect: str | None = None


class Card(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    cost: int
    target: str
    owner: str | None = None        # a character's unique card
    cls: str | None = msgspec.field(default=None, name="class")   # a class's basic skill
    range: int | None = None
    keyword: str | None = None
    effects: tuple[Step, ...] = ()
    keyed: tuple[Step, ...] = ()
    text: str = ""


class Rule(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A talent, effect or keyword: its name and text; `when` (talents) or `lasts` (effects)."""
    id: str
    name: str
    text: str
    when: str | None = None         # prologue, epilogue or interlude
    lasts: str | None = None        # timed (until the start of the giver's next turn) or consumed


class Boss(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    boss: str
    escorts: tuple[str, ...]
    text: str = ""


class Board(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, dict=True):
    id: str
    name: str
    rows: tuple[str, ...]
    default_for: str = ""           # the mode ("duel", "raid") a setup naming no board plays on it

    @cached_property
    def grid(self) -> Grid:
        return Grid(len(self.rows[0]), len(self.rows))

    def cells_marked(self, mark: str) -> tuple[Cell, ...]:
        return tuple(Cell(col=c, row=r) for r, line in enumerate(self.rows)
                     for c, ch in enumerate(line) if ch == mark)

    @cached_property
    def rocks(self) -> frozenset[Cell]:
        return frozenset(self.cells_marked("#"))

    @cached_property
    def rock_bits(self) -> int:
        """The rocks as bits of the grid (`domain.engine.grid.cell_bits`): what a walk cannot enter."""
        return cell_bits(self.grid, self.rocks)

    @cached_property
    def tiles_by_byte(self) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
        """Tiles as bits of the grid, a byte at a time: `[k][byte]` holds the (col, row) of the
        tiles whose bits are set in `byte`, the k-th byte (little-endian), in reading order."""
        cells = self.grid.cells()
        return tuple(tuple(tuple((cells[n].col, cells[n].row) for n in range(8 * k, min(8 * k + 8, len(cells)))
                                 if byte >> (n - 8 * k) & 1) for byte in range(256))
                     for k in range((len(cells) + 7) // 8))

    @cached_property
    def tiles(self) -> dict[tuple[int, int], Cell]:
        """Each tile's cell by its (col, row)."""
        return {(cell.col, cell.row): cell for cell in self.grid.cells()}

    def zone(self, seat: str) -> tuple[Cell, ...]:
        return self._zones[seat == "p1"]

    @cached_property
    def _zones(self) -> dict[bool, tuple[Cell, ...]]:
        """The deployment zones: p1's ("a" tiles) under True, p2's ("b") under False."""
        return {True: self.cells_marked("a"), False: self.cells_marked("b")}


def _table(raw: dict[str, dict[str, object]], kind: type[msgspec.Struct]) -> dict[str, msgspec.Struct]:
    return {key: msgspec.convert({"id": key, **body}, type=kind) for key, body in raw.items()}


class Content(ContentFiles):
    TABLES = ("classes", "parties", "characters", "cards", "talents", "effects", "keywords", "bosses", "boards")

    def __init__(self, directory: Path = CONTENT_DIR):
        super().__init__(directory)
        classes, chars, rules = self.toml("classes.toml"), self.toml("characters.toml"), self.toml("rules.toml")
        self.tiers = {k: msgspec.convert(v, type=Tier) for k, v in classes["tiers"].items()}
        self.classes: dict[str, Class] = _table(classes["classes"], Class)  # type: ignore[assignment]
        self.parties: dict[str, Party] = _table(chars["parties"], Party)  # type: ignore[assignment]
        self.characters: dict[str, Character] = _table(chars["characters"], Character)  # type: ignore[assignment]
        self.bosses: dict[str, Boss] = _table(chars["bosses"], Boss)  # type: ignore[assignment]
        self.cards: dict[str, Card] = _table(self.toml("cards.toml")["cards"], Card)  # type: ignore[assignment]
        self.talents: dict[str, Rule] = _table(rules["talents"], Rule)  # type: ignore[assignment]
        self.effects: dict[str, Rule] = _table(rules["effects"], Rule)  # type: ignore[assignment]
        self.keywords: dict[str, Rule] = _table(rules["keywords"], Rule)  # type: ignore[assignment]
        self.boards: dict[str, Board] = _table(self.toml("boards.toml")["boards"], Board)  # type: ignore[assignment]

    def as_json(self) -> dict[str, object]:
        shown = super().as_json()
        shown["tiers"] = {k: msgspec.to_builtins(v) for k, v in self.tiers.items()}
        return shown

    def stats(self, character: str) -> tuple[int, int]:
        """A character's power and armor: its class's tiers, or its own (a boss)."""
        c = self.characters[character]
        cls = self.classes[c.cls]
        power = self.tiers[c.power or cls.power].power
        return power, self.tiers[c.armor or cls.armor].armor * c.armor_scale

    def pool(self, character: str, class_copies: int, unique_copies: int) -> tuple[str, ...]:
        """Seed 001, Cards: 4 copies of the class skill card and 3 of each unique card."""
        c = self.characters[character]
        skill = self.classes[c.cls].skill
        copies = c.copies if c.copies is not None else unique_copies
        return (skill,) * class_copies + tuple(card for card in c.cards for _ in range(copies))


CONTENT = Content()
IN_FORCE = InForce(CONTENT, "skirmish_content")
content, playing = IN_FORCE.get, IN_FORCE.playing
CARDS = CONTENT.cards
