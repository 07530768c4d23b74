"""The queries battleboard's stances modify (BEFORE hooks change them; they are not events),
the hook registry `HOOKS`, and the answers views and legal commands read from them."""
from __future__ import annotations

from typing import TypeVar

import msgspec

from domain.engine.hooks import Hooks, modify

from .state import Battleboard, Combatant, effects

HOOKS = Hooks()
Q = TypeVar("Q", bound=msgspec.Struct)


class DefenseQuery(msgspec.Struct, frozen=True, kw_only=True):
    """The Defense an attack on `target` compares with."""
    target: str
    defense: int


class EvasionQuery(msgspec.Struct, frozen=True, kw_only=True):
    """The evasion `target`'s hit dice must beat."""
    target: str
    evasion: int


def ask(s: Battleboard, query: Q) -> Q:
    """The query after every stance's modifiers (for views and legal commands; `decide` asks
    its resolver, which logs each stance that changed it)."""
    answer: Q = modify(HOOKS, effects(s), s, query)[0]
    return answer


def defense_of(s: Battleboard, unit: Combatant) -> int:
    return ask(s, DefenseQuery(target=unit.id, defense=unit.defense)).defense


def evasion_of(s: Battleboard, unit: Combatant) -> int:
    return ask(s, EvasionQuery(target=unit.id, evasion=unit.evasion)).evasion
