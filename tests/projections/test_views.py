"""Each projection, from a stored log to exact view contents."""
from __future__ import annotations

import uuid

import orjson
import pytest
from openskill.models import PlackettLuce

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.ai.memory import Memory
from domain.battles import Battles
from domain.engine.events import Viewer, hidden_fields, topic_class, wire_event
from domain.engine.ruleset import get_ruleset
from domain.sets import Sets
from domain.store import BLOB_TOPICS
from projections.runner import Views, continues
from projections.store import MemoryViewStore
from projections.views import read_memory

RULESET = get_ruleset("deckduel")
BOTS = {seat: get_policy("random", "deckduel") for seat in RULESET.default_table().seats}


def store_battle(battles: Battles, i: int, players: dict[str, str]):
    match = play(RULESET, BOTS, battle_id=str(uuid.UUID(int=i + 1)), revealed=seeded_bytes("v", i),
                 bot_seed=seeded_bytes("vb", i), players=players)
    battles.save_battle(match.records, match.state)
    return match


@pytest.fixture
def logged(sqlite_url):
    with Battles(sqlite_url) as battles:
        singles = [store_battle(battles, 0, {"p1": "alice", "p2": "bob"}),
                   store_battle(battles, 1, {"p1": "bob", "p2": "carol"}),
                   store_battle(battles, 2, {"p1": "carol", "p2": "alice"})]
        played_set = Sets(battles).simulate("deckduel", BOTS, games=3, mode="all", seed="v",
                                            players={"p1": "alice", "p2": "carol"})
        views = Views(battles, MemoryViewStore(prefix="t"))
        views.catch_up()
        yield battles, views, singles, played_set


def test_battle_views_equal_what_the_battle_service_renders(logged):
    battles, views, singles, _ = logged
    store = views.store
    for match in singles:
        bid = match.state.battle_id
        for name, viewer in (("spectator", Viewer()), ("p1", Viewer(seat="p1")), ("p2", Viewer(seat="p2"))):
            assert store.get(store.key("battles", bid, name)) == battles.view(bid, viewer)
    ended = [b for b, _ in store.ztop(store.key("battles", "ended"), 100)]
    assert len(ended) == 6 and not store.ztop(store.key("battles", "live"), 100)
    assert ended[0] == logged[3].battles[-1].battle_id          # most recently active first


def test_ai_memory_is_the_seats_own_recall(logged):
    battles, views, singles, _ = logged
    match = singles[0]
    bid = match.state.battle_id
    final_batch = max(r.seq for r in match.records if r.event.starts_batch())
    for seat in RULESET.default_table().seats:
        # What a bot at this seat remembers, batch by batch, up to the final batch.
        reference = Memory(seat)
        state = None
        from domain.engine.battle import fold
        for rec in match.records:
            state = fold(RULESET, state, rec)
            if state.game is None:
                continue
            reference.observe(wire_event(rec, Viewer(seat=seat), False), rec.event.is_action())
            nxt = match.records[rec.seq] if rec.seq < len(match.records) else None
            if nxt is None or nxt.event.starts_batch():
                reference.settle(RULESET, state.game, RULESET.view(state.game, Viewer(seat=seat)))
            if nxt is not None and nxt.seq == final_batch:
                break
        projected = read_memory(views.store, bid, seat)
        cut = [a for a in projected["actions"] if a["seq"] < final_batch]
        assert cut == reference.actions
        assert [t for t in projected["turns"] if t["seq"] < final_batch] == reference.turns
        assert projected["seq"] == match.state.seq and len(projected["actions"]) == len(cut) + 1


def test_leaderboards_rate_sets_and_single_battles_in_log_order(logged):
    _, views, singles, played_set = logged
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in ("alice", "bob", "carol")}
    games = {name: 0 for name in ratings}
    wins = {name: 0 for name in ratings}

    def rate(players: dict[str, str], winner: str | None) -> None:
        seats = sorted(players)
        teams = [[ratings[players[s]]] for s in seats]
        rated = model.rate(teams, ranks=[0 if winner is None or s == winner else 1 for s in seats])
        for seat, (rating,) in zip(seats, rated):
            ratings[players[seat]] = rating
            games[players[seat]] += 1
            wins[players[seat]] += winner == seat

    for match in singles:
        rate(match.state.created.players, match.state.outcome.winner)
    rate({"p1": "alice", "p2": "carol"}, played_set.ended.winner)     # one update for the whole set
    store = views.store
    stats = store.hgetall(store.key("leaderboards", "deckduel", "stats"))
    for name, rating in ratings.items():
        assert stats[name]["mu"] == pytest.approx(rating.mu, abs=1e-9)
        assert stats[name]["sigma"] == pytest.approx(rating.sigma, abs=1e-9)
        assert (stats[name]["games"], stats[name]["wins"]) == (games[name], wins[name])
    order = [name for name, _ in store.ztop(store.key("leaderboards", "deckduel", "ranking"), 10)]
    assert order == sorted(ratings, key=lambda n: (-(ratings[n].mu - 3 * ratings[n].sigma), n))


