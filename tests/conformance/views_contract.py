"""The projections' part of the ruleset contract: every view takes every table of the ruleset
(rules-played sides and house seats included), live as the events come and rebuilt from the
log alike, and none sets a battle aside."""
from __future__ import annotations

import uuid
from typing import Any

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.battles import Battles
from domain.engine.battle import seat_table
from domain.engine.ruleset import Ruleset
from domain.engine.table import player_id
from domain.sets import Sets
from domain.store import BLOB_TOPICS
from projections.runner import Views, continues
from projections.store import MemoryViewStore


def seated_players(seats: tuple[str, ...]) -> dict[str, Any]:
    """The first seat a player, the last a house bot (when there are two or more), any between
    them players: every kind of seat a projection must take."""
    players: dict[str, Any] = {seat: f"player-{seat}" for seat in seats}
    if len(seats) > 1:
        players[seats[-1]] = {"bot": "greedy"}
    return players


def follow_live(views: Views, battles: Battles, after: int) -> int:
    """Offer each record logged after `after` to the views as a runner following a live log
    does, one committed batch at a time (each batch's end known, no later batch in sight);
    returns the last position."""
    recorder, mapper = battles.store.recorder, battles.store.mapper
    page = recorder.select_notifications(after, 100_000, inclusive_of_start=False)
    records = [None if note.topic in BLOB_TOPICS else mapper.to_domain_event(note) for note in page]
    for i, note in enumerate(page):
        views.process(str(note.originator_id), records[i], note.id, batch_end=not continues(page, records, i))
        views.settle()
    return page[-1].id if page else after


class ViewsContract:
    """Mixed into `RulesetContract`, whose `seat_setups()` lists the tables beyond the default."""
    ruleset_id: str
    ruleset: Ruleset[Any]

    def test_every_projection_takes_every_table_live_and_rebuilt_alike(self, tmp_path):
        setups = [self.ruleset.fresh_setup(), *self.seat_setups()]  # type: ignore[attr-defined]
        with Battles(f"sqlite:///{tmp_path / 'views.db'}") as battles:
            live = Views(battles, MemoryViewStore(prefix="t"))
            position, humans, ids = 0, set(), []
            for i, setup in enumerate(setups):
                players = seated_players(seat_table(self.ruleset, setup).seats)
                bots = {seat: get_policy("greedy", self.ruleset_id) for seat in players}
                m = play(self.ruleset, bots, battle_id=str(uuid.UUID(int=7000 + i)), setup=setup, players=players,
                         revealed=seeded_bytes("views", i), bot_seed=seeded_bytes("views-bots", i))
                battles.save_battle(m.records, m.state)
                position = follow_live(live, battles, position)
                humans |= {player_id(p) for p in players.values()}
                ids.append(m.state.battle_id)
            players = seated_players(self.ruleset.default_table().seats)
            bots = {seat: get_policy("greedy", self.ruleset_id) for seat in players}
            played = Sets(battles).simulate(self.ruleset_id, bots, games=2, mode="all", seed="views", players=players)
            follow_live(live, battles, position)
            rebuilt = Views(battles, MemoryViewStore(prefix="t"))
            rebuilt.catch_up()
        assert live.set_aside() == {} == rebuilt.set_aside()
        assert rebuilt.store.contents() == live.store.contents()
        assert rebuilt.store.positions() == live.store.positions()
        store = live.store
        ended = {b for b, _ in store.ztop(store.key("battles", "ended"), 1000)}
        assert ended == {*ids, *(b.battle_id for b in played.battles)}
        for player in humans:
            assert store.hget(store.key("leaderboards", self.ruleset_id, "stats"), player)["games"] >= 1, player
            assert len(store.lrange(store.key("history", player, "battles"))) >= 1, player
        for bid in ids:
            assert store.get(store.key("battles", bid, "spectator")) is not None, bid
            assert any(key.startswith(store.key("memory", bid)) for key in store.contents()), bid
