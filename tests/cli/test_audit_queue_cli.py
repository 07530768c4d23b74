"""`ringside audit queue`: every wave of a queue re-derived from a real SQLite file."""
from __future__ import annotations

from domain.battles import Battles
from domain.matchmaking.service import Queues
from domain.players import Players
from tests.clocktime import Clock

from .helpers import assert_clean_error, run, run_json


def test_the_queue_audit_prints_ok_and_a_digest_and_an_unknown_queue_is_one_error_line(tmp_path):
    # given a queue in which two players were paired
    db = f"sqlite:///{tmp_path / 'q.db'}"
    clock = Clock()
    with Battles(db, now_ms=clock) as battles:
        players = Players(battles.store)
        queues = Queues(battles, players)
        for name in ("alice", "bob"):
            queues.open("deckduel-blitz", players.register(name).player_token)
        clock.advance(2_000)
        assert queues.wave("deckduel-blitz") is not None
    # when it is audited
    done = run("audit", "queue", "deckduel-blitz", "--db", db, cwd=tmp_path)
    report = run_json("audit", "queue", "deckduel-blitz", "--db", db, "--json", cwd=tmp_path)
    # then it is ok, with the one wave and its battle, the head hash and a digest
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == report["summary"]
    assert (report["status"], report["events"], report["waves"], report["battles"]) == ("ok", 3, 1, 1)
    assert report["summary"][1] == f"ok · head {report['head']} · digest {report['digest']}"
    assert_clean_error(run("audit", "queue", "chess-bullet", "--db", db, cwd=tmp_path), "queue")
