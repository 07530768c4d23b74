"""The CLI "done means" checks: simulate, export, verify, tamper, determinism."""
from __future__ import annotations

import gzip
import re

import orjson
import pytest

import domain.rulesets  # noqa: F401 - registers event topics for in-process reads (see test_fresh_process)

from domain.battles import Battles
from domain.engine.battle import BattleEnded
from tests.cli.helpers import no_traceback, run, run_json

SEED = "11"
N = 30


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    work = tmp_path_factory.mktemp("sim")
    out = run_json("simulate", "--ruleset", "deckduel", "--battles", str(N), "--seed", SEED,
                   "--db", "sqlite:///x.db", "--json", cwd=work)
    return work, out


@pytest.fixture(scope="module")
def exported(sim):
    work, out = sim
    bid = out["battle_ids"][0]
    done = run("replay", "export", bid, "-o", "f.jsonl", "--db", "sqlite:///x.db", cwd=work)
    assert done.returncode == 0, done.stderr
    return work, bid, work / "f.jsonl"


def test_simulate_prints_the_json_summary(sim):
    work, out = sim
    assert set(out) >= {"battles", "battle_ids", "events", "seconds"}
    assert out["battles"] == N
    assert len(out["battle_ids"]) == N == len(set(out["battle_ids"]))
    assert isinstance(out["seconds"], (int, float)) and out["seconds"] >= 0
    with Battles(f"sqlite:///{work / 'x.db'}") as battles:
        assert list(battles.battle_ids()) == out["battle_ids"]
        total = sum(len(battles.records(bid)) for bid in out["battle_ids"])
    assert out["events"] == total


def test_every_simulated_battle_is_finished_and_stored_whole(sim):
    work, out = sim
    with Battles(f"sqlite:///{work / 'x.db'}") as battles:
        for bid in out["battle_ids"]:
            state = battles.load(bid)
            assert state.outcome is not None, bid
            records = battles.records(bid)
            assert [r.seq for r in records] == list(range(1, state.seq + 1))
            assert isinstance(records[-1].event, BattleEnded)


def test_export_then_verify_prints_ok(exported):
    work, bid, path = exported
    lines = path.read_bytes().splitlines()
    header = orjson.loads(lines[0])
    assert header["format"] == "ringside-replay" and header["battle_id"] == bid
    assert [orjson.loads(line)["seq"] for line in lines[1:]] == list(range(1, len(lines)))
    done = run("replay", "verify", "f.jsonl", cwd=work)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "OK f.jsonl"


def test_export_to_stdout_matches_the_file(exported):
    work, bid, path = exported
    done = run("replay", "export", bid, "--db", "sqlite:///x.db", cwd=work)
    assert done.returncode == 0
    assert done.stdout.encode() == path.read_bytes()


def flip(path, line_no: int, pattern: bytes, out) -> int:
    """Change ONE byte of line `line_no` (1-based) at the first byte after `pattern`; return its seq."""
    lines = path.read_bytes().split(b"\n")
    line = bytearray(lines[line_no - 1])
    at = line.index(pattern) + len(pattern)
    old = line[at]
    if chr(old).isdigit():
        line[at] = ord("7") if old != ord("7") else ord("3")
    else:
        line[at] = ord("q") if old != ord("q") else ord("z")
    lines[line_no - 1] = bytes(line)
    out.write_bytes(b"\n".join(lines))
    return orjson.loads(line)["seq"]


def line_of(path, topic: str, start: int = 10) -> int:
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if number >= start and f'"type":"{topic}"'.encode() in line:
            return number
    raise LookupError(topic)


@pytest.mark.parametrize("topic,pattern", [
    ("deckduel.DamageFlipped", b'"card":"'),        # a letter in a card name
    ("deckduel.DamageFlipped", b'"remaining":'),    # a digit
    ("deckduel.CardsDrawn", b'"count":'),
    ("deckduel.AttackPlayed", b'"card":"'),
])
def test_one_changed_byte_fails_verify_at_that_seq(exported, topic, pattern):
    work, _, path = exported
    k = line_of(path, topic)
    bad = work / f"bad-{k}-{pattern[1:5].decode()}.jsonl"
    seq = flip(path, k, pattern, bad)
    assert seq == k - 1
    done = run("replay", "verify", bad.name, cwd=work)
    no_traceback(done)
    assert done.returncode == 1
    assert re.fullmatch(rf"FAIL {re.escape(bad.name)}: first bad event seq {seq}: .+", done.stdout.strip()), done.stdout


