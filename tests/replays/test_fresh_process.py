"""`verify` in a FRESH process (an auditor's script): nothing else has imported the rulesets.

A valid replay must verify OK there too; the event topics it names must be resolvable
without the caller importing ruleset packages by hand.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from replays.format import write
from tests.replays.helpers import match, replay_of

ROOT = Path(__file__).resolve().parents[2]


def test_verify_a_valid_replay_in_a_fresh_process(tmp_path):
    m = match(3)
    path = tmp_path / "r.jsonl"
    write(replay_of(m), path)
    code = ("from pathlib import Path\n"
            "from replays.format import read\n"
            "from replays.verify import verify\n"
            f"r = verify(read(Path({str(path)!r})))\n"
            "print(r.status, r.seq, r.reason)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok None None"
