"""No module outside `domain/rulesets` names a game (docs/architecture.md, "Games are plug-ins").

A game's name is a registered ruleset id: a folder of `domain/rulesets` with an
`__init__.py`. Python *names* a game where an identifier, an attribute, an import path, a
keyword or a string literal holds the id as a word (words split at anything but letters and
digits: `"ring"`, `rulesets.ring`, `ring_unit`, `"ring.HpReduced"`). Docstrings and comments
may name a game to give an example. The viewer's shared files name no game outside
comments; each game's own files (`replays/viewer/games/`) are its place to.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from .imports import ROOT

GAMES = frozenset(p.name for p in (ROOT / "domain" / "rulesets").iterdir() if (p / "__init__.py").exists())
WORDS = re.compile(r"[A-Za-z0-9]+")
VIEWER = ROOT / "replays" / "viewer"
JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\w])//[^\n]*", re.S)
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)


def python_files() -> list[Path]:
    rulesets = ROOT / "domain" / "rulesets"
    return [p for top in ("domain", "api", "projections", "replays") for p in sorted((ROOT / top).rglob("*.py"))
            if rulesets not in p.parents]


def viewer_files() -> list[Path]:
    """The viewer's shared files: everything in its folder but the games' own (in `games/`)."""
    return sorted(p for p in VIEWER.iterdir() if p.suffix in (".js", ".html", ".css"))


def docstrings(tree: ast.Module) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def spelled(node: ast.AST) -> list[str]:
    """The names and texts a node spells out."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword):
        return [node.arg] if node.arg else []
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return []


def games_named(text: str) -> set[str]:
    return {word for word in WORDS.findall(text) if word in GAMES}


def python_naming(source: str, where: str) -> Iterator[str]:
    tree = ast.parse(source)
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        for text in spelled(node):
            for game in sorted(games_named(text)):
                yield f"{where}:{getattr(node, 'lineno', '?')}: names {game} ({clip(text)})"


def viewer_naming(source: str, where: str) -> Iterator[str]:
    code = HTML_COMMENT.sub(blank, JS_COMMENT.sub(blank, source))
    for number, line in enumerate(code.splitlines(), start=1):
        for game in sorted(games_named(line)):
            yield f"{where}:{number}: names {game} ({clip(line.strip())})"


def blank(match: re.Match[str]) -> str:
    """A comment's place kept (its newlines), so that line numbers stay true."""
    return "\n" * match.group(0).count("\n")


def clip(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def test_the_games_are_found() -> None:
    assert len(GAMES) >= 2 and all(WORDS.fullmatch(g) for g in GAMES), GAMES


def test_the_check_sees_every_way_of_naming_a_game() -> None:
    game = sorted(GAMES)[0]
    source = (f'"""A docstring may name {game}."""\n'
              f'from domain.rulesets.{game} import x  # a comment may name {game}\n'
              f'import domain.rulesets.{game}.view\n'
              f'kind = "{game}"\n'
              f'topic = f"{game}.Moved{{n}}"\n'
              f'{game}_unit = 1\n'
              f'def show({game}): pass\n'
              f'call(mode={game})\n'
              f'x.{game}\n')
    assert sorted(int(line.split(":")[1]) for line in python_naming(source, "m")) == [2, 3, 4, 5, 6, 7, 8, 9]
    assert not list(python_naming(f"'''{game}'''\nstring = 'bring'\n", "m"))
    js = f'// {game} in a comment\nconst url = "https://x/{game}";\n/* {game}\n */ show("{game}");\n'
    assert [line.split(":")[1] for line in viewer_naming(js, "v.js")] == ["2", "4"]


def test_no_module_outside_the_rulesets_names_a_game() -> None:
    found = [hit for path in python_files()
             for hit in python_naming(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "games named outside domain/rulesets:\n" + "\n".join(found)


def test_the_viewers_shared_files_name_no_game() -> None:
    found = [hit for path in viewer_files() for hit in viewer_naming(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "games named in the viewer's shared files (each game's belong in games/):\n" + "\n".join(found)
