"""The shape of `domain/`: no import cycle (counting imports inside functions too), an engine
that names no game, and no capability found by `getattr` on a ruleset, bot or policy."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = ROOT / "domain"
GAMES = sorted(p.name for p in (DOMAIN / "rulesets").iterdir() if (p / "__init__.py").exists())


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every `domain.*` module this file imports, at any depth of the file."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text())
    for block in [n for n in ast.walk(tree) if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"]:
        block.body = []         # imports for type hints only never run
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("domain")}


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in DOMAIN.rglob("*.py")}
    return {name: {m for m in imports(path) if m in modules and m != name} for name, path in modules.items()}


def test_domain_has_no_import_cycle():
    edges = graph()
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            # a package's __init__ importing its own submodules is how a package is built, not a cycle
            if nxt.startswith(node + ".") or node.startswith(nxt + "."):
                continue
            if state.get(nxt) == 1:
                raise AssertionError("import cycle: " + " -> ".join(trail[trail.index(nxt):] + [node, nxt])
                                     if nxt in trail else f"import cycle through {node} -> {nxt}")
            if nxt not in state:
                visit(nxt, trail + [node])
        state[node] = 2

    for start in sorted(edges):
        if start not in state:
            visit(start, [])


def test_the_engine_names_no_game():
    for path in (DOMAIN / "engine").rglob("*.py"):
        text = path.read_text()
        for game in GAMES:
            assert f"rulesets.{game}" not in text and f'"{game}"' not in text, f"{path.name} names {game}"


def test_no_capability_is_found_by_getattr():
    """Optional ruleset parts are declared on `Ruleset`; bots declare `needs_view`/`needs_memory`."""
    suspects = {"ruleset", "rules", "rs", "bot", "policy", "component"}
    for path in [*DOMAIN.rglob("*.py"), *(ROOT / "api").rglob("*.py"), *(ROOT / "replays").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("getattr", "hasattr") and node.args and \
                    isinstance(node.args[0], ast.Name) and node.args[0].id in suspects:
                raise AssertionError(f"{path.relative_to(ROOT)}:{node.lineno}: {node.func.id}({node.args[0].id}, ...)")
