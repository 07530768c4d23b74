"""How `Hooks.plan` orders the hooks an effects tuple runs on one phase of one type."""
from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

Handler = Callable[..., Any]
# An effect in play (`hooks.Effect`; this module reads only its `kind`), and a row of a plan:
# the effect, its handler, and the event field naming the subject it is bound to, or None.
Effect = Any
Row = tuple[Effect, Handler, "str | None"]

# What `Hooks.plan` keeps of an effects tuple: the tuple, its BEFORE and AFTER plans by type, the
# kinds of its effects (a set, made at its first plan), and its effects grouped by kind (with
# their order) once it has been asked about enough types.
Known = list[Any]


def known_effects(effects: Sequence[Effect]) -> Known:
    """What `Hooks.plan` starts to keep of a tuple it has not planned for."""
    return [effects, {}, {}, None, None]


# The fewest effects whose tuple is grouped by kind for its third plan: a pass over fewer
# costs less than grouping them.
GROUPED = 8

# Effects tuples whose plans are kept by identity. A resolver asks about one tuple many times in
# a row (the state keeps it while its effects stay), so a few hundred cover every battle a
# worker is resolving at once; more would only keep dead tuples alive for the collector to scan.
PLANNED_EFFECTS = 1024

# A row's rank: phase priority, then the source order of effects in state, then the kind id.
_RANK = operator.itemgetter(0, 1, 2)


def planned(hooked: dict[str, list[tuple[int, Handler, str | None]]] | None, hooked_kinds: frozenset[str],
            known: Known, bound_type: type) -> list[Row]:
    """The rows of the hooks `hooked` (kind -> its handlers on one phase of one type, whose
    keys are `hooked_kinds`) for the effects `known` keeps, in order: phase priority, then the
    source order of the effects, then the kind id; a hook of a `bound_type` effect
    (`BoundEffect`) keeps its subject field.

    The kinds the tuple holds are a set, made once: a type none of them hooks (about half of
    what a resolver asks) has no plan at once, and only the kinds both hold and hook are looked
    at. The first two plans of a tuple with rows are found by a pass over its effects each. A
    long tuple asked about more types (a resolver asks about ten or so while a state keeps its
    effects) has its effects grouped by kind once, and each later plan looks up only the few
    kinds that hook its type."""
    if not hooked:
        return []
    effects: Sequence[Effect] = known[0]
    present: frozenset[str] | None = known[3]
    if present is None:
        present = known[3] = frozenset([effect.kind for effect in effects])
    kinds = hooked_kinds & present
    if not kinds:
        return []
    found: list[tuple[int, int, str, Effect, Handler, str | None]] = []
    by_kind: dict[str, list[tuple[int, Effect]]] | None = known[4]
    if by_kind is None and (len(effects) < GROUPED or len(known[1]) + len(known[2]) < 2):
        for order, effect in enumerate(effects):
            if effect.kind in kinds:
                for priority, fn, subject in hooked[effect.kind]:
                    bound = subject if isinstance(effect, bound_type) else None
                    found.append((priority, order, effect.kind, effect, fn, bound))
    else:
        if by_kind is None:
            by_kind = known[4] = {}
            for order, effect in enumerate(effects):
                by_kind.setdefault(effect.kind, []).append((order, effect))
        for kind in kinds:
            handlers = hooked[kind]
            for order, effect in by_kind[kind]:
                for priority, fn, subject in handlers:
                    bound = subject if isinstance(effect, bound_type) else None
                    found.append((priority, order, kind, effect, fn, bound))
    if len(found) > 1:
        found.sort(key=_RANK)
    return [(row[3], row[4], row[5]) for row in found]
