"""A leaderboard read racing a projection update never fails: every ranked player it lists
has its stats."""
from __future__ import annotations

from projections.ops import HSet, ZAdd
from projections.store import MemoryViewStore


class UpdateBetweenReads(MemoryViewStore):
    """A view store where a rating update lands right after the first read of a request."""

    def __init__(self, update):
        super().__init__()
        self.update = update

    def _landed(self) -> None:
        if self.update is not None:
            update, self.update = self.update, None
            self.apply_views({"leaderboards": update(self)}, 1)

    def hgetall(self, key):
        found = super().hgetall(key)
        self._landed()
        return found

    def ztop(self, key, limit):
        found = super().ztop(key, limit)
        self._landed()
        return found


def alice_rated(store):
    stats = {"mu": 26.0, "sigma": 8.0, "games": 1, "wins": 1}
    return [ZAdd(store.key("leaderboards", "deckduel", "ranking"), "alice", 2.0),
            HSet(store.key("leaderboards", "deckduel", "stats"), "alice", stats)]


def test_a_rating_landing_between_the_reads_of_a_leaderboard_request_is_no_error(client):
    client.app.state.services.views = UpdateBetweenReads(alice_rated)
    answer = client.get("/leaderboards/deckduel")
    # The ranking was read before the update and the stats after it: nobody listed yet.
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"ruleset": "deckduel", "players": []}
    again = client.get("/leaderboards/deckduel").json()["players"]
    assert [(row["rank"], row["player"], row["games"], row["wins"]) for row in again] == [(1, "alice", 1, 1)]
