"""How rat resolves a command: the resolver every battle's commands run in, declared once."""
from __future__ import annotations

from domain.engine.hooks import Effect, Resolver, Resolving

from .evolve import evolve
from .hooks import HOOKS
from .state import Rat, effects


class RatResolver(Resolver[Rat]):
    @property
    def react_when_gone(self) -> bool:
        """A status an earlier reaction removed (a BLEEDING a heal cured, a POISONED that spared
        its holder) reacts no more since 1.2.0, as Showdown skips a status its holder lost;
        earlier battles recorded such reactions (`Rules.removed_statuses_react`)."""
        return self.state.rules.removed_statuses_react

    def holds(self, effect: Effect) -> bool:
        """`Resolver.holds` (the same kind and owner still in play), as `Rat.has` asks it: a
        loop rather than a generator, as it is asked of every reaction after the first."""
        return self.state.has(effect.owner, effect.kind)


RESOLVING: Resolving[Rat, RatResolver] = Resolving(hooks=HOOKS, effects=effects, evolve=evolve, resolver=RatResolver)