def test_verify_several_files_reports_each_and_exits_with_the_worst(exported):
    work, _, path = exported
    k = line_of(path, "deckduel.DamageFlipped")
    seq = flip(path, k, b'"card":"', work / "multi-bad.jsonl")
    done = run("replay", "verify", "f.jsonl", "multi-bad.jsonl", cwd=work)
    assert done.returncode == 1
    out = done.stdout.strip().splitlines()
    assert out[0] == "OK f.jsonl"
    assert out[1].startswith(f"FAIL multi-bad.jsonl: first bad event seq {seq}: ")


def test_verify_json_report(exported):
    work, _, path = exported
    done = run("replay", "verify", "--json", "f.jsonl", cwd=work)
    assert done.returncode == 0
    report = orjson.loads(done.stdout)
    last = orjson.loads(path.read_bytes().splitlines()[-1])
    assert report["status"] == "ok" and report["head"] == last["chain"] and report["file"] == "f.jsonl"


def test_gzip_export_verifies_ok(exported):
    work, bid, path = exported
    done = run("replay", "export", bid, "-o", "f.jsonl.gz", "--db", "sqlite:///x.db", cwd=work)
    assert done.returncode == 0, done.stderr
    raw = (work / "f.jsonl.gz").read_bytes()
    assert raw[:2] == b"\x1f\x8b"
    assert gzip.decompress(raw) == path.read_bytes()
    done = run("replay", "verify", "f.jsonl.gz", cwd=work)
    assert (done.returncode, done.stdout.strip()) == (0, "OK f.jsonl.gz")


def test_same_seed_on_a_second_database_gives_the_same_battles(sim):
    work, out = sim
    again = run_json("simulate", "--ruleset", "deckduel", "--battles", str(N), "--seed", SEED,
                     "--db", "sqlite:///second.db", "--json", cwd=work)
    assert again["battles"] == N and again["events"] == out["events"]
    assert not set(again["battle_ids"]) & set(out["battle_ids"])
    with Battles(f"sqlite:///{work / 'x.db'}") as one, Battles(f"sqlite:///{work / 'second.db'}") as two:
        winners = [one.load(a).outcome.winner for a in out["battle_ids"]]
        assert winners == [two.load(b).outcome.winner for b in again["battle_ids"]]
        assert len(set(winners)) > 1, "30 random battles all won by the same seat"
        for a, b in zip(out["battle_ids"], again["battle_ids"], strict=True):
            assert one.load(a).outcome == two.load(b).outcome
            ra, rb = one.records(a), two.records(b)
            assert [r.topic for r in ra] == [r.topic for r in rb]
            # after BattleCreated (battle id, time) every event is the same, byte for byte
            assert [r.event for r in ra[1:]] == [r.event for r in rb[1:]]


def test_a_different_seed_gives_different_battles(sim):
    work, out = sim
    other = run_json("simulate", "--ruleset", "deckduel", "--battles", "3", "--seed", "12",
                     "--db", "sqlite:///third.db", "--json", cwd=work)
    with Battles(f"sqlite:///{work / 'x.db'}") as one, Battles(f"sqlite:///{work / 'third.db'}") as two:
        pairs = zip(out["battle_ids"][:3], other["battle_ids"], strict=True)
        assert any([r.event for r in one.records(a)[1:]] != [r.event for r in two.records(b)[1:]]
                   for a, b in pairs)


def test_simulate_without_json_lists_the_ids_and_uses_the_default_database(tmp_path):
    done = run("simulate", "--ruleset", "deckduel", "--battles", "2", "--seed", "3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("stored 2 deckduel battles")
    assert (tmp_path / "ringside.db").exists()
    with Battles(f"sqlite:///{tmp_path / 'ringside.db'}") as battles:
        assert list(battles.battle_ids()) == lines[1:]


def test_simulated_seats_are_house_seats_of_their_policies(sim):
    # `--bots` defaults to random,random: every seat is played by the house's random bot
    work, out = sim
    with Battles(f"sqlite:///{work / 'x.db'}") as battles:
        players = {bid: battles.load(bid).created.players for bid in out["battle_ids"][:3]}
    assert all(p == {"p1": {"bot": "random"}, "p2": {"bot": "random"}} for p in players.values())
