"""Every ruleset has the same shape (docs/adding-a-ruleset.md, "Layout"): one module per role,
the optional parts in their one place, and a README whose "where" column leads to the code.

| module | role |
|---|---|
| `__init__.py` | the `Ruleset` declaration, nothing else |
| `setup.py` | `parse_setup`, the default setup, `table`, sealing and withholding |
| `start.py` | `start`: the opening events |
| `legal.py` | `awaiting` and `legal_commands` |
| `decide.py` | `decide`, its command table `COMMANDS`, `outcome` and `turn` |
| `evolve.py` | `evolve` |
| `view.py` | `view` and `memory_known` |
| `events.py` | every event of the game |
| `commands.py` | every command and the codec |
| `state.py` | the state, `Params` (and `Rules`) |
| `content.py`, `content/` | the content files and their loader |
| `hooks.py` | the queries hooks modify and the hook registry `HOOKS` |
| optional `effects/` | the hook handlers |
| optional `steps.py` | the steps a turn runs through |
| optional `bots/` | the game's own bots, the memory bot among them |
| optional `carry.py` | what a set carries between battles |
| optional `releases/` | the kept releases |
| optional `knowledge.py` | `knowledge` and `determinize`: what a seat knows, and states consistent with it |
| optional `matchups.py` | `matchups`: the setups a balance run plays, each side's entry named |

Any other module is the game's own (a board, cards, attacks) and sits beside these.
"""
from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from domain.engine.events import Command, Event
from domain.engine.hooks import Resolver
from domain.engine.ruleset import Ruleset, all_rulesets

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "domain" / "rulesets"
REQUIRED = ("__init__.py", "README.md", "setup.py", "start.py", "legal.py", "decide.py", "evolve.py",
            "view.py", "events.py", "commands.py", "state.py", "content.py", "content", "hooks.py")
OPTIONAL = ("effects", "steps.py", "bots", "carry.py", "releases", "knowledge.py", "matchups.py")
# A role's module name is taken: it names that role at the top of the package, nowhere deeper.
ROLES = {name.removesuffix(".py") for name in REQUIRED + OPTIONAL} - {"__init__", "README.md", "releases"}
PACKAGES = ("effects", "bots")          # optional parts that are packages, never single modules
IDS = sorted(all_rulesets())
GENERIC = ("domain.engine.", "domain.ai.")     # where the policies every game may tune live


def package(ruleset_id: str) -> str:
    return f"domain.rulesets.{ruleset_id}"


def modules(ruleset_id: str) -> dict[str, Any]:
    base = RULESETS / ruleset_id
    names = [package(ruleset_id) + "." + ".".join(p.relative_to(base).with_suffix("").parts)
             for p in base.rglob("*.py") if p.name != "__init__.py" and "releases" not in p.parts]
    return {name: importlib.import_module(name) for name in sorted(names)}


@pytest.mark.parametrize("ruleset_id", IDS)
def test_every_required_part_is_there(ruleset_id: str) -> None:
    base = RULESETS / ruleset_id
    missing = [name for name in REQUIRED if not (base / name).exists()]
    assert not missing, f"{ruleset_id} lacks {', '.join(missing)}"
    for name in PACKAGES:
        assert not (base / f"{name}.py").exists(), f"{ruleset_id}: {name} is a package ({name}/), not {name}.py"


@pytest.mark.parametrize("ruleset_id", IDS)
def test_a_role_name_is_used_only_for_its_role(ruleset_id: str) -> None:
    base = RULESETS / ruleset_id
    for path in base.rglob("*.py"):
        rel = path.relative_to(base)
        if len(rel.parts) > 1 and rel.stem in ROLES and "releases" not in rel.parts:
            raise AssertionError(f"{ruleset_id}/{rel}: `{rel.stem}` is a role; it lives at {ruleset_id}/{rel.stem}")
    for stray in ("memory_bot.py", "prebattle.py", "prepare.py", "queries.py"):
        assert not list(base.rglob(stray)), f"{ruleset_id}: {stray} holds a role of its own module"


def declared_in(fn: Any) -> str:
    return inspect.unwrap(fn).__module__


def lives_in(fn: Any, module: str, name: str) -> bool:
    """Whether `fn` is written in `module`; a callable object such as a `Reducer` (every
    game's `evolve`) takes its class's module, so it lives where that module binds it by name."""
    if inspect.isroutine(inspect.unwrap(fn)) or inspect.isclass(fn):
        return declared_in(fn) == module
    return getattr(importlib.import_module(module), name, None) is fn


@pytest.mark.parametrize("ruleset_id", IDS)
def test_each_declared_function_lives_in_its_role_module(ruleset_id: str) -> None:
    r: Ruleset[Any] = all_rulesets()[ruleset_id]
    p = package(ruleset_id)
    where = {"parse_setup": "setup", "start": "start", "evolve": "evolve", "awaiting": "legal",
             "legal_commands": "legal", "decide": "decide", "outcome": "decide", "view": "view"}
    optional = {"table": "setup", "withhold_setup": "setup", "turn": "decide", "memory_known": "view",
                "knowledge": "knowledge", "determinize": "knowledge", "matchups": "matchups"}
    for name, module in where.items():
        assert lives_in(getattr(r, name), f"{p}.{module}", name), f"{ruleset_id}.{name} is not in {module}.py"
    for name, module in optional.items():
        found = declared_in(getattr(r, name))
        assert found.startswith("domain.engine") or found == f"{p}.{module}", \
            f"{ruleset_id}.{name} is in {found}, not {module}.py"
    if r.sealing is not None:
        assert {declared_in(r.sealing.seal), declared_in(r.sealing.unseal)} == {f"{p}.setup"}
    if r.set_rules is not None:
        assert type(r.set_rules).__module__ == f"{p}.carry"
    if r.bots:
        assert r.bots is importlib.import_module(f"{p}.bots").BOTS, f"{ruleset_id}'s bots are not bots.BOTS"
    for bot, factory in r.bots.items():
        assert bot_parts_in(factory, f"{p}.bots"), f"{ruleset_id} bot {bot} is not in bots/"


