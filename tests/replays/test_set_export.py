"""A set travels whole: its file holds the set's log and every battle's replay; the file audits
with no database exactly as the set audits in its own; it imports into PostgreSQL, where the
set then audits and reads as it did at home; and a file changed in any part fails its audit
with a problem naming the part."""
from __future__ import annotations

import copy
import random
import re
import uuid

import pytest

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.battles import Battles
from domain.engine.errors import ReplayError
from domain.engine.events import OMNISCIENT, SPECTATOR, event_data
from domain.engine.ruleset import get_ruleset
from domain.sets import Sets
from replays import format as replay_format
from replays import set_file
from replays.audit import audit_set, audit_set_file
from replays.format import Replay
from replays.importer import ImportRefused, import_replay, import_set
from replays.set_file import NotExportable, SetFile
from tests.storage.helpers import play_out

from .helpers import rechain

RAT_ROUTE = {"formation": ["sewer_ambush", "back_alley", "clockwork_vault"]}
SETS = {"ring": ({"p1": "greedy", "p2": "random"}, None), "rat": ({"p1": "random"}, RAT_ROUTE)}


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """A SQLite file with one three-battle set of `ring` and one of `rat` (both carry state from
    battle to battle); their ids by ruleset."""
    url = f"sqlite:///{tmp_path_factory.mktemp('home') / 'home.db'}"
    ids = {}
    with Battles(url) as store:
        for ruleset, (bots, setup) in SETS.items():
            policies = {seat: get_policy(name, ruleset) for seat, name in bots.items()}
            ids[ruleset] = Sets(store).simulate(ruleset, policies, games=3, mode="all", seed="travel",
                                                setup=setup).set_id
    return url, ids


@pytest.fixture(scope="module")
def exported(home):
    """Each set's file, and its audit in the home database."""
    url, ids = home
    with Battles(url) as store:
        sets = Sets(store)
        return {ruleset: (set_file.build(sets, set_id, SPECTATOR), audit_set(store, sets, set_id, omniscient=True))
                for ruleset, set_id in ids.items()}


def clone(found: SetFile) -> SetFile:
    return copy.deepcopy(found)


def test_the_file_holds_the_set_record_and_each_battle_as_its_own_replay_export(home, exported, tmp_path):
    url, ids = home
    found, _ = exported["ring"]
    with Battles(url) as store:
        state = Sets(store).load(ids["ring"])
        replays = [store.reading.sight(b.battle_id, SPECTATOR).replay() for b in state.battles]
        log = [{"seq": r.seq, "type": r.event.TOPIC, "data": event_data(r.event), "chain": r.chain}
               for r in Sets(store).records(ids["ring"])]
    created = state.created
    assert found.battles == replays and found.events == log
    assert found.header == {
        "format": "ringside-set", "version": 1, "set_id": ids["ring"],
        "ruleset": {"id": "ring", "version": created.ruleset_version, "content_hash": created.content_hash},
        "players": {"p1": {"bot": "greedy"}, "p2": {"bot": "random"}}, "games": 3, "mode": "all", "private": False,
        "created_at": created.created_at,
        "battles": [{"index": i, "battle_id": b.battle_id, "seed_commitment": r.header["seed"]["commitment"],
                     "events": len(r.events)} for i, (b, r) in enumerate(zip(state.battles, replays))],
        "result": {"winner": state.ended.winner, "score": state.ended.score}, "head": state.chain, "events": 8}
    assert [line["type"] for line in found.events] == ["sets.SetCreated", *["sets.SetBattleStarted",
                                                                            "sets.SetBattleFinished"] * 3,
                                                       "sets.SetEnded"]
    assert found.events[0]["data"]["setup"] is not None        # whole: the sealed setup travels too
    path = tmp_path / "ring-set.jsonl.gz"
    set_file.write(found, path)
    assert set_file.read(path) == set_file.parse(set_file.dumps(found))
    assert set_file.dumps(set_file.read(path)) == set_file.dumps(found)
    # each battle's lines are its own replay file's, byte for byte
    assert set_file.dumps(found).endswith(b"".join(replay_format.dumps(replay) for replay in replays))


