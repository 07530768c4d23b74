"""No capability is found by probing (docs/architecture.md, "Declared, never probed").

What a ruleset may offer is a typed field of `Ruleset` with a default, a bot declares what it
needs, and a background component has `start` and `close`: so nothing in domain, api,
projections or replays calls `getattr`, `hasattr` or `inspect.getattr_static` on a ruleset,
a bot, a policy or a component.

What counts as one, within a function (and the functions inside it):
- an expression whose names, split into words, say so (`ruleset`, `self.rules.bots`,
  `get_policy(...)`, `RandomPolicy`, `components[0]`);
- a name annotated with such a type (`declared: Ruleset[S]`, `player: BotFactory`);
- a name bound to one: assigned one, or `dataclasses.replace` of one, or looping over them.
A call on one (`ruleset.evolve(...)`) gives what it returns, which is not one.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from .imports import ROOT

PACKAGES = ("domain", "api", "projections", "replays")
SUSPECT = frozenset({"ruleset", "rulesets", "rules", "rs", "bot", "bots", "policy", "policies",
                     "component", "components", "background"})
PROBES = frozenset({"getattr", "hasattr", "getattr_static"})
WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
Scope = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def words(name: str) -> set[str]:
    return {w.lower() for w in WORD.findall(name)}


def says_so(name: str) -> bool:
    return bool(words(name) & SUSPECT)


class Reading:
    """The names one scope binds to a ruleset, bot, policy or component."""

    def __init__(self, outer: frozenset[str]):
        self.marked: set[str] = set(outer)

    def denotes(self, expr: ast.expr | None) -> bool:
        if expr is None:
            return False
        if isinstance(expr, ast.Name):
            return expr.id in self.marked or says_so(expr.id)
        if isinstance(expr, ast.Attribute):
            return says_so(expr.attr) or self.denotes(expr.value)
        if isinstance(expr, ast.Subscript):
            return self.denotes(expr.value)
        if isinstance(expr, ast.Starred):
            return self.denotes(expr.value)
        if isinstance(expr, (ast.BoolOp, ast.IfExp)):
            parts = expr.values if isinstance(expr, ast.BoolOp) else [expr.body, expr.orelse]
            return any(self.denotes(p) for p in parts)
        if isinstance(expr, ast.Call):
            return self._made_by(expr)
        return False

    def _made_by(self, call: ast.Call) -> bool:
        """A call gives one if its own name says so (`get_ruleset(...)`, `RandomPolicy()`), or it
        is `replace` of one, or it hands out a container's items (`bots.values()`)."""
        func = call.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if says_so(name):
            return True
        if name == "replace" and call.args:
            return self.denotes(call.args[0])
        if name in ("values", "items", "get", "pop", "copy") and isinstance(func, ast.Attribute):
            return self.denotes(func.value)
        return False

    def bind(self, target: ast.expr, value: ast.expr | None, annotation: ast.expr | None = None) -> bool:
        """Mark the target's names if the value or annotation is one; whether anything changed."""
        if not (self.denotes(value) or (annotation is not None and says_so(ast.unparse(annotation)))):
            return False
        names = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)} - self.marked
        self.marked |= names
        return bool(names)


def own_nodes(scope: Scope) -> Iterator[ast.AST]:
    """The scope's nodes, but not those of the functions defined inside it."""
    pending: list[ast.AST] = list(ast.iter_child_nodes(scope))
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))


def read_scope(scope: Scope, outer: frozenset[str]) -> Reading:
    reading = Reading(outer)
    if not isinstance(scope, ast.Module):
        arguments = scope.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            if arg.annotation is not None and says_so(ast.unparse(arg.annotation)):
                reading.marked.add(arg.arg)
    nodes = list(own_nodes(scope))
    changed = True
    while changed:           # until a pass marks nothing new: `b = a` may come before `a = ruleset`
        changed = False
        for node in nodes:
            if isinstance(node, ast.Assign):
                changed |= any([reading.bind(t, node.value) for t in node.targets])
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)):
                changed |= reading.bind(node.target, node.value, getattr(node, "annotation", None))
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                changed |= reading.bind(node.target, node.iter)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                changed |= reading.bind(node.optional_vars, node.context_expr)
    return reading


def probes(source: str, where: str) -> Iterator[str]:
    tree = ast.parse(source)
    pending: list[tuple[Scope, frozenset[str]]] = [(tree, frozenset())]
    while pending:
        scope, outer = pending.pop()
        reading = read_scope(scope, outer)
        for node in own_nodes(scope):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                pending.append((node, frozenset(reading.marked)))
            elif isinstance(node, ast.Call) and node.args and _probe_name(node.func) in PROBES and \
                    reading.denotes(node.args[0]):
                yield f"{where}:{node.lineno}: {ast.unparse(node)}"


def _probe_name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def test_the_check_sees_a_probe_however_the_ruleset_is_named() -> None:
    source = ("def f(ruleset, declared: 'Ruleset[S]', other):\n"
              "    getattr(ruleset, 'sealing')\n"
              "    hasattr(declared, 'bots')\n"
              "    copy = dataclasses.replace(declared, version='1')\n"
              "    getattr(copy, 'turn')\n"
              "    for player in self.bots.values():\n"
              "        getattr(player, 'needs_memory', False)\n"
              "    def inner():\n"
              "        return hasattr(copy, 'releases')\n"
              "    getattr(get_policy('random', 'x'), 'needs_view')\n"
              "    getattr(other, 'seat')\n"
              "    state = ruleset.evolve(None, e)\n"
              "    getattr(state, 'hp')\n"
              "    getattr(ruleset.content, 'units')\n")
    assert sorted(int(hit.split(":")[1]) for hit in probes(source, "m")) == [2, 3, 5, 7, 9, 10, 14]


def test_no_capability_is_found_by_probing() -> None:
    found = [hit for top in PACKAGES for path in sorted((ROOT / top).rglob("*.py"))
             for hit in probes(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "probes of a ruleset, bot, policy or component:\n" + "\n".join(found)
