"""Every import of every project module, read from the source with `ast` (nothing is imported).

An import counts wherever it is written: at the top, inside a function, under
`if TYPE_CHECKING:` (a circle of types is still a circle), relative or absolute, and as a
string handed to `importlib.import_module` or `__import__`. `from pkg import name` is an edge
to the submodule `pkg.name` when there is one, else to the package `pkg` itself (its
`__init__`), which is where the name is defined.
"""
from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "replays", "projections", "api", "bench")


@dataclass(frozen=True)
class Edge:
    source: str          # the importing module
    target: str          # the imported project module
    line: int
    dynamic: bool        # named by a string at run time, not by an import statement

    def __str__(self) -> str:
        how = "imports by string" if self.dynamic else "imports"
        return f"{self.source} (line {self.line}) {how} {self.target}"


@dataclass(frozen=True)
class Unresolved:
    """A string import whose module this reading cannot name: the map cannot check it."""
    source: str
    line: int
    text: str


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every project module by dotted name."""
    return {module_name(p): p for top in PACKAGES for p in sorted((ROOT / top).rglob("*.py"))}


@cache
def tree(name: str) -> ast.Module:
    return ast.parse(modules()[name].read_text(), filename=str(modules()[name]))


def known(dotted: str) -> str | None:
    """The longest prefix of `dotted` that is a project module, or None."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules():
            return candidate
    return None


def is_project(dotted: str) -> bool:
    return dotted.split(".")[0] in PACKAGES


def _package_of(name: str) -> str:
    return name if modules()[name].name == "__init__.py" else name.rpartition(".")[0]


def _absolute(name: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = _package_of(name).split(".")
    base = package[:len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _statement_targets(name: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            found = known(alias.name)
            if found:
                yield found
        return
    base = _absolute(name, node)
    for alias in node.names:
        found = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else known(base)
        if found:
            yield found


def _is_string_import(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in ("__import__", "import_module")
    return isinstance(func, ast.Attribute) and func.attr == "import_module"


def _bindings(module: ast.Module, variable: str) -> list[ast.expr]:
    """What a name is bound to anywhere in the module: assignments and loop targets."""
    found: list[ast.expr] = []
    for node in ast.walk(module):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == variable for t in node.targets):
            found.append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                node.target.id == variable and node.value is not None:
            found.append(node.value)
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name) and \
                node.target.id == variable:
            found.append(node.iter)     # the loop variable takes each element's value in turn
    return found


def strings(module: ast.Module, expr: ast.expr, depth: int = 0) -> list[str] | None:
    """The module paths an expression can hold, or None when the reading cannot tell.

    An f-string gives its literal head (`f"domain.rulesets.{x}"` -> `domain.rulesets.`)."""
    if depth > 8:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, ast.JoinedStr):
        head = expr.values[0] if expr.values else None
        return [head.value] if isinstance(head, ast.Constant) and isinstance(head.value, str) else None
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        found: list[str] = []
        for element in expr.elts:
            part = strings(module, element, depth + 1)
            if part is None:
                return None
            found += part
        return found
    if isinstance(expr, ast.Name):
        bound = _bindings(module, expr.id)
        found = []
        for value in bound:
            part = strings(module, value, depth + 1)
            if part is None:
                return None
            found += part
        return found or None
    return None


def _string_targets(name: str, module: ast.Module, call: ast.Call) -> Iterator[str | Unresolved]:
    texts = strings(module, call.args[0]) if call.args else None
    if texts is None:
        yield Unresolved(name, call.lineno, ast.unparse(call))
        return
    for text in texts:
        dotted = text.rstrip(".")
        found = known(dotted) if is_project(dotted) else None
        if is_project(dotted) and found is None:
            yield Unresolved(name, call.lineno, text)
        elif found:
            yield found


def edges_of(name: str, source: ast.Module | None = None) -> tuple[list[Edge], list[Unresolved]]:
    """The imports of module `name` (read from its file, unless `source` is given)."""
    module = tree(name) if source is None else source
    edges: list[Edge] = []
    unresolved: list[Unresolved] = []
    for node in ast.walk(module):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            edges += [Edge(name, t, node.lineno, False) for t in _statement_targets(name, node) if t != name]
        elif isinstance(node, ast.Call) and _is_string_import(node):
            for target in _string_targets(name, module, node):
                if isinstance(target, Unresolved):
                    unresolved.append(target)
                elif target != name:
                    edges.append(Edge(name, target, node.lineno, True))
    return edges, unresolved


@cache
def all_edges() -> tuple[tuple[Edge, ...], tuple[Unresolved, ...]]:
    edges: list[Edge] = []
    unresolved: list[Unresolved] = []
    for name in modules():
        found, lost = edges_of(name)
        edges += found
        unresolved += lost
    return tuple(edges), tuple(unresolved)
