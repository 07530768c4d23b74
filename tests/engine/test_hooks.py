import msgspec
import pytest

from domain.engine.errors import ResolveDepthExceeded
from domain.engine.hooks import BoundEffect, Effect, EffectTriggered, Hooks, Phase, Resolver, modify
from domain.engine.events import Event


class Hit(Event, frozen=True, kw_only=True):
    TOPIC = "test.Hit"
    target: str
    amount: int


class Healed(Event, frozen=True, kw_only=True):
    TOPIC = "test.Healed"
    target: str


class Board(msgspec.Struct, frozen=True):
    hp: dict
    effects: tuple = ()


class Dispelled(Event, frozen=True, kw_only=True):
    TOPIC = "test.Dispelled"
    kind: str


def evolve(s: Board, e: Event) -> Board:
    if isinstance(e, Dispelled):
        return msgspec.structs.replace(s, effects=tuple(x for x in s.effects if x.kind != e.kind))
    if isinstance(e, Hit):
        return msgspec.structs.replace(s, hp={**s.hp, e.target: s.hp[e.target] - e.amount})
    return s


HOOKS = Hooks()
calls: list[str] = []


@HOOKS.hook(Phase.BEFORE, on=Hit, kind="armor", priority=1)
def armor(ctx, s, e):
    calls.append(f"armor:{ctx.effect.owner}")
    return msgspec.structs.replace(e, amount=max(0, e.amount - ctx.effect.severity)) if e.target == ctx.effect.owner else e


@HOOKS.hook(Phase.BEFORE, on=Hit, kind="rage")
def rage(ctx, s, e):
    calls.append(f"rage:{ctx.effect.owner}")
    return msgspec.structs.replace(e, amount=e.amount * 2)


@HOOKS.hook(Phase.BEFORE, on=Hit, kind="shield")
def shield(ctx, s, e):
    return None if e.target == ctx.effect.owner else e


@HOOKS.hook(Phase.AFTER, on=Hit, kind="thorns")
def thorns(ctx, s, e):
    return [Hit(target="b" if e.target == "a" else "a", amount=1)] if e.target == ctx.effect.owner else []


def run(effects, event):
    b = Resolver(Board(hp={"a": 10, "b": 10}, effects=tuple(effects)), evolve, HOOKS, lambda s: s.effects, None)
    b.emit(event)
    return b


def test_before_modifiers_run_by_priority_then_source_order():
    calls.clear()
    b = run([Effect(kind="armor", owner="a", severity=1), Effect(kind="rage", owner="b")], Hit(target="a", amount=3))
    assert calls == ["rage:b", "armor:a"]            # priority 0 before priority 1, whatever the source order
    assert b.state.hp == {"a": 5, "b": 10}            # (3 * 2) - 1
    assert [type(e).__name__ for e in b.events] == ["EffectTriggered", "EffectTriggered", "Hit"]


def test_a_cancelled_event_is_not_applied_but_leaves_a_trace():
    b = run([Effect(kind="shield", owner="a")], Hit(target="a", amount=3))
    assert b.state.hp["a"] == 10
    assert b.events == [EffectTriggered(kind="shield", owner="a", on="test.Hit", cancelled=True)]


def test_after_reactions_chain_and_are_explained():
    b = run([Effect(kind="thorns", owner="a")], Hit(target="a", amount=2))
    assert [e for e in b.events if isinstance(e, Hit)] == [Hit(target="a", amount=2), Hit(target="b", amount=1)]
    assert b.events[1] == EffectTriggered(kind="thorns", owner="a", on="test.Hit")


def test_reaction_loops_hit_the_depth_cap():
    with pytest.raises(ResolveDepthExceeded):
        run([Effect(kind="thorns", owner="a"), Effect(kind="thorns", owner="b")], Hit(target="a", amount=1))


def test_modify_is_pure_and_reports_who_changed_it():
    effects = (Effect(kind="rage", owner="x"),)
    assert modify(HOOKS, effects, None, Hit(target="a", amount=2)) == (Hit(target="a", amount=4), [effects[0]])
    assert modify(HOOKS, (), None, Hit(target="a", amount=2)) == (Hit(target="a", amount=2), [])


