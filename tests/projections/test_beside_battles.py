"""The log holds more than battles: sets, queues and tournaments too. Every view follows such a
log without setting anything aside, and the battle views show the battles alone."""
from __future__ import annotations

from domain.battles import Battles
from domain.matchmaking.service import Queues
from domain.players import Players
from domain.sets import Sets
from domain.store import BESIDE_BATTLES
from domain.tournaments.service import Tournaments
from projections.runner import Views
from projections.store import MemoryViewStore
from tests.clocktime import Clock


def test_every_view_follows_a_log_of_every_aggregate_and_sets_nothing_aside(sqlite_url):
    clock = Clock()
    with Battles(sqlite_url, now_ms=clock) as battles:
        # given a log with a tournament (its sets and battles) and a queue that paired a battle
        sets = Sets(battles)
        played = Tournaments(battles, sets).simulate("deckduel", "swiss", players=3, rounds=2, seed="b")
        players = Players(battles.store)
        queues = Queues(battles, players)
        for name in ("alice", "bob"):
            queues.open("deckduel-blitz", players.register(name).player_token)
        clock.advance(2_000)
        paired = queues.wave("deckduel-blitz")
        # when every view follows it
        views = Views(battles, MemoryViewStore(prefix="t"))
        views.catch_up()
        # then none set anything aside, and the battle views list battles only
        assert views.set_aside() == {}
        listed = set(views.store.hgetall(views.store.key("battles", "index")))
        assert paired is not None and paired.pairings[0].battle_id in listed
        assert listed == set(battles.battle_ids())
        topics = {note.topic.split(".")[0] + "." for note in
                  battles.store.recorder.select_notifications(None, 100_000, inclusive_of_start=True)}
        assert set(BESIDE_BATTLES) <= topics
        # and a view that reads back what the event before wrote sees it, though the whole
        # tournament came in one page: its index counts the 3 entrants, each lists it
        store = views.store
        summary = store.hget(store.key("history", "tournaments"), played.tournament_id)
        assert (summary["entrants"], summary["champion"], summary["finished"]) == (3, played.ended.champion, True)
        for entrant in played.entrants:
            listed = store.lrange(store.key("history", entrant.id, "tournaments"))
            assert [t["tournament_id"] for t in listed] == [played.tournament_id]
