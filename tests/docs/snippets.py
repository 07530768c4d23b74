"""The code blocks of a Markdown document, and what each asks of the tests.

A fenced block in `sh`, `bash` or `python` runs as a test unless the line just above its
fence says otherwise:

- `<!-- not run: REASON -->`: it cannot run in a test (it serves forever, needs a production
  host); the reason is required, and says why;
- `<!-- excerpt: PATH -->`: it quotes code from PATH (relative to the repository root), and its
  lines must stand in that file, in order (a line `...` skips any number of lines).

Blocks in other languages (a diagram, a JSON answer) are prose.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNNABLE = {"sh", "bash", "python"}
MARK = re.compile(r"<!--\s*(not run|excerpt):\s*(.*?)\s*-->")


@dataclass(frozen=True)
class Snippet:
    doc: str
    line: int           # the fence's line, 1-based
    lang: str
    code: str
    mark: str | None    # "not run", "excerpt" or None (it runs)
    note: str           # the reason, or the excerpt's path

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def snippets(doc: str) -> list[Snippet]:
    lines = (ROOT / doc).read_text().splitlines()
    found: list[Snippet] = []
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        indent, lang = fence.group(1), fence.group(2)
        end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
        body = [line[len(indent):] if line.startswith(indent) else line for line in lines[i + 1:end]]
        mark = MARK.search(lines[i - 1]) if i else None
        if lang in RUNNABLE:
            found.append(Snippet(doc, i + 1, lang, "\n".join(body) + "\n",
                                 mark.group(1) if mark else None, mark.group(2) if mark else ""))
        i = end + 1
    return found


def excerpt_misses(snippet: Snippet) -> str | None:
    """None if the excerpt stands in its file: each run of lines between `...` lines appears,
    in order, as consecutive lines of the file (blank lines aside). Else the first run that
    does not, and where it was looked for."""
    path = ROOT / snippet.note
    if not path.is_file():
        return f"{snippet.note} does not exist"
    source = [line.rstrip() for line in path.read_text().splitlines() if line.strip()]
    runs: list[list[str]] = [[]]
    for line in snippet.code.splitlines():
        if line.strip() == "...":
            runs.append([])
        elif line.strip():
            runs[-1].append(line.rstrip())
    at = 0
    for run in (r for r in runs if r):
        found = next((i for i in range(at, len(source) - len(run) + 1) if source[i:i + len(run)] == run), None)
        if found is None:
            return f"these lines are not in {snippet.note} (in order): {run[0]!r} ..."
        at = found + len(run)
    return None
