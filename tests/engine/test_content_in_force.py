"""Every ruleset reads its content through the content in force (`content()`), never through a
module global bound to today's: otherwise a kept release, re-simulated with its own content,
would play some steps by today's and its replays would stop verifying after the next release."""
from __future__ import annotations

import ast
import importlib
from collections.abc import Mapping
from pathlib import Path

import pytest

from domain.engine.content import ContentFiles
from domain.engine.ruleset import all_rulesets

RULESETS = Path(__file__).parents[2] / "domain" / "rulesets"


def content_imports(ruleset_id: str) -> list[tuple[str, str]]:
    """(module, name) for each name a module of the ruleset imports from its content module;
    the content module itself and the package's declaration (which names today's content as
    the installed one) are left out."""
    package = RULESETS / ruleset_id
    found = []
    for path in sorted(package.rglob("*.py")):
        if path in (package / "content.py", package / "__init__.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "content" and node.level:
                found += [(str(path.relative_to(RULESETS)), alias.name) for alias in node.names]
    return found


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_no_module_of_a_ruleset_holds_todays_content_in_a_global(ruleset_id):
    content = importlib.import_module(f"domain.rulesets.{ruleset_id}.content")
    bound = [f"{module}: {name}" for module, name in content_imports(ruleset_id)
             if isinstance(getattr(content, name, None), (ContentFiles, Mapping))]
    assert bound == [], "read these through content(), the content in force"


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_every_ruleset_keeps_releases_and_each_is_whole_and_found_by_its_hash(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    kept = ruleset.releases
    assert kept is not None, "a ruleset declares where its releases are kept, so its version can be cut"
    for version in kept:
        release = kept[version]
        folder = kept.content_dir(release.content)
        assert folder.name == release.content
        assert kept.content_of(version).hash == release.content      # every file it had, unchanged
        assert ruleset.release(version, release.content) is not None
