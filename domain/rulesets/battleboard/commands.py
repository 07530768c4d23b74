"""Battleboard commands, as sent on the wire (`{"type": "act", ...}`).

A command's fields are declared once, on its field base (`MoveFields`, ...): the action event
that echoes the command (events.py) takes them from there, after its seat."""
from __future__ import annotations

import msgspec

from domain.engine.events import Command, CommandCodec


class ChooseFields(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    go: str


class MoveFields(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    unit: str
    to: tuple[int, int]


class ConvertFields(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    unit: str


class ActFields(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    unit: str
    action: str
    targets: tuple[str, ...] = ()
    row: int | None = None
    col: int | None = None
    at: tuple[int, int] | None = None
    reroll: int = 0


class DefendFields(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    lose: str
    focus: int = 0


class Choose(ChooseFields, Command, frozen=True, tag="choose"):
    """The side that won the initiative roll goes `first` or `second`."""


class Place(Command, frozen=True, tag="place"):
    """Arrange one combatant on a cell of its side's section (hidden until both sides arranged)."""
    unit: str
    cell: tuple[int, int]


class Move(MoveFields, Command, frozen=True, tag="move"):
    """One step of the movement path: to a cell next to the combatant, or a teleport jump
    straight across the cells it skips."""


class Convert(ConvertFields, Command, frozen=True, tag="convert"):
    """Turn one focus point into movement points."""


class Act(ActFields, Command, frozen=True, tag="act", omit_defaults=True):
    """Take an action. `targets` names combatants (single, scatter, flurry, ally); `row` a line,
    `col` the middle column of a wave, `at` a burst's centre or a path's end; `reroll` the focus
    the attacker may spend rerolling missed dice."""


class Defend(DefendFields, Command, frozen=True, tag="defend", omit_defaults=True):
    """The attacked combatant's choice: lose an `untapped` token (tap it, or discard it on a
    break) or `tapped` ones (discard one, or two on a break); `focus` raises its Defense."""


class Advance(Command, frozen=True, tag="advance"):
    """Take the row the enemy left empty at the end of its turn."""


class EndTurn(Command, frozen=True, tag="end_turn"):
    """This seat's combatants are done for the turn."""


BattleboardCommand = Choose | Place | Move | Convert | Act | Defend | Advance | EndTurn
CODEC = CommandCodec((Choose, Place, Move, Convert, Act, Defend, Advance, EndTurn))