class Settling(Resolver):
    """A ruleset's resolver: a hit for nothing is dropped, and a target at 0 HP is healed."""

    def settle(self, event):
        return None if isinstance(event, Hit) and event.amount == 0 else event

    def follow(self, event):
        if isinstance(event, Hit) and self.state.hp[event.target] <= 0:
            self.emit(Healed(target=event.target))


def test_a_subclass_settles_each_event_and_follows_each_applied_one():
    b = Settling(Board(hp={"a": 2, "b": 10}), evolve, HOOKS, lambda s: s.effects, None)
    assert b.emit(Hit(target="b", amount=0)) is None
    b.emit(Hit(target="a", amount=2))
    assert b.events == [Hit(target="a", amount=2), Healed(target="a")]


def test_nested_resolutions_count_against_the_cap_and_unwind():
    b = Resolver(Board(hp={"a": 10, "b": 10}), evolve, HOOKS, lambda s: s.effects, None, depth_cap=2)
    with b.deeper():
        with pytest.raises(ResolveDepthExceeded):
            with b.deeper():
                b.emit(Hit(target="a", amount=1))       # a third level: over the cap
        b.emit(Hit(target="b", amount=1))               # back to two levels: allowed
    with pytest.raises(ResolveDepthExceeded):
        with b.deeper(), b.deeper(), b.deeper():
            pass
    b.emit(Hit(target="a", amount=3))
    assert b.state.hp == {"a": 7, "b": 9}


# -- handlers bound to a subject ---------------------------------------------------------
BOUND = Hooks()
seen: list[str] = []


@BOUND.hook(Phase.BEFORE, on=Hit, kind="guard", subject="target")
def guard(ctx, s, e):
    seen.append(f"guard:{ctx.effect.owner}")
    return msgspec.structs.replace(e, amount=0) if e.target == getattr(ctx.effect, "subject", e.target) else e


@BOUND.hook(Phase.BEFORE, on=Hit, kind="echo", priority=1)
def echo(ctx, s, e):
    seen.append(f"echo:{ctx.effect.owner}")
    return e


@BOUND.hook(Phase.AFTER, on=Hit, kind="guard", subject="target")
def guard_after(ctx, s, e):
    seen.append(f"after:{ctx.effect.owner}")
    return []


@BOUND.hook(Phase.BEFORE, on=Healed, kind="swap", subject="target")
def swap(ctx, s, e):
    return Healed(target="b")


def test_a_handler_bound_to_a_subject_is_called_only_for_events_about_it():
    effects = (BoundEffect(kind="guard", owner="g1", subject="a"), Effect(kind="echo", owner="e"),
               BoundEffect(kind="guard", owner="g2", subject="b"), Effect(kind="guard", owner="g3"))
    for target, calls_made in (("a", ["guard:g1", "guard:g3", "echo:e", "after:g1", "after:g3"]),
                               ("b", ["guard:g2", "guard:g3", "echo:e", "after:g2", "after:g3"]),
                               ("c", ["guard:g3", "echo:e", "after:g3"])):
        for _ in range(2):              # the second time from the plan kept for this subject
            seen.clear()
            b = Resolver(Board(hp={"a": 10, "b": 10, "c": 10}, effects=effects), evolve, BOUND,
                         lambda s: s.effects, None)
            b.emit(Hit(target=target, amount=3))
            assert seen == calls_made
    # a plan names the field each bound handler is skipped by
    assert BOUND.plan(Phase.BEFORE, Hit, effects) == [(effects[0], guard, "target"), (effects[2], guard, "target"),
                                                      (effects[3], guard, None), (effects[1], echo, None)]


def test_a_modifier_that_changes_the_subject_is_followed_by_the_handlers_of_the_new_one():
    effects = (BoundEffect(kind="swap", owner="s", subject="a"), BoundEffect(kind="mark", owner="m", subject="b"))
    changed, by = modify(BOUND, effects, None, Healed(target="a"))
    assert changed == Healed(target="c") and by == list(effects)