@pytest.mark.parametrize("ruleset", sorted(SETS))
def test_the_file_audits_with_no_database_exactly_as_the_set_audits_at_home(exported, ruleset):
    found, at_home = exported[ruleset]
    report = audit_set_file(found)
    assert report == at_home
    assert (report["status"], report["problems"], [b["status"] for b in report["battles"]]) == \
        ("ok", [], ["ok", "ok", "ok"])
    assert report["carry"] is not None and report["digest"] == found.header["head"]


@pytest.mark.postgres
@pytest.mark.parametrize("ruleset", sorted(SETS))
def test_an_imported_set_audits_and_reads_on_postgres_as_at_home(home, exported, postgres_url, ruleset):
    url, ids = home
    found, at_home = exported[ruleset]
    set_id = ids[ruleset]
    with Battles(postgres_url) as pg, Battles(url) as sqlite:
        done = import_set(pg, set_file.parse(set_file.dumps(found)))
        assert (done.set_id, done.battles, done.digest, done.winner) == (set_id, 3, at_home["digest"],
                                                                         at_home["winner"])
        assert done.events == sum(len(r.events) for r in found.battles)
        imported, original = Sets(pg), Sets(sqlite)
        assert audit_set(pg, imported, set_id, omniscient=True) == at_home
        assert audit_set(pg, imported, set_id) == audit_set(sqlite, original, set_id)
        assert imported.get(set_id) == original.get(set_id)
        assert imported.records(set_id) == original.records(set_id)
        for battle in original.load(set_id).battles:
            assert imported.set_of(battle.battle_id) == set_id
            assert pg.records(battle.battle_id) == sqlite.records(battle.battle_id)
            middle = sqlite.load(battle.battle_id).seq // 2
            assert pg.load(battle.battle_id, at=middle) == sqlite.load(battle.battle_id, at=middle)
        with pytest.raises(ImportRefused, match=f"refused: set {set_id} is already stored here"):
            import_set(pg, found)
        assert imported.records(set_id) == original.records(set_id)


@pytest.mark.postgres
def test_the_http_set_routes_show_an_imported_set_as_at_home(home, exported, postgres_url):
    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.services import Settings

    url, ids = home
    with Battles(postgres_url) as pg:
        import_set(pg, exported["ring"][0])
    pages = []
    for database in (url, postgres_url):
        with TestClient(create_app(Settings(database_url=database))) as client:
            pages.append([client.get(f"/sets/{ids['ring']}{tail}").json() for tail in ("", "/audit")])
    assert pages[0] == pages[1]
    assert pages[1][1]["status"] == "ok" and pages[1][0]["finished"] is True


def stored_anything(store: Battles, found: SetFile) -> bool:
    keys = [found.header["set_id"], *(b["battle_id"] for b in found.header["battles"])]
    return any(list(store.store.events.get(uuid.UUID(key), limit=1)) for key in keys)


@pytest.mark.postgres
def test_a_set_whose_battle_is_stored_already_is_refused_whole(exported, postgres_url):
    found, _ = exported["rat"]
    second = found.battles[1]
    with Battles(postgres_url) as pg:
        import_replay(pg, second)
        with pytest.raises(ImportRefused, match=f"refused: battle {second.header['battle_id']} of set "):
            import_set(pg, found)
        assert list(pg.battle_ids()) == [second.header["battle_id"]]


@pytest.mark.postgres
def test_a_conflict_at_the_write_leaves_nothing_of_the_set(exported, postgres_url, monkeypatch):
    """Another import wins between the check and the write: the one transaction stores nothing."""
    found, _ = exported["ring"]
    last = found.battles[2]
    with Battles(postgres_url) as pg:
        import_replay(pg, last)
        monkeypatch.setattr("replays.importer.refuse_stored", lambda *args: None)
        with pytest.raises(ImportRefused, match="or one of its battles is already stored here"):
            import_set(pg, found)
        assert list(pg.battle_ids()) == [last.header["battle_id"]]
        assert not list(pg.store.events.get(uuid.UUID(found.header["set_id"]), limit=1))


# -- tampering --------------------------------------------------------------------------------
def rechain_set(found: SetFile) -> None:
    """Recompute the set log's chains and the header's head, as a forger would."""
    rechain(found.events)
    found.header["head"] = found.events[-1]["chain"]


def bump(value):
    """`value` with its first integer (in sorted key order) one higher."""
    if isinstance(value, dict):
        for key in sorted(value):
            changed = bump(value[key])
            if changed is not None:
                return {**value, key: changed}
    elif type(value) is int:
        return value + 1
    return None


