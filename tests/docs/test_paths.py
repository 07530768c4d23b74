"""Every file the README and the guide name exists: a reader who follows a path finds the file.

A path may name a pattern: `<id>` and `<name>` match any name and `<version>` any version, so
`tests/conformance/test_<id>.py` must exist for at least one ruleset. A bare file
name (`given.py`) must name a file somewhere in the tree. A folder that runs write and git
ignores (`test-artifacts/`) is not looked for."""
from __future__ import annotations

import re

import pytest

from tests.docs.snippets import ROOT

DOCS = ["README.md", "docs/adding-a-ruleset.md", "docs/architecture.md"]
CODE = re.compile(r"`([A-Za-z0-9_.<>/*-]+\.(?:py|md|js|css|toml|jsonl|html)|[A-Za-z0-9_<>-]+(?:/[A-Za-z0-9_<>*-]+)+/?)`")
PLACEHOLDER = re.compile(r"<[a-z]+>")
TREE = {p.name for p in ROOT.rglob("*") if ".venv" not in p.parts and ".git" not in p.parts}
# What runs write (test artifacts, benchmark results): named by the docs, absent from a checkout.
WRITTEN = tuple(line.strip() for line in (ROOT / ".gitignore").read_text().splitlines()
                if line.strip().endswith("/") and "*" not in line)


def named_paths(doc: str) -> list[str]:
    text = (ROOT / doc).read_text()
    return sorted({m.group(1) for m in CODE.finditer(text)
                   if not m.group(1).startswith(("http", "/", "."))})


@pytest.mark.parametrize("doc", [d for d in DOCS if (ROOT / d).exists()])
def test_every_file_a_doc_names_exists(doc: str) -> None:
    missing = []
    for name in named_paths(doc):
        if name.startswith(WRITTEN):
            continue
        pattern = PLACEHOLDER.sub("*", name.rstrip("/"))
        if "/" in name:
            # a ruleset's own path (`deckduel/view.py`, `<ruleset>/releases/`) is read from domain/rulesets
            found = any(ROOT.glob(pattern)) or any((ROOT / "domain" / "rulesets").glob("**/" + pattern))
        else:
            found = any(ROOT.glob("**/" + pattern)) if "*" in pattern else pattern in TREE
        if not found:
            missing.append(name)
    assert not missing, f"{doc} names files that do not exist: {missing}"
