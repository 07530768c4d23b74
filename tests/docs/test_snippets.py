"""The README's and the guide's code runs: every `sh` and `python` block is run here, quoted
from the file it names, or marked with the reason it cannot run (tests/docs/snippets.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.api.server import free_port, serving
from tests.docs.snippets import ROOT, Snippet, excerpt_misses, snippets

DOCS = ["README.md", "docs/adding-a-ruleset.md", "docs/architecture.md"]
ALL = [s for doc in DOCS if (ROOT / doc).exists() for s in snippets(doc)]


def ids(found: list[Snippet]) -> list[str]:
    return [s.where for s in found]


def test_every_block_that_does_not_run_says_why() -> None:
    unexplained = [s.where for s in ALL if s.mark == "not run" and len(s.note) < 10]
    assert not unexplained, f"blocks marked 'not run' without a reason: {unexplained}"
    assert any(s.mark is None for s in ALL), "no block runs at all"


EXCERPTS = [s for s in ALL if s.mark == "excerpt"]


@pytest.mark.parametrize("snippet", EXCERPTS, ids=ids(EXCERPTS))
def test_an_excerpt_stands_in_the_file_it_quotes(snippet: Snippet) -> None:
    missing = excerpt_misses(snippet)
    assert missing is None, f"{snippet.where}: {missing}"


PYTHON = [s for s in ALL if s.mark is None and s.lang == "python"]


@pytest.mark.parametrize("snippet", PYTHON, ids=ids(PYTHON))
def test_a_python_block_runs(snippet: Snippet, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", snippet.code], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 0, f"{snippet.where} failed:\n{done.stderr[-3000:]}"


def shell_session(doc: str, tmp_path: Path, url: str) -> subprocess.CompletedProcess[str]:
    """Every runnable shell block of `doc`, in order, in one shell, as a reader types them into
    one terminal in a checkout: `.venv/bin/activate` puts this interpreter's `ringside` on the
    PATH, `bench/` is the checkout's, the files they write are the test's own, and so is the
    server they talk to."""
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "activate").write_text(f'export PATH="{Path(sys.executable).parent}:$PATH"\n')
    (tmp_path / "bench").symlink_to(ROOT / "bench")
    blocks = [s for s in snippets(doc) if s.mark is None and s.lang in ("sh", "bash")]
    script = ["set -eu"]
    for s in blocks:
        script += [f"echo '--- block {s.where}' >&2", s.code.replace("http://127.0.0.1:8000", url)]
    return subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=240)


def test_the_readme_walk_through_plays_a_battle_on_a_fresh_server(tmp_path: Path) -> None:
    """The README's shell blocks, against `ringside serve` with nothing else: the SQLite default
    in the current folder."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    env["PYTHONPATH"] = str(ROOT)
    serve = [str(Path(sys.executable).parent / "ringside"), "serve", "--port", str(port)]
    with serving(serve, env, port, cwd=tmp_path) as url:
        done = shell_session("README.md", tmp_path, url)
    assert done.returncode == 0, f"{done.stderr[-3000:]}\n{done.stdout[-2000:]}"
    assert done.stdout.count(" ended: ") == 2, done.stdout[-2000:]       # both bots saw the battle end
    assert (tmp_path / "ringside.db").exists()


def test_the_guides_shell_blocks_run(tmp_path: Path) -> None:
    done = shell_session("docs/adding-a-ruleset.md", tmp_path, "http://127.0.0.1:1")
    assert done.returncode == 0, f"{done.stderr[-3000:]}\n{done.stdout[-2000:]}"