@BOUND.hook(Phase.BEFORE, on=Healed, kind="mark", subject="target")
def mark(ctx, s, e):
    return Healed(target="c")


def test_a_resolver_calls_a_reducers_handlers_and_refuses_an_event_it_has_none_for():
    from domain.engine.reducer import Reducer
    board: Reducer[Board] = Reducer("test")
    b = Resolver(Board(hp={"a": 10, "b": 10}), board, HOOKS, lambda s: s.effects, None)

    @board.on()
    def _(e: Hit, s: Board) -> Board:          # registered after the resolver was made
        return msgspec.structs.replace(s, hp={**s.hp, e.target: s.hp[e.target] - e.amount})
    b.emit(Hit(target="a", amount=4))
    assert b.state.hp == {"a": 6, "b": 10}
    with pytest.raises(TypeError, match="test cannot apply test.Healed"):
        b.emit(Healed(target="a"))


def test_an_unchanged_event_is_recorded_without_calling_its_handler():
    from domain.engine.hooks import unchanged
    from domain.engine.reducer import Reducer
    board: Reducer[Board] = Reducer("quiet")
    board.unchanged(Healed)
    assert board.handlers[Healed] is unchanged and board(Board(hp={}), Healed(target="a")) == Board(hp={})
    b = Resolver(Board(hp={"a": 1}), board, HOOKS, lambda s: s.effects, None)
    before = b.state
    b.emit(Healed(target="a"))
    assert b.events == [Healed(target="a")] and b.state is before


WARDS = Hooks()


@WARDS.hook(Phase.AFTER, on=Healed, kind="dispel")
def dispel(ctx, s, e):
    return [Dispelled(kind="curse")]


@WARDS.hook(Phase.AFTER, on=Healed, kind="curse")
def curse(ctx, s, e):
    return [Hit(target=e.target, amount=3)]


class Lingering(Resolver):
    pass


class Strict(Resolver):
    REACT_WHEN_GONE = False


@pytest.mark.parametrize(("resolver", "hits"), [(Lingering, [Hit(target="a", amount=3)]), (Strict, [])])
def test_an_effect_removed_by_an_earlier_reaction_reacts_only_where_the_rules_keep_it(resolver, hits):
    # given a dispel (first in source order) and a curse, both reacting to a heal
    effects = (Effect(kind="dispel", owner="a"), Effect(kind="curse", owner="a"))
    b = resolver(Board(hp={"a": 10}, effects=effects), evolve, WARDS, lambda s: s.effects, None)
    # when the heal is applied, and the dispel's reaction removes the curse
    b.emit(Healed(target="a"))
    # then the curse still hits where gone effects react, and does not where they don't
    assert [e for e in b.events if isinstance(e, Hit)] == hits
    assert b.state.hp == {"a": 10 - 3 * len(hits)}