def test_player_history_lists_battles_and_sets_with_results(logged):
    _, views, singles, played_set = logged
    store = views.store
    battles = store.lrange(store.key("history", "alice", "battles"))
    assert [b["battle_id"] for b in battles] == [singles[0].state.battle_id, singles[2].state.battle_id,
                                                 *(b.battle_id for b in played_set.battles)]
    results = store.hgetall(store.key("history", "alice", "results"))
    first = singles[0].state.outcome.winner
    assert results[singles[0].state.battle_id] == ("draw" if first is None else "win" if first == "p1" else "loss")
    sets = store.lrange(store.key("history", "alice", "sets"))
    assert [s["set_id"] for s in sets] == [played_set.set_id] and sets[0]["seat"] == "p1"
    won = played_set.ended.winner
    assert results[played_set.set_id] == ("draw" if won is None else "win" if won == "p1" else "loss")


def test_catching_up_again_changes_nothing(logged):
    _, views, _, _ = logged
    before = views.store.contents()
    assert views.catch_up() == 0
    assert views.store.contents() == before


def test_ai_memory_never_holds_the_other_seats_hidden_fields(logged):
    battles, views, singles, played_set = logged
    for bid in [m.state.battle_id for m in singles] + [b.battle_id for b in played_set.battles]:
        seed = battles.events(bid, Viewer(omniscient=True))[0]["data"].get("seed")
        # The batch that ends a battle makes its whole history public; check what came before.
        ending = max(r.seq for r in battles.records(bid) if r.event.starts_batch())
        for seat in RULESET.default_table().seats:
            other = next(s for s in RULESET.default_table().seats if s != seat)
            memory = read_memory(views.store, bid, seat)
            memory = {**memory, "turns": [t for t in memory["turns"] if t["seq"] < ending],
                      "actions": [a for a in memory["actions"] if a["seq"] < ending]}
            assert memory["turns"] and memory["actions"]
            for turn in memory["turns"]:
                seats = turn["view"]["seats"]
                assert seats[other]["hand"] is None
                assert all("deck" not in row and "energy" not in row for row in seats.values())
            for action in memory["actions"]:
                for name, mark in hidden_fields(topic_class(action["type"])):
                    owner = getattr(mark, "owner", None)
                    if owner is None or action["data"].get(owner) != seat:
                        assert action["data"].get(name) is None, (bid, seat, action)
            assert seed is None or seed not in orjson.dumps(memory).decode()


def test_event_by_event_processing_gives_the_same_views_as_batched_catch_up(logged):
    """The PostgreSQL runner hands events over one at a time, without batch boundaries."""
    battles, views, _, _ = logged
    single = Views(battles, MemoryViewStore(prefix="t"))
    recorder, mapper = battles.store.recorder, battles.store.mapper
    for note in recorder.select_notifications(None, 100_000, inclusive_of_start=True):
        rec = None if note.topic in BLOB_TOPICS else mapper.to_domain_event(note)
        single.process(str(note.originator_id), rec, note.id)
        single.settle()
    assert single.store.contents() == views.store.contents()
    assert single.store.positions() == views.store.positions()


def test_a_batch_is_applied_whole_or_not_at_all(logged):
    # Given the whole log, and in it a command batch of several events
    battles, views, _, _ = logged
    recorder, mapper = battles.store.recorder, battles.store.mapper
    page = list(recorder.select_notifications(None, 100_000, inclusive_of_start=True))
    records = [None if note.topic in BLOB_TOPICS else mapper.to_domain_event(note) for note in page]
    opens = next(i for i, rec in enumerate(records)
                 if rec is not None and rec.event.is_action() and continues(page, records, i))

    def run(runner: Views, upto: int) -> None:
        for i, note in enumerate(page[:upto]):
            runner.process(str(note.originator_id), records[i], note.id, batch_end=not continues(page, records, i))
        runner.settle()

    # When one runner stops within that batch, after its first event
    stopped = Views(battles, MemoryViewStore(prefix="t"))
    run(stopped, opens + 1)
    # Then none of the batch is in the views: they stand where the batch before left them
    before = Views(battles, MemoryViewStore(prefix="t"))
    run(before, opens)
    assert stopped.store.contents() == before.store.contents()
    assert set(stopped.store.positions().values()) == {page[opens - 1].id}
    # and a runner started after it reads the batch again, whole, to the same views as one that never stopped
    run(Views(battles, stopped.store), len(page))
    assert stopped.store.contents() == views.store.contents()
    assert stopped.store.positions() == views.store.positions()


