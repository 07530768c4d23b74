"""Queries the hooks modify (seed 003's modifiers and on_* callbacks), and the resolver."""
from __future__ import annotations

import msgspec

from domain.engine.events import Event
from domain.engine.hooks import Hooks, Resolver
from domain.engine.rng import Rng

from ..evolve import evolve
from ..state import Rat, effects

HOOKS = Hooks()


class StatQuery(msgspec.Struct, frozen=True, kw_only=True):
    """A stat in effect: ailments scale it (percent), and some floor SPD at -infinity."""
    entity: str
    stat: str
    pct: int = 100
    floor: bool = False


class CanAct(msgspec.Struct, frozen=True, kw_only=True):
    """Whether an entity may act this turn; `reason` names what stops it."""
    entity: str
    turn: int
    reason: str = ""


class Aging(msgspec.Struct, frozen=True, kw_only=True):
    """How far a status's elapsed counter advances at the start of `turn`."""
    entity: str
    kind: str
    turn: int
    step: int = 1


class Affliction(msgspec.Struct, frozen=True, kw_only=True):
    """An ailment about to be added: `result` is "gain", "immune", "freeze" (CHILLED twice)
    or "cure" (the ailments in `cures` are cured instead: BURNED cures FROZEN and CHILLED)."""
    entity: str
    kind: str
    result: str = "gain"
    cures: tuple[str, ...] = ()


class KoCheck(msgspec.Struct, frozen=True, kw_only=True):
    """An entity reached 0 HP: "knocked_out", "killed" (AT_RISK) or "spared:<by>"."""
    entity: str
    result: str = "knocked_out"


class Selectable(msgspec.Struct, frozen=True, kw_only=True):
    entity: str
    action: str
    allowed: bool = True


class StrikeQuery(msgspec.Struct, frozen=True, kw_only=True):
    """A STRIKE about to resolve: `heal_pct` > 0 makes it a heal of the user instead."""
    entity: str
    heal_pct: int = 0


class TurnEnding(Event, frozen=True, kw_only=True):
    """One entity's end of turn, in queue order: what its on_turn_end effects react to."""
    TOPIC = "rat.TurnEnding"
    turn: int
    entity: str


class RatResolver(Resolver[Rat]):
    def __init__(self, state: Rat, rng: Rng):
        super().__init__(state, evolve, HOOKS, effects, rng)

    @property
    def react_when_gone(self) -> bool:
        """A status an earlier reaction removed (a BLEEDING a heal cured, a POISONED that spared
        its holder) reacts no more since 1.2.0, as Showdown skips a status its holder lost;
        earlier battles recorded such reactions (`Rules.removed_statuses_react`)."""
        return self.state.rules.removed_statuses_react


@evolve.on()
def _(e: TurnEnding, s: Rat) -> Rat:
    return s
