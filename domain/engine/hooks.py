"""Effect instances, registered hooks, and the resolve loop that runs them inside `decide`.

A BEFORE modifier may change or cancel a proposed event (or a query such as a cost);
an AFTER reaction returns new events. Handlers run in a deterministic order: phase
priority, then the source order of effects in state, then the kind id. Every hook that
changes something leaves an `EffectTriggered` event, so the log explains itself.
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from .errors import ResolveDepthExceeded
from .hook_plans import PLANNED_EFFECTS, Handler, Known, known_effects, planned
from .events import Event
from .registry import Registry, caller_place
from .decision import Decision

S = TypeVar("S")
EventT = TypeVar("EventT", bound=Event)
R = TypeVar("R", bound="Resolver[Any]")


class Phase(enum.IntEnum):
    BEFORE = 0
    AFTER = 1


# Reading an enum member costs a class attribute lookup: the hot paths below use these.
_BEFORE, _AFTER = Phase.BEFORE, Phase.AFTER


class Effect(msgspec.Struct, frozen=True, kw_only=True):
    """An effect instance living in state: what it is, whose it is, how strong, how old."""
    kind: str
    owner: str
    severity: int = 1
    stacks: int = 1
    turns: int = 0
    source: str = ""


class BoundEffect(Effect, frozen=True, kw_only=True):
    """An effect bound to one subject, such as the unit that carries it. A handler registered
    with `subject="unit"` is not called for an event whose `unit` is another one (see
    `Hooks.hook`)."""
    subject: str | None = None


class EffectTriggered(Event, frozen=True, kw_only=True):
    TOPIC = "engine.EffectTriggered"
    kind: str
    owner: str
    on: str
    cancelled: bool = False


class HookContext(msgspec.Struct, frozen=True):
    effect: Effect
    resolver: Any


# A handler in a plan: its effect, the handler, and the event field naming the subject it is
# bound to (`Hooks.hook`'s `subject`, for a `BoundEffect`), or None.
Row = tuple[Effect, Handler, "str | None"]


class HandlerTable:
    """An `evolve` that keeps one handler per event type (the engine's `Reducer`) offers them
    here, so the resolver calls the one an event needs directly: one call less per event."""
    handlers: dict[type, Callable[[Any, Any], Any]]


def unchanged(event: Any, state: Any) -> Any:
    """The handler of an event that changes no state (it only explains the log, as an
    `EffectTriggered` does): a resolver that finds it need not call it."""
    return state


class Hooks:
    """A ruleset's hook registry: `@hooks.hook(Phase.BEFORE, on=DamageDealt, kind="armor")`."""

    def __init__(self) -> None:
        self._registered: Registry[tuple[str, Phase, str], Handler] = Registry("hook")
        # The types some kind hooks, by phase: the fast paths test membership here.
        self.before: set[type] = set()
        self.after: set[type] = set()
        # (phase, type) -> kind -> [(priority, handler, subject field)]: what a plan picks from.
        self._table: dict[tuple[Phase, type], dict[str, list[tuple[int, Handler, str | None]]]] = {}
        # id(effects) -> what is kept of that tuple (`hook_plans.Known`). The entry holds the effects
        # themselves, so no other sequence can reuse that id while it lives.
        self._by_identity: dict[int, Known] = {}
        self.kinds: set[str] = set()
        self._kinds_on: dict[tuple[Phase, type], frozenset[str]] = {}      # `kinds_on`, as asked
        self._around: dict[type, frozenset[type] | None] = {}              # `around`, as asked

    def hook(self, phase: Phase, *, on: type, kind: str, priority: int = 0,
             subject: str | None = None) -> Callable[[Handler], Handler]:
        """Register one handler per (kind, phase, event type); a second one is refused, naming both.

        `subject` names a field of `on` that the handler changes nothing unless it equals the
        subject of a `BoundEffect` (the handler's own test, say `e.unit == carrier`): events
        about another subject then skip the call. The order of the calls made is unchanged."""
        place = caller_place(2)

        def register(fn: Handler) -> Handler:
            self._registered.add((kind, phase, on.__name__), fn, place)
            self._table.setdefault((phase, on), {}).setdefault(kind, []).append((priority, fn, subject))
            (self.before if phase == _BEFORE else self.after).add(on)
            self._by_identity.clear()
            self._kinds_on.clear()
            self._around.clear()
            self.kinds.add(kind)
            return fn
        return register

    def around(self, resolver: type[Resolver[Any]]) -> frozenset[type] | None:
        """The event types something runs around in a resolver of this class: a modifier, a
        reaction, its `settle` or its `follow` (None: every type, as a `settle` or `follow`
        about every type has it). `Resolver.apply` records any other type at once."""
        if resolver in self._around:
            return self._around[resolver]
        settles, follows = resolver._settles, resolver._follows
        found = None if settles is None or follows is None else frozenset(self.before | self.after | settles | follows)
        self._around[resolver] = found
        return found

    def kinds_on(self, phase: Phase, on: type) -> frozenset[str]:
        """The effect kinds with a handler on this phase of `on`: with none of them in force, a
        pass over `on` changes nothing, so a caller may skip building what it would ask."""
        found = self._kinds_on.get((phase, on))
        if found is None:
            found = self._kinds_on[(phase, on)] = frozenset(self._table.get((phase, on), ()))
        return found

    def hooked(self, phase: Phase, on: type) -> bool:
        """Whether any effect kind hooks this phase of this type (the fast path skips the rest)."""
        return on in (self.before if phase == _BEFORE else self.after)

    def handlers(self, phase: Phase, on: type, effects: Sequence[Effect]) -> list[tuple[Effect, Handler]]:
        """Every handler of `on` in effect, in order, each with its effect."""
        return [(effect, fn) for effect, fn, _ in self.plan(phase, on, effects)]

    def plan(self, phase: Phase, on: type, effects: Sequence[Effect]) -> list[Row]:
        """`handlers`, each with the event field it is bound by (None: called for every event):
        the caller skips a row whose field in the event is not the effect's subject."""
        # Rulesets hand back the same effects tuple while nothing changes: look it up by
        # identity first, which spares hashing every effect record on the hot path.
        known = self._by_identity.get(id(effects))
        if known is None or known[0] is not effects:
            if len(self._by_identity) > PLANNED_EFFECTS:
                self._by_identity.clear()
            known = self._by_identity[id(effects)] = known_effects(effects)
        plans = known[1] if phase == _BEFORE else known[2]
        plan = plans.get(on)
        if plan is None:
            plan = plans[on] = planned(self._table.get((phase, on)), self.kinds_on(phase, on), known, BoundEffect)
        return plan



class Resolver(Generic[S]):
    """Applies events one at a time during `decide`, running hooks around each.

    `state` is the state after every event emitted so far; `events` is the batch.
    """
    # The event types a subclass's `settle` and `follow` are about; None: every type.
    SETTLES: ClassVar[frozenset[type] | None] = None
    FOLLOWS: ClassVar[frozenset[type] | None] = None
    # The types `emit` calls them for (None: every type): none where a subclass keeps the
    # default. `emit` runs for every event of every batch, and skips calls that change nothing.
    _settles: ClassVar[frozenset[type] | None] = frozenset()
    _follows: ClassVar[frozenset[type] | None] = frozenset()
    # Whether an effect that an earlier reaction to the same event removed still reacts. A
    # ruleset's versions may differ; a version that recorded such reactions keeps them, as
    # re-simulation must reproduce them. Showdown's runEvent skips a status its holder lost.
    REACT_WHEN_GONE: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._settles = frozenset() if cls.settle is Resolver.settle else cls.SETTLES
        cls._follows = frozenset() if cls.follow is Resolver.follow else cls.FOLLOWS

    def __init__(self, state: S, evolve: Callable[[S, Event], S], hooks: Hooks,
                 effects: Callable[[S], Sequence[Effect]], rng: Any, *, depth_cap: int = 24):
        self.state = state
        self.events: list[Event] = []
        # Events a BEFORE modifier asks for (it cannot emit while the event is being changed):
        # each is emitted, in order, once the emit of the event it changed has returned.
        self.scheduled: list[Event] = []
        self.rng = rng
        self._evolve = evolve
        # Where `evolve` has no handler for a type (or no table at all), it is called itself.
        self._handlers: dict[type, Callable[..., Any]] = evolve.handlers if isinstance(evolve, HandlerTable) else {}
        self._hooks = hooks
        self._effects = effects
        self._depth = 0
        self._cap = depth_cap
        # The hooks' own sets, not copies: a hook registered later is still seen.
        self._before = hooks.before
        self._after = hooks.after
        self._around = hooks.around(type(self))

    def query(self, proposal: Any) -> Any:
        """Run BEFORE modifiers over a query (a cost, a draw count) and return the result."""
        if type(proposal) not in self._before:
            return proposal
        result = modify(self._hooks, self._effects(self.state), self.state, proposal, self)
        for effect in result[1]:
            self._record(EffectTriggered(kind=effect.kind, owner=effect.owner, on=type(proposal).__name__))
        return result[0]

    def emit(self, event: EventT) -> EventT | None:
        """Propose `event`: modifiers may change or cancel it; reactions then follow it.
        A modifier hands back an event of the type it was given (or None), so the result has it too."""
        self._depth += 1
        try:
            if self._depth > self._cap:
                raise ResolveDepthExceeded(f"hook reactions nested deeper than {self._cap} at {event.TOPIC}")
            # A modifier or `settle` hands back an event of the type it was given, or None.
            kind = type(event)
            final: EventT | None = self._modified(event) if kind in self._before else event
            settles = self._settles
            if final is not None and (settles is None or kind in settles):
                final = self.settle(final)
            if final is not None:
                # `_record`, inlined: this runs for every event of every batch.
                handler = self._handlers.get(kind)
                if handler is None:
                    self.state = self._evolve(self.state, final)
                elif handler is not unchanged:
                    self.state = handler(final, self.state)
                self.events.append(final)
                follows = self._follows
                if follows is None or kind in follows:
                    self.follow(final)
                if kind in self._after:
                    self._react(final)
        finally:
            self._depth -= 1
        while self.scheduled:
            self.emit(self.scheduled.pop(0))
        return final

    def apply(self, event: Event) -> None:
        """`emit` for an event nothing runs around: no modifier, reaction, `settle` or `follow`
        is about its type (the rules' own record of a command, say: AP spent, an ability
        announced). It is applied and logged at once, as `emit` would; any other goes through
        `emit`, so the two never differ."""
        around = self._around
        if around is None or type(event) in around or self.scheduled or self._depth >= self._cap:
            self.emit(event)
        else:
            self._record(event)

    def _modified(self, event: EventT) -> EventT | None:
        """The BEFORE pass over a proposed event, each change it made left in the log."""
        final, changed_by = modify(self._hooks, self._effects(self.state), self.state, event, self)
        for effect in changed_by:
            self._record(EffectTriggered(kind=effect.kind, owner=effect.owner, on=event.TOPIC,
                                         cancelled=final is None and effect is changed_by[-1]))
        return final

    def _react(self, event: Event) -> None:
        """The AFTER reactions to an applied event, each emitted in turn."""
        effects = self._effects(self.state)
        if not effects:
            return
        planned_on = self.state
        for effect, fn, bound in self._hooks.plan(_AFTER, type(event), effects):
            if bound is not None and getattr(event, bound) != effect.subject:  # type: ignore[attr-defined]
                continue
            # Only a reaction after one that changed the state can find its effect gone.
            if self.state is not planned_on and not self.react_when_gone and not self.holds(effect):
                continue
            reactions = fn(HookContext(effect, self), self.state, event)
            if reactions:
                self._record(EffectTriggered(kind=effect.kind, owner=effect.owner, on=event.TOPIC))
                for reaction in reactions:
                    self.emit(reaction)

    @property
    def react_when_gone(self) -> bool:
        """`REACT_WHEN_GONE` for this battle: a ruleset whose versions differ here reads it
        from the rules the battle plays by."""
        return self.REACT_WHEN_GONE

    def holds(self, effect: Effect) -> bool:
        """Whether the state still holds `effect` (the same kind and owner; its severity or age
        may have changed since the reactions were planned). A ruleset whose effects can be in
        play but out of effect says what "still held" means for it."""
        return any(e.kind == effect.kind and e.owner == effect.owner for e in self._effects(self.state))

    def settle(self, event: EventT) -> EventT | None:
        """The rules' last word on an event once every modifier has had its say (a heal
        capped at the HP missing, say); None drops it. Unchanged by default."""
        return event

    def follow(self, event: Event) -> None:
        """The rules' own consequences of an applied event (a KO at 0 HP, say), emitted
        before any reaction sees it. A ruleset overrides this in a subclass."""

    def deeper(self) -> AbstractContextManager[None]:
        """Count a nested resolution (such as damage dealt back) against the depth cap."""
        return _Deeper(self)

    def _record(self, event: Event) -> None:
        handler = self._handlers.get(type(event))
        if handler is None:
            self.state = self._evolve(self.state, event)
        elif handler is not unchanged:
            self.state = handler(event, self.state)
        self.events.append(event)

    def decision(self) -> Decision[S]:
        """The batch so far and the state it leads to: the runner folds nothing twice."""
        return Decision(tuple(self.events), self.state)


@dataclass(frozen=True, slots=True)
class Resolving(Generic[S, R]):
    """A ruleset's declared hooks, and how its `decide` resolves with them: the hooks, where
    the state keeps the effects in play, the `evolve` that applies each event, and the resolver
    class (`Resolver` itself, or a subclass that settles or follows events: a subclass declares
    class attributes and methods, never its own constructor). The engine builds every resolver
    from this one declaration: `RESOLVING(state, rng)`."""
    hooks: Hooks
    effects: Callable[[S], Sequence[Effect]]
    evolve: Callable[[S, Event], S]
    resolver: type[R]

    def __call__(self, state: S, rng: Any) -> R:
        return self.resolver(state, self.evolve, self.hooks, self.effects, rng)


class _Deeper:
    """`Resolver.deeper()`: a plain class rather than a generator, as it wraps every damage step."""
    __slots__ = ("resolver",)

    def __init__(self, resolver: Resolver[Any]):
        self.resolver = resolver

    def __enter__(self) -> None:
        resolver = self.resolver
        resolver._depth += 1
        if resolver._depth > resolver._cap:
            resolver._depth -= 1
            raise ResolveDepthExceeded(f"resolution nested deeper than {resolver._cap}")

    def __exit__(self, *exc: object) -> None:
        self.resolver._depth -= 1


def modify(hooks: Hooks, effects: Sequence[Effect], state: Any, proposal: Any,
           resolver: Any = None) -> tuple[Any, list[Effect]]:
    """Pure BEFORE pass: (the modified proposal or None if cancelled, effects that changed it)."""
    changed_by: list[Effect] = []
    if not effects or type(proposal) not in hooks.before:
        return proposal, changed_by
    for effect, fn, bound in hooks.plan(_BEFORE, type(proposal), effects):
        if bound is not None and getattr(proposal, bound) != effect.subject:  # type: ignore[attr-defined]
            continue
        result = fn(HookContext(effect, resolver), state, proposal)
        if result is not proposal and result != proposal:
            changed_by.append(effect)
        if result is None:
            return None, changed_by
        proposal = result
    return proposal, changed_by
