"""skirmish passes the ruleset contract, in duels and in raids."""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.ai import get_policy
from domain.rulesets.skirmish.content import CARDS
from domain.rulesets.skirmish.setup import RAID_SETUP
from domain.rulesets.skirmish.state import SEATS, Skirmish
from domain.ai.match import play, seeded_bytes
from replays.format import build, dumps, loads
from replays.verify import verify

from .contract import RulesetContract

ALL_CARDS = sorted(CARDS)


class TestSkirmishContract(RulesetContract):
    ruleset_id = "skirmish"
    policies = ("random", "greedy", "memory")
    setups_hide_nothing = True      # teams are public from the start (seed 001, Preparation 1)
    # Seed 001, Preparation and Cards: the fielded three until both have chosen, positions until
    # both have placed, hands, mulligans and deck order.
    hidden_by_rule = {
        "engine.BattleCreated": {"seed": None, "seat_token_hashes": None},
        "engine.ChoiceLocked": {"choice": "seat"},
        "skirmish.UnitPlaced": {"cell": "seat"},
        "skirmish.DeckPrepared": {"order": None},
        "skirmish.DeckShuffled": {"order": None},
        "skirmish.CardsDrawn": {"cards": "seat"},
        "skirmish.CardsReturned": {"cards": "seat"},
    }

    def hidden_setup_variants(self) -> list[tuple[dict[str, Any], dict[str, Any], str]]:
        return []

    def perturb_hidden(self, game: Skirmish, owner: str | None, rng: Rng) -> Skirmish | None:
        """A seat hides its hand, its pending placements and its locked choice; nobody sees a
        deck's order. Before the first lock nothing is hidden yet."""
        before = game
        for seat in SEATS:
            p = game.player(seat)
            p = replace(p, deck=tuple(rng.choice(ALL_CARDS) for _ in p.deck))
            if seat == owner:
                p = replace(p, hand=tuple(rng.choice(ALL_CARDS) for _ in p.hand))
            game = game.with_player(seat, p)
        if owner is not None:
            moved = {k: (c[0], (c[1] + 1) % 8) for k, c in game.placements.items() if game.units[k].seat == owner}
            game = replace(game, placements={**game.placements, **moved})
            if game.choices is not None and owner in game.choices.locked:
                game = replace(game, choices=game.choices.with_lock(owner, {"perturbed": [owner]}))
        return None if game == before else game

    def command_universe(self, game: Skirmish, seat: str) -> list[dict[str, Any]]:
        team = [game.units[k] for k in game.player(seat).units]
        names = [u.character for u in team]
        foes = [k for k in game.units if game.units[k].seat != seat]
        universe: list[dict[str, Any]] = [{"type": "end_turn"}, {"type": "field", "characters": names[:3]},
                                          {"type": "field", "characters": names[1:4]},
                                          {"type": "field", "characters": names[:2]},
                                          {"type": "field", "characters": [*names[:2], "no_such"]}]
        hand = sorted(game.player(seat).hand)
        universe += [{"type": "mulligan", "cards": []}, {"type": "mulligan", "cards": hand},
                     {"type": "mulligan", "cards": ["no_such_card"]}]
        for name in names:
            for cell in ([0, 0], [3, 1], [3, 6], [6, 7], [2, 3]):
                universe.append({"type": "place", "character": name, "cell": cell})
                universe.append({"type": "move", "character": name, "to": cell})
            for foe in foes:
                universe.append({"type": "attack", "character": name, "target": foe})
        for card in sorted(set(hand)) + ["caster_skill", "no_such_card"]:
            for name in names:
                for target in [None, *foes[:3], *(k for k in game.units if game.units[k].seat == seat)][:6]:
                    universe.append({"type": "play", "card": card, "character": name, "target": target,
                                     "exert": False})
        return universe

    def refused_commands(self, game: Skirmish, seat: str) -> list[dict[str, Any]]:
        name = game.units[game.player(seat).units[0]].character
        refused: list[dict[str, Any]] = [
            {"type": "move", "character": "nobody", "to": [0, 0]},
            {"type": "move", "character": name, "to": [99, 0]},
            {"type": "attack", "character": name, "target": "p9.nobody"},
            {"type": "play", "card": "no_such_card", "character": name},
            {"type": "place", "character": name, "cell": "a1"},
            {"type": "end_turn", "extra": 1},
        ]
        if game.phase != "combat":
            refused.append({"type": "end_turn"})
        else:
            refused += [{"type": "field", "characters": []}, {"type": "mulligan", "cards": []}]
        return refused


def test_raids_with_a_boss_side_play_to_the_end_and_verify():
    """Raids field up to five against the Tempest Wyrm's side, played by a bot on a seat."""
    from domain.engine.ruleset import get_ruleset
    ruleset = get_ruleset("skirmish")
    for i, policy in enumerate(("random", "greedy", "memory")):
        bots = {seat: get_policy(policy, "skirmish") for seat in SEATS}
        m = play(ruleset, bots, battle_id=f"00000000-0000-4000-8000-{i + 700:012d}", setup=RAID_SETUP,
                 revealed=seeded_bytes("raid", i), bot_seed=seeded_bytes("raid-bots", i))
        assert m.state.outcome is not None
        assert verify(loads(dumps(build(m.state, m.records)))).ok
        fielded = [u for u in m.state.game.units.values() if u.fielded and u.seat == "p2"]
        assert any(u.boss and u.character == "tempest_wyrm" for u in fielded)
