"""Rat's content: party members, enemies, actions (moves, intrinsic moves, consumables),
ailments, equipment and formations, loaded from TOML into frozen records and hashed.

Behaviour is named by id: an action's `steps` name registered steps (`steps.py`),
an ailment's or equipment's `effect` names a registered hook kind (`effects/`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from domain.engine.content import ContentFiles, InForce

CONTENT_DIR = Path(__file__).parent / "content"

STATS = ("atk", "def", "spd")
SLOT_KINDS = ("weapon", "clothing", "trinket", "special")
TARGETS = ("enemy", "ally", "self", "self_or_ally", "all_enemies", "all_allies", "any")
AI_LEVELS = ("random", "no_memory", "memory")


class Step(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One part of an action: `do` names a registered step; the rest are its numbers."""
    do: str
    power: int = 0              # damage: percent of the user's ATK
    amount: int = 0             # heal: flat HP; stat: levels; priority: points; pp: PP
    pct: int = 0                # heal: percent of the target's max HP
    ailment: str = ""           # ailment, cure
    chance: int = 100           # ailment: percent
    stat: str = ""              # stat
    who: str = "target"         # stat, priority, heal: "target" or "user"


class Action(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A move (PP), an intrinsic move (no PP) or a consumable (used up)."""
    id: str
    name: str
    kind: str                   # "move", "intrinsic" or "consumable"
    target: str                 # one of TARGETS
    pp: int = 0                 # a move's maximum PP
    priority: int = 0           # the user's priority boost for the turn it is chosen
    steps: tuple[Step, ...] = ()
    text: str = ""

    @property
    def damaging(self) -> bool:
        return any(s.do == "damage" for s in self.steps)

    @property
    def afflicting(self) -> bool:
        return any(s.do == "ailment" for s in self.steps)

    @property
    def lowering(self) -> bool:
        return any(s.do == "stat" and s.amount < 0 and s.who == "target" for s in self.steps)


class Being(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What every entity has (seed 003, Stats): base HP, ATK, DEF, SPD and priority."""
    id: str
    name: str
    hp: int
    atk: int
    defense: int = msgspec.field(name="def")
    spd: int
    priority: int = 0


class Member(Being, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A playable character (seed 003, Equipment Slots)."""
    ev_budget: int
    slots: dict[str, int]       # weapon, clothing, trinket: how many
    special: str = ""           # the special slot: "mouse", "backpack", "glasses", "hat" or ""
    protect: bool = True        # shares the PROTECT intrinsic move
    intrinsic: tuple[str, ...] = ()     # its own intrinsic moves beyond STRIKE and PROTECT
    moves: tuple[str, ...] = ()         # moves it can learn; a setup picks up to max_moves
    default_moves: tuple[str, ...] = ()
    consumable_slots: int = 2
    text: str = ""


class Enemy(Being, frozen=True, kw_only=True, forbid_unknown_fields=True):
    boss: bool = False
    intrinsic: tuple[str, ...] = ()     # beyond STRIKE
    moves: dict[str, tuple[str, ...]]   # AI level -> its moveset at that level
    equipment: tuple[str, ...] = ()
    ai_value: int = 100                 # how much the planning AIs value helping it (bosses more)
    immune: tuple[str, ...] = ()        # ailments it never gains (README, "Bosses")
    text: str = ""


class Ailment(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A status ailment (seed 003, 2.1.4): its duration (0: infinite), its stat modifiers in
    percent (100: no change), and the registered hook kind that gives its behaviour."""
    id: str
    name: str
    duration: int = 0
    atk_pct: int = 100
    def_pct: int = 100
    spd_pct: int = 100
    spd_floor: bool = False     # SPD is treated as negative infinity
    effect: str = ""            # a registered hook kind ("" if the modifiers are all)
    ai_value: int = 20          # what an AI thinks inflicting it is worth
    text: str = ""


class Equipment(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    kind: str                   # one of SLOT_KINDS
    hp: int = 0
    atk: int = 0
    defense: int = msgspec.field(name="def", default=0)
    spd: int = 0
    special: str = ""           # for kind "special": the slot it fits ("mouse", "backpack", ...)
    only: str = ""              # for kind "special": the member who can wear it
    effect: str = ""            # a registered passive (hook kind)
    grants: str = ""            # an intrinsic move it gives (mouse-sized items)
    consumable_slots: int = 0   # a backpack's slots
    analyze: str = ""           # glasses: how ANALYZE changes ("varifocal", "all", "speed")
    forbids_protect: bool = False
    start_levels: dict[str, int] = {}   # stat levels the wearer starts each battle with
    text: str = ""


class FormationSlot(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    enemy: str
    ai: str                     # one of AI_LEVELS


class Formation(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    name: str
    enemies: tuple[FormationSlot, ...]
    text: str = ""


def _table(raw: dict[str, Any], cls: type[Any]) -> dict[str, Any]:
    return {key: msgspec.convert({"id": key, **body}, type=cls) for key, body in raw.items()}


class Content(ContentFiles):
    TABLES = ("members", "enemies", "actions", "ailments", "equipment", "formations")

    def __init__(self, directory: Path = CONTENT_DIR):
        super().__init__(directory)
        self.members: dict[str, Member] = _table(self.toml("members.toml"), Member)
        self.enemies: dict[str, Enemy] = _table(self.toml("enemies.toml"), Enemy)
        self.actions: dict[str, Action] = {**_table(self.toml("moves.toml"), Action),
                                           **_table(self.toml("consumables.toml"), Action)}
        self.ailments: dict[str, Ailment] = _table(self.toml("ailments.toml"), Ailment)
        self.equipment: dict[str, Equipment] = _table(self.toml("equipment.toml"), Equipment)
        self.formations: dict[str, Formation] = _table(self.toml("formations.toml"), Formation)
        # The actions that name one of the user's moves (STUTTER_POTION): read for every option listed.
        self.stutters = frozenset(a.id for a in self.actions.values() if any(s.do == "stutter" for s in a.steps))
        # The actions a PROTECT blocks (`turn.blocked`): read for every target of every action.
        self.blockable = frozenset(a.id for a in self.actions.values() if a.damaging or a.afflicting or a.lowering)
        # The equipment whose wearer may not choose PROTECT (`legal.forbids_protect`): read for
        # every listing of a member's options.
        self.forbidding = frozenset(q.id for q in self.equipment.values() if q.forbids_protect)

    def immune(self, enemy: str, ailment: str) -> bool:
        """Whether the enemy kind `enemy` never gains `ailment` (its `immune`; any other id: no)."""
        kind = self.enemies.get(enemy)
        return kind is not None and ailment in kind.immune

    def as_json(self) -> dict[str, object]:
        """The content as `GET /rulesets` lists it. An enemy's base HP stays on the server: the
        party may never learn an enemy's HP (seed 003, In-Battle UI), and its max HP is that
        base plus its equipment's, which the listing shows."""
        shown = super().as_json()
        shown["enemies"] = {k: {f: v for f, v in msgspec.to_builtins(e).items() if f != "hp"}
                            for k, e in self.enemies.items()}
        return shown


CONTENT = Content()
IN_FORCE = InForce(CONTENT, "rat_content")
content, playing = IN_FORCE.get, IN_FORCE.playing