def test_the_kinds_hooking_a_type_include_one_registered_after_they_were_asked():
    """Given one kind modifying a query, when another is registered after the question, then
    the answer has both; and a type nobody hooks has none."""
    class Ask(msgspec.Struct, frozen=True):
        n: int

    hooks = Hooks()
    hooks.hook(Phase.BEFORE, on=Ask, kind="doubling")(lambda ctx, state, q: Ask(q.n * 2))
    assert hooks.kinds_on(Phase.BEFORE, Ask) == {"doubling"}
    hooks.hook(Phase.BEFORE, on=Ask, kind="halving")(lambda ctx, state, q: Ask(q.n // 2))
    assert hooks.kinds_on(Phase.BEFORE, Ask) == {"doubling", "halving"}
    assert hooks.kinds_on(Phase.AFTER, Ask) == frozenset()


def _plain_plan(hooks, phase, on, effects):
    """A plan by its definition: every hook of an effect in play on (phase, type), ordered by
    priority, then the effect's place in the tuple, then its kind."""
    rows = []
    for order, effect in enumerate(effects):
        for (p, t), by_kind in hooks._table.items():
            if p == phase and t is on:
                for priority, fn, subject in by_kind.get(effect.kind, ()):
                    rows.append((priority, order, effect.kind, effect, fn,
                                 subject if isinstance(effect, BoundEffect) else None))
    return [row[3:] for row in sorted(rows, key=lambda r: r[:3])]


def test_plans_of_a_long_tuple_asked_about_many_types_are_those_of_the_definition():
    """Given 12 types each hooked by some of 6 kinds at various priorities, and tuples of 1 to
    30 effects of those kinds (bound and unbound, repeated kinds included), when every type is
    asked about in turn, twice, then each plan is the one the definition orders: the first
    two by a pass over the tuple, the later ones from its effects grouped by kind."""
    import random
    rng = random.Random(7)
    types = [type(f"Ask{i}", (msgspec.Struct,), {"__annotations__": {"n": int}}) for i in range(12)]
    kinds = [f"k{i}" for i in range(6)]
    hooks = Hooks()
    for i, on in enumerate(types):
        for kind in rng.sample(kinds, rng.randint(0, 4)):
            phase = Phase.BEFORE if (i + len(kind)) % 3 else Phase.AFTER
            hooks.hook(phase, on=on, kind=kind, priority=rng.randint(-1, 1),
                       subject="n" if rng.random() < 0.5 else None)(lambda ctx, s, q: q)
    for size in range(1, 31):
        effects = tuple(BoundEffect(kind=rng.choice(kinds), owner=f"o{j}", subject="x") if rng.random() < 0.5
                        else Effect(kind=rng.choice(kinds), owner=f"o{j}") for j in range(size))
        for _ in range(2):
            for on in rng.sample(types, len(types)):
                for phase in Phase:
                    assert hooks.plan(phase, on, effects) == _plain_plan(hooks, phase, on, effects)


class Noted(Event, frozen=True, kw_only=True):
    TOPIC = "test.Noted"
    text: str


class Following(Resolver):
    FOLLOWS = frozenset({Noted})

    def follow(self, event):
        self.emit(Healed(target="a"))


@pytest.mark.parametrize("resolver, effects, event", [
    (Resolver, (), Noted(text="quiet")),                            # nothing about it: recorded at once
    (Resolver, (Effect(kind="thorns", owner="a"),), Hit(target="a", amount=1)),    # a reaction: through emit
    (Resolver, (Effect(kind="armor", owner="a", severity=1),), Hit(target="a", amount=3)),   # a modifier
    (Following, (), Noted(text="followed")),                        # a follow: through emit
])
def test_apply_logs_and_changes_what_emit_would(resolver, effects, event):
    """Given the same state, when one resolver applies an event and another emits it, then
    both log the same events and reach the same state, whether or not anything hooks, settles
    or follows its type."""
    def make():
        return resolver(Board(hp={"a": 10, "b": 10}, effects=effects), evolve, HOOKS, lambda s: s.effects, None)
    applied, emitted = make(), make()
    applied.apply(event)
    emitted.emit(event)
    assert applied.events == emitted.events and applied.state == emitted.state
    assert event.TOPIC in [e.TOPIC for e in applied.events]


def test_a_type_hooked_after_a_resolver_class_was_asked_about_goes_through_emit():
    """Given a resolver class whose `around` was asked before a reaction to `Noted` existed,
    when the reaction is registered and a new resolver applies a `Noted`, then the reaction
    runs: registering a hook forgets what `around` answered."""
    hooks = Hooks()
    assert Noted not in hooks.around(Resolver)
    hooks.hook(Phase.AFTER, on=Noted, kind="echo")(lambda ctx, s, e: [Healed(target="a")])
    assert Noted in hooks.around(Resolver) and hooks.around(Following) is not None
    board = Board(hp={"a": 5, "b": 10}, effects=(Effect(kind="echo", owner="a"),))
    applied = Resolver(board, evolve, hooks, lambda s: s.effects, None)
    applied.apply(Noted(text="heard"))
    assert [e.TOPIC for e in applied.events] == ["test.Noted", "engine.EffectTriggered", "test.Healed"]
