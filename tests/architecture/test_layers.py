"""The layer map of docs/architecture.md, checked against every import of every module in
domain, replays, projections, api and bench: no module imports a layer above its own, and
no import circle exists anywhere (imports for type hints only count too)."""
from __future__ import annotations

import ast
from collections import defaultdict

from .imports import Edge, all_edges, edges_of, modules

# Lowest first: (layer, its module prefixes, its height). A module belongs to the layer of
# its longest matching prefix, and may import its own layer and any lower one. `replays` and
# `projections` stand side by side at one height: neither may import the other.
LAYERS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("engine", ("domain.engine",), 0),
    ("ai", ("domain.ai",), 1),
    ("rulesets", ("domain.rulesets",), 2),
    ("domain services", ("domain",), 3),
    ("replays", ("replays",), 4),
    ("projections", ("projections",), 4),
    ("api", ("api",), 5),
    ("bench", ("bench",), 6),
)

# The one declared plug-in point: the engine's registries (rulesets by id, event classes by
# topic) are filled by the modules that declare games and events, and a fresh process that
# looks one up before importing them must still find it, so the registry loads them by
# name on first lookup. These string imports, and no others, may point up or close a circle.
PLUGIN_LOADS: dict[str, frozenset[str]] = {
    "domain.engine.ruleset": frozenset({"domain.rulesets"}),
    "domain.engine.events": frozenset({"domain.engine.battle", "domain.engine.choices", "domain.engine.hooks",
                                       "domain.rulesets", "domain.sets", "domain.matchmaking.events",
                                       "domain.tournaments.events"}),
}


def layer(module: str) -> int:
    """The index in LAYERS of the module's layer."""
    prefixes = [(len(p), index) for index, (_, names, _) in enumerate(LAYERS) for p in names
                if module == p or module.startswith(p + ".")]
    assert prefixes, f"{module} is in no layer of the map"
    return max(prefixes)[1]


def running_layer(module: str) -> int:
    """A package's `__init__` runs before any module inside it is imported, so it runs at the
    lowest layer found inside the package."""
    if modules()[module].name != "__init__.py":
        return layer(module)
    inside = [layer(m) for m in modules() if m == module or m.startswith(module + ".")]
    return min(inside, key=lambda index: LAYERS[index][2])


def allowed(source: int, target: int) -> bool:
    return source == target or LAYERS[target][2] < LAYERS[source][2]


def is_plugin_load(edge: Edge) -> bool:
    return edge.dynamic and edge.target in PLUGIN_LOADS.get(edge.source, frozenset())


def checked_edges() -> list[Edge]:
    return [e for e in all_edges()[0] if not is_plugin_load(e)]


def test_the_reading_finds_every_kind_of_import() -> None:
    source = ast.parse("""
from typing import TYPE_CHECKING
import importlib
if TYPE_CHECKING:
    from replays.format import Replay
def later():
    from . import events
    from . import Sets
    from .. import store
    import domain.engine.rng as rng
PLUGINS = ("domain.ai", "api.app")
for name in PLUGINS:
    importlib.import_module(name)
__import__(f"projections.{name}")
importlib.import_module(chosen())
""")
    edges, unresolved = edges_of("domain.sets.service", source)
    assert sorted((e.target, e.line, e.dynamic) for e in edges) == [
        ("api.app", 13, True), ("domain.ai", 13, True), ("domain.engine.rng", 10, False), ("domain.sets", 8, False),
        ("domain.sets.events", 7, False), ("domain.store", 9, False), ("projections", 14, True),
        ("replays.format", 5, False)]
    assert [(u.line, u.text) for u in unresolved] == [(15, "importlib.import_module(chosen())")]


def test_the_map_allows_only_downward_imports() -> None:
    engine, rulesets, replays, projections, api = (
        layer(m) for m in ("domain.engine.rng", "domain.rulesets", "replays.format", "projections.live", "api.app"))
    assert allowed(api, replays) and allowed(rulesets, engine) and allowed(replays, replays)
    assert not allowed(engine, rulesets) and not allowed(replays, projections) and not allowed(projections, replays)


def test_a_circle_is_found_and_named() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert strongly_connected(graph) == [["a", "b", "c"], ["e"]]
    assert shortest_circle(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert shortest_circle(graph, ["e"]) == ["e", "e"]


def test_every_module_is_in_a_layer() -> None:
    unplaced = [m for m in modules() if not any(m == p or m.startswith(p + ".") for _, ps, _ in LAYERS for p in ps)]
    assert not unplaced, f"modules in no layer of the map: {unplaced}"


def test_every_string_import_names_a_module() -> None:
    unresolved = all_edges()[1]
    assert not unresolved, "string imports the map cannot check:\n" + "\n".join(
        f"{u.source} (line {u.line}): {u.text}" for u in unresolved)


def test_the_declared_plugin_loads_are_exactly_the_string_imports_found() -> None:
    """Keeps the map honest both ways: a new string import is not silently allowed, and a
    plug-in load that is gone is not still declared."""
    found: dict[str, set[str]] = defaultdict(set)
    for edge in all_edges()[0]:
        if edge.dynamic:
            found[edge.source].add(edge.target)
    undeclared = {s: sorted(t - PLUGIN_LOADS.get(s, frozenset())) for s, t in found.items()}
    assert not {s: t for s, t in undeclared.items() if t}, f"string imports not declared in PLUGIN_LOADS: {undeclared}"
    stale = {s: sorted(t - found.get(s, set())) for s, t in PLUGIN_LOADS.items()}
    assert not {s: t for s, t in stale.items() if t}, f"PLUGIN_LOADS declares string imports no longer made: {stale}"


def test_no_module_imports_a_higher_layer() -> None:
    upward = sorted({f"{e} ({LAYERS[running_layer(e.source)][0]} -> {LAYERS[layer(e.target)][0]})"
                     for e in checked_edges() if not allowed(running_layer(e.source), layer(e.target))})
    assert not upward, "imports of a higher or a sibling layer:\n" + "\n".join(upward)


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def shortest_circle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One shortest circle through the component's first module, as a path that ends where it starts."""
    start, members = component[0], set(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & members):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if nxt not in came_from:
                    came_from[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"{component} is not a circle")


def import_graph() -> tuple[dict[str, set[str]], dict[tuple[str, str], int]]:
    """Module -> the modules it imports, and the first line of each edge (to name it)."""
    graph: dict[str, set[str]] = {m: set() for m in modules()}
    lines: dict[tuple[str, str], int] = {}
    for edge in checked_edges():
        graph[edge.source].add(edge.target)
        lines.setdefault((edge.source, edge.target), edge.line)
    return graph, lines


def test_no_import_circle() -> None:
    graph, lines = import_graph()
    circles = []
    for component in strongly_connected(graph):
        path = shortest_circle(graph, component)
        steps = [f"{a} (line {lines[a, b]})" for a, b in zip(path, path[1:])]
        knot = f"   (the knot also holds {', '.join(sorted(set(component) - set(path)))})" \
            if len(component) > len(path) - 1 else ""
        circles.append(" -> ".join([*steps, path[-1]]) + knot)
    assert not circles, "import circles:\n" + "\n".join(circles)