def test_views_that_read_few_topics_rebuild_alone_to_the_same_contents(logged):
    battles, views, _, _ = logged
    alone = Views(battles, MemoryViewStore(prefix="t"), ["leaderboards", "history"])
    assert alone.wanted is not None and "engine.BattleEnded" in alone.wanted
    alone.catch_up()
    kept = ("t:v:leaderboards:", "t:v:history:")
    assert alone.store.contents() == {k: v for k, v in views.store.contents().items() if k.startswith(kept)}
    assert alone.store.positions() == {k: v for k, v in views.store.positions().items()
                                       if k in ("leaderboards", "history")}


def test_the_views_share_one_folder_that_folds_each_battle_once(sqlite_url):
    # Given a service whose views follow its commands, batch by batch
    with Battles(sqlite_url) as battles:
        views = Views(battles, MemoryViewStore(prefix="t"))
        folders = {id(p.folder) for p in views.projections if hasattr(p, "folder")}
        assert len(folders) == 1, "the battle views and the AI memory fold into one folder"
        folder = views.projections[0].folder
        assert folder.size == battles.cache.size
        made = [battles.create("deckduel", {"p1": "a", "p2": "b"}, revealed=bytes([n]) * 32) for n in range(3)]
        views.catch_up()
        for created in made:
            for seat in ("p1", "p2"):
                battles.submit(created.battle_id, seat, {"type": "mulligan", "cards": []})
                views.catch_up()
        # Then no battle was ever read back from the store to fold the next batch
        assert folder.loads == 0
        # and a battle the folder has forgotten is read back once, then folded on
        folder.states.clear()
        bid = made[0].battle_id
        state = battles.load(bid)
        seat = sorted(RULESET.awaiting(state.game))[0]
        battles.submit(bid, seat, battles.legal(bid, seat, state)[0])
        views.catch_up()
        assert folder.loads == 1
        assert views.store.get(views.store.key("battles", bid, "spectator")) == battles.view(bid, Viewer())


def test_a_state_s_view_is_rendered_once_per_viewer_and_equals_the_ruleset_s(logged):
    from domain.reading import game_view

    battles, _, singles, _ = logged
    bid = singles[0].state.battle_id
    live = battles.load(bid, at=40)         # mid-battle: not public yet
    for viewer in (Viewer(), Viewer(seat="p1"), Viewer(seat="p2")):
        first = game_view(live, viewer)
        assert game_view(live, viewer) is first
        assert first == RULESET.view(live.game, viewer)
    assert game_view(live, Viewer(seat="p1")) != game_view(live, Viewer(seat="p2"))
    ended = battles.load(bid)               # public: every seat sees everything
    assert game_view(ended, Viewer(seat="p1")) == RULESET.view(ended.game, Viewer(seat="p1", omniscient=True))


def memories(store: MemoryViewStore, battles: Battles) -> dict[tuple[str, str], dict]:
    """Every seat's whole memory, as the API reads it."""
    bids = {key.split(":")[3] for key in store.contents() if key.startswith("t:v:memory:")}
    return {(bid, seat): read_memory(store, bid, seat) for bid in bids for seat in ("p1", "p2")}


def test_a_runner_that_keeps_no_memory_at_hand_recalls_each_from_its_meta(logged, monkeypatch):
    # Given a runner that forgets each seat's memory as soon as it has used it
    battles, views, _, _ = logged
    monkeypatch.setattr("projections.views.MEMORIES", 1)
    forgetful = Views(battles, MemoryViewStore(prefix="t"))
    # When it projects the whole log, recalling every seat from its meta at every event
    forgetful.catch_up()
    # Then it keeps exactly the views of the runner that kept every memory at hand
    assert forgetful.store.contents() == views.store.contents()
    assert forgetful.store.positions() == views.store.positions()


def test_memories_kept_by_an_earlier_version_go_on_from_their_lists(logged):
    # Given views built halfway through the log by a version whose memory meta held no counts
    battles, views, _, _ = logged
    notes = [n for n in battles.store.recorder.select_notifications(None, 100_000, inclusive_of_start=True)]
    earlier = Views(battles, MemoryViewStore(prefix="t"))
    for note in notes[:len(notes) // 2]:
        rec = None if note.topic in BLOB_TOPICS else battles.store.mapper.to_domain_event(note)
        earlier.process(str(note.originator_id), rec, note.id)
        earlier.settle()
    store = earlier.store
    for key in [k for k in store._values if k.startswith("t:v:memory:") and k.endswith(":meta")]:
        meta = orjson.loads(store._values[key])
        store._values[key] = orjson.dumps({name: meta[name] for name in ("seat", "seq", "known", "actions_at_turn")})
    # When a runner of this version follows the rest of the log
    Views(battles, store).catch_up()
    # Then every seat remembers exactly what it would have
    assert memories(store, battles) == memories(views.store, battles)
