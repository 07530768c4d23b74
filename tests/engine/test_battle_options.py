"""Engine-level setup options: `spectator_delay` is understood by every battle and never
reaches the ruleset's own setup parsing."""
from __future__ import annotations

import pytest

from domain.engine.battle import open_battle
from domain.engine.errors import SetupError
from domain.engine.ruleset import get_ruleset
from replays.format import build
from replays.verify import verify
from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes

RULESET = get_ruleset("deckduel")
PLAYERS = {"p1": "a", "p2": "b"}


def opened(setup):
    return open_battle(RULESET, battle_id="00000000-0000-4000-8000-000000000001", setup=setup,
                       players=PLAYERS, revealed=b"x" * 32, created_at="2026-01-01T00:00:00Z")


def test_spectator_delay_is_kept_in_the_public_setup():
    state, records = opened({**RULESET.fresh_setup(), "spectator_delay": 3})
    assert state.spectator_delay == 3
    assert records[0].event.setup["spectator_delay"] == 3
    plain, _ = opened(RULESET.fresh_setup())
    assert plain.spectator_delay == 0 and "spectator_delay" not in plain.created.setup
    assert state.game == plain.game


@pytest.mark.parametrize("delay", [-1, 1001, "3", True, 2.5])
def test_a_bad_spectator_delay_names_the_field(delay):
    with pytest.raises(SetupError) as err:
        opened({**RULESET.fresh_setup(), "spectator_delay": delay})
    assert err.value.field == "spectator_delay"


def test_a_battle_with_a_delay_still_verifies():
    bots = {seat: get_policy("random", "deckduel") for seat in PLAYERS}
    match = play(RULESET, bots, battle_id="00000000-0000-4000-8000-000000000002", revealed=seeded_bytes(1),
                 bot_seed=seeded_bytes(2), setup={**RULESET.fresh_setup(), "spectator_delay": 2})
    assert verify(build(match.state, match.records)).ok
