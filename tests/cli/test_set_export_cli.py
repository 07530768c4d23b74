"""`ringside replay export --set`, `ringside audit set FILE` and `ringside replay import` of a
set file, end to end: the file audits as the set does in its database, with no database at
all; it imports into PostgreSQL and audits there; a changed file fails, a bad one is one error."""
from __future__ import annotations

import os
import subprocess

import orjson
import pytest

from domain.battles import Battles
from domain.sets import Sets
from replays import set_file

from .helpers import RINGSIDE, assert_clean_error, no_traceback, run, run_json


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """A ring set of three battles simulated into a SQLite file, and its exported set file."""
    root = tmp_path_factory.mktemp("set-export")
    db = f"sqlite:///{root / 'home.db'}"
    out = run_json("simulate", "--ruleset", "ring", "--set", "3", "--mode", "all", "--seed", "7", "--db", db,
                   "--json", cwd=root)
    set_id = out["set_ids"][0]
    done = run("replay", "export", "--set", set_id, "--out", "set.jsonl.gz", "--db", db, cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wrote set.jsonl.gz (set {set_id}: 3 battles, {out['events']} events)\n"
    return root, db, set_id, root / "set.jsonl.gz"


def test_the_file_audit_prints_what_the_database_audit_prints(exported):
    root, db, set_id, path = exported
    at_home = run("audit", "set", set_id, "--db", db, cwd=root)
    from_file = run("audit", "set", str(path), cwd=root)
    assert (from_file.returncode, from_file.stdout) == (0, at_home.stdout)
    assert from_file.stdout.splitlines()[0] == f"set {set_id} (ring, all 3): OK"
    assert run_json("audit", "set", str(path), "--json", cwd=root) == \
        run_json("audit", "set", set_id, "--db", db, "--json", cwd=root)


def test_the_file_audit_opens_no_store(exported, tmp_path, monkeypatch):
    _, _, set_id, path = exported

    def no_store(*args, **kwargs):
        raise AssertionError("the file audit opened a store")

    monkeypatch.setattr("domain.battles.BattleStore", no_store)
    done = run("audit", "set", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"set {set_id} (ring, all 3): OK\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.postgres
def test_the_installed_script_audits_with_no_database_then_imports_into_postgres(exported, tmp_path, postgres_url):
    """The one subprocess smoke test: an unusable and an unreachable database URL in the
    environment change nothing for the file audit, which creates no file; then the file
    imports into PostgreSQL, where the set audits by its id."""
    _, _, set_id, path = exported
    for url in (f"sqlite:///{tmp_path / 'no' / 'such' / 'dir' / 'x.db'}", "postgresql://nobody@127.0.0.1:9/none"):
        env = {**os.environ, "RINGSIDE_DATABASE_URL": url, "COLUMNS": "200"}
        done = subprocess.run([RINGSIDE, "audit", "set", str(path)], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120, check=False)
        assert (done.returncode, done.stderr) == (0, "")
        assert done.stdout.splitlines()[0] == f"set {set_id} (ring, all 3): OK"
        assert list(tmp_path.iterdir()) == []
    env = {k: v for k, v in os.environ.items() if k != "RINGSIDE_DATABASE_URL"}
    imported = subprocess.run([RINGSIDE, "replay", "import", str(path), "--db", postgres_url], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120, check=False)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.startswith(f"imported set {set_id}: 3 battles, ")
    audited = subprocess.run([RINGSIDE, "audit", "set", set_id, "--db", postgres_url, "--json"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120, check=False)
    assert audited.returncode == 0, audited.stderr
    report = orjson.loads(audited.stdout)
    assert (report["status"], report["problems"], report["digest"]) == ("ok", [], imported.stdout.split()[-1])


def test_an_imported_set_is_stored_once(exported, tmp_path):
    root, db, set_id, path = exported
    other = f"sqlite:///{tmp_path / 'other.db'}"
    done = run("replay", "import", str(path), "--db", other, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with Battles(db) as home, Battles(other) as away:
        assert Sets(away).get(set_id) == Sets(home).get(set_id)
    assert run("audit", "set", set_id, "--db", other, cwd=tmp_path).stdout == \
        run("audit", "set", set_id, "--db", db, cwd=root).stdout
    assert_clean_error(run("replay", "import", str(path), "--db", other, cwd=tmp_path),
                       f"refused: set {set_id} is already stored here")


def test_a_changed_file_fails_with_its_problem_and_is_not_imported(exported, tmp_path):
    _, _, set_id, path = exported
    found = set_file.read(path)
    found.header["result"]["winner"] = "p2" if found.header["result"]["winner"] != "p2" else "p1"
    set_file.write(found, tmp_path / "bad.jsonl")
    done = run("audit", "set", "bad.jsonl", cwd=tmp_path)
    no_traceback(done)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == f"set {set_id} (ring, all 3): FAIL"
    assert "  problem: the file header's result field differs from what the set's log and battles say" in \
        done.stdout.splitlines()
    assert_clean_error(run("replay", "import", "bad.jsonl", "--db", "sqlite:///bad.db", cwd=tmp_path),
                       "refused: the set does not audit: the file header's result field differs")
    with Battles(f"sqlite:///{tmp_path / 'bad.db'}") as store:
        assert list(store.battle_ids()) == []


@pytest.mark.parametrize("name, text, message", [
    ("cut.jsonl", lambda raw: raw[:raw.index(b"\n", len(raw) // 2) + 10], "is not valid JSON (truncated or corrupted)"),
    ("short.jsonl", lambda raw: b"\n".join(raw.splitlines()[:-1]) + b"\n", "truncated: the file ends before"),
    ("garbled.jsonl", lambda raw: b"\x00\x01garbage\n", "line 1 is not valid JSON"),
    ("empty.jsonl", lambda raw: b"", "empty file"),
    ("other.jsonl", lambda raw: b'{"format": "something-else"}\n', "line 1 is not a ringside-set header"),
    ("missing.jsonl", None, "cannot read"),
])
def test_a_bad_file_is_one_error_line(exported, tmp_path, name, text, message):
    _, _, _, path = exported
    if text is not None:
        (tmp_path / name).write_bytes(text(set_file.dumps(set_file.read(path))))
    assert_clean_error(run("audit", "set", name, cwd=tmp_path), message)
    if name != "other.jsonl":       # a file of no known format is refused as no replay either
        assert_clean_error(run("replay", "import", name, "--db", "sqlite:///x.db", cwd=tmp_path), message)
    assert not (tmp_path / "x.db").exists()


def test_export_refuses_what_it_cannot_write(exported, tmp_path):
    root, db, set_id, _ = exported
    with Battles(db) as store:
        battle_id = Sets(store).load(set_id).battles[0].battle_id
        running = Sets(store).create("ring", {"p1": "ann", "p2": "bob"}, games=2).set_id
    assert_clean_error(run("replay", "export", battle_id, "--set", set_id, "--db", db, cwd=root), "not both")
    assert_clean_error(run("replay", "export", "--db", db, cwd=root), "give a battle id, or --set SET_ID")
    assert_clean_error(run("replay", "export", "--set", set_id, "--as", "p1", "--db", db, cwd=root),
                       "--as: a set file is whole")
    assert_clean_error(run("replay", "export", "--set", running, "--as", "all", "--db", db, cwd=root),
                       f"set {running} has not ended")
    assert_clean_error(run("replay", "export", "--set", "00000000-0000-4000-8000-000000000000", "--db", db,
                           cwd=root), "no set")


def test_export_to_stdout_is_the_file(exported):
    root, db, set_id, path = exported
    done = run("replay", "export", "--set", set_id, "--db", db, cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.encode() == set_file.dumps(set_file.read(path))
