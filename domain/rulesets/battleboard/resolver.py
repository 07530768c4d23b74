"""The resolver that runs a battleboard batch (`RESOLVING` builds it), and the move every rule
shares: losing a defense token, or the combatant with none left."""
from __future__ import annotations

from domain.engine.events import Event
from domain.engine.hooks import Resolver, Resolving

from . import events as ev
from .evolve import evolve
from .hooks import HOOKS
from .state import Battleboard, effects, other


class BoardResolver(Resolver[Battleboard]):
    """A battleboard batch: the combat ends once a side has lost every combatant."""

    FOLLOWS = frozenset({ev.Defeated})      # `follow` is about a defeat only

    def follow(self, event: Event) -> None:
        """Seed 002, Initiative: combat is decided by one side losing all its combatants."""
        if isinstance(event, ev.Defeated) and self.state.ended is None:
            side = self.state.units[event.unit].side
            if not self.state.living(side):
                self.emit(ev.CombatEnded(winner=other(side), reason=f"every combatant of the {side} was defeated"))

    @property
    def over(self) -> bool:
        return self.state.ended is not None


RESOLVING: Resolving[Battleboard, BoardResolver] = Resolving(hooks=HOOKS, effects=effects, evolve=evolve,
                                                             resolver=BoardResolver)


def lose_token(b: BoardResolver, key: str, reason: str, *, prefer: str = "untapped", broken: bool = False) -> None:
    """Give up a defense token. A tap (`broken` False) taps an untapped token or discards a tapped
    one; a break discards an untapped token or two tapped ones. `prefer` picks where both are
    possible; otherwise what is possible is paid (a break on one tapped token discards it). A
    combatant with no token left to give up is defeated."""
    u = b.state.units[key]
    if u.defeated:
        return
    if u.tokens_left == 0:
        b.emit(ev.Defeated(unit=key))
        return
    if not broken:
        if u.untapped and (prefer == "untapped" or not u.tapped):
            b.emit(ev.TokenTapped(unit=key, reason=reason))
        else:
            b.emit(ev.TokenDiscarded(unit=key, tapped=True, reason=reason))
        return
    if u.untapped and (prefer == "untapped" or u.tapped < 2):
        b.emit(ev.TokenDiscarded(unit=key, tapped=False, reason=reason))
        return
    for _ in range(min(2, u.tapped)):
        b.emit(ev.TokenDiscarded(unit=key, tapped=True, reason=reason))
