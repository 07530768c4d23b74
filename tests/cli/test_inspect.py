"""`rulesets`, `log` with viewers, `replay show` and `replay diff`."""
from __future__ import annotations

import re

import orjson
import pytest

import domain.rulesets  # noqa: F401 - registers event topics for in-process reads
from domain.battles import Battles
from domain.engine.battle import fold
from domain.engine.ruleset import get_ruleset
from tests.cli.helpers import run, run_json

RS = get_ruleset("deckduel")
LINE = re.compile(r"^\s*(\d+)  (\S+)\s+(?:\[(\w+)\] )?(.*)$")


def parse_log(text: str) -> list[tuple[int, str, str | None, str]]:
    rows = []
    for line in text.splitlines():
        m = LINE.match(line)
        assert m, line
        rows.append((int(m.group(1)), m.group(2), m.group(3), m.group(4)))
    return rows


def test_rulesets_json_lists_deckduel_with_version_and_content_hash(tmp_path):
    rows = run_json("rulesets", "--json", cwd=tmp_path)["rulesets"]
    row = next(r for r in rows if r["id"] == "deckduel")
    assert row["version"] == RS.version == "1.1.0"
    assert row["content_hash"] == RS.content_hash and re.fullmatch(r"[0-9a-f]{32}", row["content_hash"])
    assert row["seats"] == ["p1", "p2"]


def test_rulesets_plain(tmp_path):
    done = run("rulesets", cwd=tmp_path)
    assert done.returncode == 0
    assert any(line.split()[:2] == ["deckduel", RS.version] for line in done.stdout.splitlines())


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """An UNFINISHED battle created in-process on a sqlite file: both mulligans done."""
    work = tmp_path_factory.mktemp("live")
    url = f"sqlite:///{work / 'live.db'}"
    with Battles(url) as battles:
        created = battles.create("deckduel", {"p1": "ann", "p2": "ben"}, revealed=b"\x09" * 32)
        battles.submit(created.battle_id, "p1", {"type": "mulligan", "cards": []})
        battles.submit(created.battle_id, "p2", {"type": "mulligan", "cards": []})
        assert battles.load(created.battle_id).outcome is None
        records = battles.records(created.battle_id)
    return work, url, created.battle_id, records


def log_rows(live, viewer: str, *extra: str):
    work, url, bid, _ = live
    done = run("log", bid, "--as", viewer, "--db", url, *extra, cwd=work)
    assert done.returncode == 0, done.stderr
    return parse_log(done.stdout)


def drawn(rows, seat: str):
    return [row for row in rows if row[1] == "deckduel.CardsDrawn" and row[2] == seat]


def test_log_as_p1_shows_p1_cards_and_hides_p2_cards(live):
    _, _, _, records = live
    rows = log_rows(live, "p1")
    assert [r[0] for r in rows] == [r.seq for r in records]
    first_hand = next(r.event.cards for r in records if r.topic == "deckduel.CardsDrawn" and r.event.seat == "p1")
    mine = drawn(rows, "p1")
    assert mine and all("cards=hidden" not in row[3] for row in mine)
    assert f"cards={orjson.dumps(list(first_hand)).decode()}" in mine[0][3]
    theirs = drawn(rows, "p2")
    assert theirs and all("cards=hidden" in row[3] for row in theirs)


def test_log_as_p2_hides_p1_cards(live):
    _, _, _, records = live
    rows = log_rows(live, "p2")
    p1_cards = {c for r in records if r.topic == "deckduel.CardsDrawn" and r.event.seat == "p1"
                for c in r.event.cards}
    for row in drawn(rows, "p1"):
        assert "cards=hidden" in row[3]
        assert re.search(r"count=\d+", row[3])
    p1_lines = " ".join(row[3] for row in rows if row[2] == "p1")
    leaked = {c for c in p1_cards if re.search(rf"\b{c}\b", p1_lines)}
    assert not leaked, leaked
    assert all("cards=hidden" not in row[3] for row in drawn(rows, "p2"))