def set_event(found: SetFile, topic: str, index: int = 0) -> dict:
    return [e for e in found.events if e["type"] == topic and e["data"].get("index", 0) == index][0]


def change_an_event(found):
    found.battles[1].events[9]["data"]["forged"] = True


def forge_an_event(found):
    found.battles[1].events[9]["data"]["forged"] = True
    rechain(found.battles[1].events, 9)


def remove_a_battle(found):
    del found.battles[1]
    del found.header["battles"][1]


def reorder_the_battles(found):
    found.battles.reverse()
    found.header["battles"].reverse()


def change_the_result(found):
    ended = set_event(found, "sets.SetEnded")["data"]
    loser = min(ended["score"], key=ended["score"].get)
    ended["winner"], ended["score"][loser] = loser, ended["score"][loser] + 3
    found.header["result"] = {"winner": ended["winner"], "score": ended["score"]}
    rechain_set(found)


def change_the_header_result(found):
    found.header["result"]["winner"] = None


def change_a_battle_result_in_the_log(found):
    finished = set_event(found, "sets.SetBattleFinished")["data"]
    finished["winner"] = None


def change_the_carry_over(found):
    started = set_event(found, "sets.SetBattleStarted", 1)["data"]
    started["carry"] = bump(started["carry"])
    rechain_set(found)


def change_a_seed_commitment(found):
    found.battles[0].header["seed"]["commitment"] = "0" * 64


@pytest.mark.parametrize("ruleset", sorted(SETS))
@pytest.mark.parametrize("tamper, problem", [
    (change_an_event, "battle 1 does not verify: hash chain mismatch: the event or one before it was altered"),
    (forge_an_event, "battle 1 does not verify: "),
    (remove_a_battle, "battle 1 ({battle_1}) is not in the file"),
    (reorder_the_battles, "the file's battles are not in the set's order: the set plays {order}; "
                          "the file holds them as {reversed}"),
    (change_the_result, "the set's final score or winner does not follow from its battles"),
    (change_the_header_result, "the file header's result field differs from what the set's log and battles say"),
    (change_a_battle_result_in_the_log, "the set log's hash chain breaks at seq 3"),
    (change_the_carry_over, "battle 1 started from a carry-over that does not follow from the battles"),
    (change_a_seed_commitment, "battle 0 does not verify: the header's seed commitment or nonces differ from "
                               "BattleCreated"),
])
def test_a_changed_file_fails_its_audit_naming_what_is_wrong(exported, ruleset, tamper, problem, tmp_path):
    found, _ = exported[ruleset]
    order = [b["battle_id"] for b in found.header["battles"]]
    bad = clone(found)
    tamper(bad)
    report = audit_set_file(set_file.parse(set_file.dumps(bad)))
    expected = problem.format(battle_1=order[1], order=", ".join(order), reversed=", ".join(reversed(order)))
    assert report["status"] == "fail"
    assert any(p.startswith(expected) for p in report["problems"]), report["problems"]
    assert f"  problem: {report['problems'][0]}" in report["summary"]
    with Battles(f"sqlite:///{tmp_path / 'refusing.db'}") as store:
        with pytest.raises(ImportRefused, match="refused: the set does not audit: "):
            import_set(store, bad)
        assert not stored_anything(store, found)


def test_the_battles_after_one_that_does_not_verify_are_still_verified_each(exported):
    bad = clone(exported["ring"][0])
    change_an_event(bad)
    report = audit_set_file(set_file.parse(set_file.dumps(bad)))
    assert [(b["status"], b.get("seq")) for b in report["battles"]] == [("ok", None), ("fail", 10), ("ok", None)]
    assert report["problems"][1:] == ["the set's record from battle 1's result on is not checked: it follows from "
                                      "that battle"]


