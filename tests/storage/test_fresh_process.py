"""Reading a battle in a FRESH process, where nothing has imported the rulesets yet.

Event topics are registered when their classes are imported. A new server process (or a
script) that reads records, or repeats an idempotent command, before anything else has
looked a ruleset up must still decode every stored event.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from domain.battles import Battles
from tests.storage.helpers import PLAYERS

ROOT = Path(__file__).resolve().parents[2]


def fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)


def test_records_in_a_fresh_process(db_url):
    with Battles(db_url) as battles:
        created = battles.create("deckduel", PLAYERS)
        battles.submit(created.battle_id, "p1", {"type": "mulligan", "cards": []})
        expected = len(battles.records(created.battle_id))
    done = fresh(f"from domain.battles import Battles\n"
                 f"b = Battles({db_url!r})\n"
                 f"print(len(b.records({created.battle_id!r})))\n"
                 f"b.close()\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(expected)


def test_idempotent_repeat_as_the_first_call_of_a_fresh_process(db_url):
    with Battles(db_url) as battles:
        created = battles.create("deckduel", PLAYERS)
        first = battles.submit(created.battle_id, "p1", {"type": "mulligan", "cards": []},
                               idempotency_key="retry-after-restart")
    done = fresh(f"from domain.battles import Battles\n"
                 f"b = Battles({db_url!r})\n"
                 f"r = b.submit({created.battle_id!r}, 'p1', {{'type': 'mulligan', 'cards': []}},"
                 f" idempotency_key='retry-after-restart')\n"
                 f"print(r.seq, [x.seq for x in r.records])\n"
                 f"b.close()\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{first.seq} {[r.seq for r in first.records]}"
    with Battles(db_url) as battles:
        assert len(battles.records(created.battle_id)) == first.seq