def bot_parts_in(factory: Any, bots: str) -> bool:
    """A game's bot is its own code in `bots`: a policy declared there, or a generic policy
    (`GreedyPolicy`, `MemoryBot`, `SearchBot`) given the game's scorer or tuning from there,
    through `partial`; a tuning's own functions are the game's, or the generic defaults."""
    if isinstance(factory, functools.partial):
        return (bot_parts_in(factory.func, bots) or declared_in(factory.func).startswith(GENERIC)) and \
            all(bot_parts_in(arg, bots) if callable(arg) else tuned_in(arg, bots) for arg in factory.args) and \
            factory.args != ()
    return declared_in(factory).startswith(bots)


def tuned_in(tuning: Any, bots: str) -> bool:
    """A tuning (`domain.ai.search.Tuning`) whose functions are the game's, in `bots`, or the
    generic ones, and a generic part's own functions (`Rated`'s rating) likewise."""
    parts = [getattr(tuning, f.name) for f in dataclasses.fields(tuning)] if dataclasses.is_dataclass(tuning) else []
    return bool(parts) and all(tuned_in(part, bots) if dataclasses.is_dataclass(part)
                               else declared_in(part).startswith((bots, *GENERIC)) for part in parts if callable(part))


@pytest.mark.parametrize("ruleset_id", IDS)
def test_commands_and_events_live_in_their_modules(ruleset_id: str) -> None:
    p = package(ruleset_id)
    for name, module in modules(ruleset_id).items():
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != name:
                continue
            if issubclass(cls, Command):
                assert name == f"{p}.commands", f"command {cls.__name__} is declared in {name}"
            elif issubclass(cls, Event):
                assert name == f"{p}.events", f"event {cls.__name__} is declared in {name}"
    r = all_rulesets()[ruleset_id]
    assert all(c.__module__ == f"{p}.commands" for c in r.codec.commands)


@pytest.mark.parametrize("ruleset_id", IDS)
def test_every_command_has_one_handler_in_the_declared_table(ruleset_id: str) -> None:
    r = all_rulesets()[ruleset_id]
    assert r.commands is not None, f"{ruleset_id} declares no command table"
    table = importlib.import_module(f"{package(ruleset_id)}.decide").COMMANDS
    assert r.commands is table, f"{ruleset_id}'s command table is not decide.COMMANDS"
    assert set(r.commands) == set(r.codec.commands), \
        f"{ruleset_id}: commands without a handler: {set(r.codec.commands) - set(r.commands)}; " \
        f"handlers of no command: {set(r.commands) - set(r.codec.commands)}"


@pytest.mark.parametrize("ruleset_id", IDS)
def test_hooks_are_declared_once_and_resolvers_built_from_them(ruleset_id: str) -> None:
    r = all_rulesets()[ruleset_id]
    p = package(ruleset_id)
    hooks = importlib.import_module(f"{p}.hooks")
    assert r.hooks is not None, f"{ruleset_id} declares no hooks (Ruleset.hooks)"
    assert r.hooks.hooks is hooks.HOOKS, f"{ruleset_id}: Ruleset.hooks does not hold hooks.HOOKS"
    for name, module in modules(ruleset_id).items():
        if name != f"{p}.hooks":
            assert "HOOKS" not in vars(module) or vars(module)["HOOKS"] is hooks.HOOKS, f"a second HOOKS in {name}"
        for cls in vars(module).values():
            if inspect.isclass(cls) and issubclass(cls, Resolver) and cls.__module__ == name:
                assert "__init__" not in vars(cls), f"{cls.__name__} builds itself; declare it in Ruleset.hooks"


def defined_names(base: Path) -> set[str]:
    """Every module, class, function, assignment and field name in a ruleset's code, and every
    file name under it: what a README's "where" may point to."""
    found = {p.name for p in base.rglob("*")} | {p.stem for p in base.rglob("*")}
    for path in base.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.add(node.name)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                found.add(node.target.id)
            elif isinstance(node, ast.Assign):
                found.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return found


WHERE_WORDS = {"params", "content", "rules"}      # "where" may say a Params/Rules field or content value


@pytest.mark.parametrize("ruleset_id", IDS)
def test_the_readme_says_where_each_choice_lives(ruleset_id: str) -> None:
    base = RULESETS / ruleset_id
    lines = (base / "README.md").read_text().splitlines()
    headers = [i for i, line in enumerate(lines) if line.startswith("|") and "where" in
               [c.strip().lower() for c in line.strip("|").split("|")]]
    assert headers, f"{ruleset_id}/README.md has no table with a 'where' column"
    names = defined_names(base)
    checked = 0
    for start in headers:
        column = [c.strip().lower() for c in lines[start].strip("|").split("|")].index("where")
        for line in lines[start + 2:]:
            if not line.startswith("|"):
                break
            cell = line.strip("|").split("|")[column]
            refs = re.findall(r"`([^`]+)`", cell)
            for ref in refs:
                parts = [part for part in re.split(r"[.:/ ()]+", ref) if part and part not in ("py", "toml")]
                assert any(part in names for part in parts), f"{ruleset_id}/README.md: `{ref}` names no code"
            assert refs or cell.strip().lower() in WHERE_WORDS, \
                f"{ruleset_id}/README.md: the 'where' '{cell.strip()}' names no code"
            checked += len(refs)
    assert checked, f"{ruleset_id}/README.md's 'where' column names no code"
