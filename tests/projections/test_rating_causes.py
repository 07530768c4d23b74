"""Every rating change names the battle or set that made it: in the leaderboard row, in the
player's list of changes, and beside that battle or set in the player's history."""
from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from api.app import create_app
from api.services import Settings, bootstrap
from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.ruleset import get_ruleset

RULESET = get_ruleset("deckduel")
BOTS = {seat: get_policy("greedy", "deckduel") for seat in ("p1", "p2")}


def test_each_rating_change_links_to_its_battle_or_set(sqlite_url):
    services = bootstrap(Settings(database_url=sqlite_url, projections="thread"))
    # given alice's plain battle against bob, then a set of hers against carol
    match = play(RULESET, BOTS, battle_id=str(uuid.uuid4()), revealed=seeded_bytes("c", 1),
                 bot_seed=seeded_bytes("cb", 1), players={"p1": "alice", "p2": "bob"})
    services.battles.save_battle(match.records, match.state)
    played = services.sets.simulate("deckduel", BOTS, games=1, mode="best_of", seed="c",
                                    players={"p1": "alice", "p2": "carol"})
    with TestClient(create_app(services=services)) as client:
        services.projections.wait(services.projections.head())
        page = client.get("/players/alice").json()
    # then alice's two changes, oldest first, name the battle and then the set
    first, second = page["rating_changes"]
    assert (first["battle_id"], first["ruleset"], first["before"]) == (match.state.battle_id, "deckduel", None)
    assert second["set_id"] == played.set_id and second["before"] == first["after"]
    assert page["ratings"]["deckduel"]["cause"] == {"set_id": played.set_id}
    # and the battle and the set each show the change they made; the set's battle none of its own
    rows = {row["battle_id"]: row for row in page["battles"]}
    assert rows[match.state.battle_id]["rating_change"] == {"before": None, "after": first["after"]}
    assert rows[played.battles[0].battle_id]["rating_change"] is None
    assert page["sets"][0]["rating_change"] == {"before": first["after"], "after": second["after"]}