def test_log_as_spectator_hides_both_hands_and_deck_orders(live):
    rows = log_rows(live, "spectator")
    for row in rows:
        if row[1] in ("deckduel.CardsDrawn", "deckduel.CardsReturned"):
            assert "cards=hidden" in row[3], row
        if row[1] == "deckduel.DeckPrepared":
            assert "order=hidden" in row[3], row
        if row[1] == "engine.BattleCreated":
            assert "seed=hidden" in row[3], row


def test_log_as_all_shows_everything(live):
    rows = log_rows(live, "all")
    assert not any("hidden" in row[3] for row in rows)


def test_log_from(live):
    rows = log_rows(live, "p1", "--from", "5")
    assert rows[0][0] == 5 and [r[0] for r in rows] == list(range(5, 5 + len(rows)))


@pytest.fixture(scope="module")
def replays(tmp_path_factory):
    work = tmp_path_factory.mktemp("show")
    out = run_json("simulate", "--ruleset", "deckduel", "--battles", "2", "--seed", "21",
                   "--db", "sqlite:///r.db", "--json", cwd=work)
    for name, bid in zip(("a.jsonl", "b.jsonl"), out["battle_ids"]):
        done = run("replay", "export", bid, "-o", name, "--db", "sqlite:///r.db", cwd=work)
        assert done.returncode == 0, done.stderr
    return work, out["battle_ids"]


def test_replay_show_at_20_as_p1(replays):
    work, ids = replays
    done = run("replay", "show", "a.jsonl", "--at", "20", "--as", "p1", cwd=work)
    assert done.returncode == 0, done.stderr
    shown = orjson.loads(done.stdout)
    assert shown["seq"] == 20
    with Battles(f"sqlite:///{work / 'r.db'}") as battles:
        state = None
        for rec in battles.records(ids[0])[:20]:
            state = fold(RS, state, rec)
    seats = shown["view"]["seats"]
    assert seats["p1"]["hand"] == list(state.game.p1.hand)
    assert seats["p2"]["hand"] is None
    assert seats["p2"]["hand_count"] == len(state.game.p2.hand)
    assert "deck" not in seats["p1"]


def test_replay_show_defaults_to_the_last_event(replays):
    work, _ = replays
    n = len((work / "a.jsonl").read_bytes().splitlines()) - 1
    done = run("replay", "show", "a.jsonl", cwd=work)
    assert done.returncode == 0
    assert orjson.loads(done.stdout)["seq"] == n


def test_replay_diff_of_two_battles(replays):
    work, _ = replays
    done = run("replay", "diff", "a.jsonl", "b.jsonl", cwd=work)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == "first divergence at seq 1"


def test_replay_diff_of_the_same_file_is_identical(replays):
    work, _ = replays
    n = len((work / "a.jsonl").read_bytes().splitlines()) - 1
    done = run("replay", "diff", "a.jsonl", "a.jsonl", cwd=work)
    assert (done.returncode, done.stdout.strip()) == (0, f"identical: {n} events")


def test_replay_diff_finds_a_late_divergence(replays):
    work, _ = replays
    lines = (work / "a.jsonl").read_bytes().splitlines()
    k = next(i for i, line in enumerate(lines) if i > 30 and b'"deckduel.DamageFlipped"' in line)
    event = orjson.loads(lines[k])
    event["data"]["remaining"] += 5
    lines[k] = orjson.dumps(event)
    (work / "late.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    done = run("replay", "diff", "a.jsonl", "late.jsonl", cwd=work)
    assert done.returncode == 1
    out = done.stdout.splitlines()
    assert out[0] == f"first divergence at seq {event['seq']}"
    assert "deckduel.DamageFlipped" in out[1] and "deckduel.DamageFlipped" in out[2]