def test_a_battle_of_another_game_under_a_battle_id_of_the_set_fails_it(exported):
    """A forger can play a whole new battle, which verifies, under any id: the set's rules do
    not decide from a battle of another game; the set stops there and the rest verify alone."""
    bad = clone(exported["rat"][0])
    battle_id = bad.header["battles"][1]["battle_id"]
    bot = get_policy("random", "deckduel")
    played = play(get_ruleset("deckduel"), {"p1": bot, "p2": bot}, battle_id=battle_id,
                  revealed=seeded_bytes("foreign", 0), bot_seed=seeded_bytes("foreign", 1),
                  created_at="2024-01-01T00:00:00.000Z")
    bad.battles[1] = replay_format.build(played.state, played.records)
    bad.header["battles"][1]["events"] = len(bad.battles[1].events)
    report = audit_set_file(set_file.parse(set_file.dumps(bad)))
    assert [b["status"] for b in report["battles"]] == ["ok", "ok", "ok"]
    assert report["problems"][:2] == ["battle 1 was not created from the set's setup and carry-over",
                                      "the set's record from battle 1's result on is not checked: it follows from "
                                      "that battle"]


# -- unreadable files -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ring_text(exported):
    return set_file.dumps(exported["ring"][0])


@pytest.mark.parametrize("cut, message", [
    (lambda text: text[:len(text) - 40], "is not valid JSON (truncated or corrupted)"),
    (lambda text: b"\n".join(text.splitlines()[:-3]) + b"\n", "truncated: the file ends before battle 3's event"),
    (lambda text: b"\n".join(text.splitlines()[:5]) + b"\n", "truncated: the file ends before the set's event 5"),
    (lambda text: text + text.splitlines()[-1] + b"\n", "follows the set's last battle"),
    (lambda text: b"", "empty file, no set header"),
    (lambda text: b"not json\n" + text, "line 1 is not valid JSON"),
    (lambda text: b'{"format": "ringside-set", "version": 2}\n', "set file format version 2 is not supported"),
    (lambda text: b'{"format": "ringside-set", "version": 1, "events": 1, "battles": [{"battle_id": 3}]}\n',
     "line 1 lacks the set's event count, or a battle id and event count per battle"),
    (lambda text: b'{"format": "ringside-set", "version": 1}\n' + b"[" * 300 + b"]" * 300 + b"\n",
     "a line is nested more than 128 levels deep"),
])
def test_a_cut_or_garbled_file_is_refused_as_unreadable(ring_text, cut, message):
    with pytest.raises(ReplayError, match=re.escape(message)):
        set_file.parse(cut(ring_text), "set.jsonl")


def test_a_set_log_out_of_shape_is_refused_before_it_is_folded(exported):
    bad = clone(exported["ring"][0])
    bad.events[1]["data"]["index"] = 5
    rechain_set(bad)
    with pytest.raises(ReplayError, match=r"the set's log is not a set's: seq 2 \(sets.SetBattleStarted\) is out of "
                                          "place"):
        audit_set_file(bad)


def test_a_battle_replay_is_no_set_file_and_both_read_as_what_they_are(exported, tmp_path):
    found = exported["rat"][0]
    replay_format.write(found.battles[0], tmp_path / "battle.jsonl.gz")
    set_file.write(found, tmp_path / "set.jsonl")
    with pytest.raises(ReplayError, match="a battle's replay file, not a set file"):
        set_file.read(tmp_path / "battle.jsonl.gz")
    battle, whole_set = set_file.read_any(tmp_path / "battle.jsonl.gz"), set_file.read_any(tmp_path / "set.jsonl")
    assert isinstance(battle, Replay) and replay_format.dumps(battle) == replay_format.dumps(found.battles[0])
    assert isinstance(whole_set, SetFile) and set_file.dumps(whole_set) == set_file.dumps(found)


def test_a_set_is_exported_once_it_has_ended_and_a_private_one_only_whole(tmp_path):
    with Battles(f"sqlite:///{tmp_path / 'x.db'}") as store:
        sets = Sets(store)
        running = sets.create("deckduel", {"p1": "ann", "p2": "bob"}, games=1)
        with pytest.raises(NotExportable, match=f"set {running.set_id} has not ended"):
            set_file.build(sets, running.set_id, OMNISCIENT)
        hidden = sets.create("deckduel", {"p1": "ann", "p2": "bob"}, games=1, private=True)
        play_out(store, hidden.battle_id, random.Random(3))
        with pytest.raises(NotExportable, match=f"set {hidden.set_id} is private"):
            set_file.build(sets, hidden.set_id, SPECTATOR)
        whole = set_file.build(sets, hidden.set_id, OMNISCIENT)
        at_home = audit_set(store, sets, hidden.set_id, omniscient=True)
    report = audit_set_file(whole)
    assert report == at_home and (report["status"], report["private"]) == ("ok", True)
