"""ring passes the ruleset contract."""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.ring.content import CONTENT
import msgspec
import orjson

from domain.rulesets.ring.roster import loadout
from domain.rulesets.ring.setup import deck_json
from domain.rulesets.ring.state import Ring
from domain.rulesets.ring.targets import actions

from .contract import RulesetContract

ALL_ITEMS = sorted(CONTENT.items)


class TestRingContract(RulesetContract):
    ruleset_id = "ring"
    policies = ("random", "greedy", "memory")
    server_only_state = False
    # Seed 000: team and Ring picks are blind; an inventory is its deck's own; the preview
    # advantage shows a team to the initiative winner alone.
    hidden_by_rule = {
        "engine.BattleCreated": {"seed": None, "seat_token_hashes": None},
        "engine.SetupSealed": {"sealed": "seat"},
        "engine.ChoiceLocked": {"choice": "seat"},
        "ring.InventoryPacked": {"items": "seat"},
        "ring.TeamPreviewed": {"team": "seat"},
    }
    rare_hidden_topics = ("ring.TeamPreviewed",)

    def hidden_setup_variants(self) -> list[tuple[dict[str, Any], dict[str, Any], str]]:
        """Ring scripts no order; what its setup hides is each inventory: the same items packed
        in another order, and another set of items bought with the same GP."""
        variants = []
        for seat, other in (("p2", "p1"), ("p1", "p2")):
            deck = deck_json("iron_wall")
            items = list(deck["items"])
            setups = [{seat: {"deck": {**deck, "items": packed}}, other: {"deck": "ember_rush"}}
                      for packed in (items, items[::-1])]
            variants.append((setups[0], setups[1], seat))
        return variants

    def perturb_hidden(self, game: Ring, owner: str | None, rng: Rng) -> Ring:
        """A seat hides its inventory and its locked picks (unless previewed to the other)."""
        assert owner is not None, "ring keeps nothing hidden from every player"
        side = game.side(owner)
        items = tuple(rng.choice(ALL_ITEMS) for _ in range(len(side.items) + 1))
        game = game.with_side(owner, replace(side, items=items))
        choices = game.choices
        if choices is not None and owner in choices.locked:
            previewed = game.pick_sequential and choices.kind == "pick_team" and choices.awaiting[0] == owner
            if not previewed:
                game = replace(game, choices=choices.with_lock(owner, {"~": ["perturbed"]}))
        return game

    def command_universe(self, game: Ring, seat: str) -> list[dict[str, Any]]:
        legal = [msgspec.to_builtins(c) for c in actions(game, seat)] if game.phase != "team" else []
        units = sorted(game.units[k].unit for k in game.side(seat).deck)
        keys = sorted(game.units)
        dyns = [d.id for d in game.dynamics] + ["d999"]
        ring = game.ring_unit(seat)
        abilities = sorted({*(loadout(ring) if ring else ()), "heavy_slap", "slap", "no_such_ability"})
        universe: list[dict[str, Any]] = [*legal, {"type": "end_turn"}, {"type": "strike_leader", "ap": 0},
                                          {"type": "strike_leader", "ap": 1}, {"type": "strike_leader", "ap": 99}]
        universe += [{"type": "choose_battlefield", "battlefield": b} for b in [*sorted(CONTENT.battlefields), "x"]]
        universe += [{"type": "pick_team", "units": units[:4]}, {"type": "pick_team", "units": units[:3]},
                     {"type": "pick_team", "units": [units[0]] * 4}, {"type": "pick_team", "units": [*units[:3], "x"]}]
        universe += [{"type": "pick_ring", "unit": u} for u in [*units, "x"]]
        universe += [{"type": "swap", "unit": u} for u in [*units, "x"]]
        for ability in abilities:
            for target in [None, *keys, *dyns]:
                universe.append({"type": "ability", "ability": ability, "target": target})
        for ability in CONTENT.leaders[game.side(seat).leader].abilities:
            for target in [None, *keys, *dyns]:
                universe.append({"type": "leader_ability", "ability": ability, "target": target})
        for item in [*sorted(set(game.side(seat).items)), ALL_ITEMS[0], "x"]:
            for target in [None, *keys, *dyns]:
                universe.append({"type": "use_item", "item": item, "target": target})
        return _unique(universe)

    def refused_commands(self, game: Ring, seat: str) -> list[dict[str, Any]]:
        refused = [{"type": "ability", "ability": "no_such_ability"}, {"type": "swap", "unit": "no_such_unit"},
                   {"type": "pick_ring", "unit": "no_such_unit"}, {"type": "end_turn", "extra": 1},
                   {"type": "use_item", "item": "no_such_item"}, {"type": "strike_leader", "ap": 0},
                   {"type": "pick_team", "units": ["x", "y", "z", "w"]}]
        if game.phase != "battle":
            refused.append({"type": "end_turn"})
        else:
            refused.append({"type": "pick_team", "units": sorted(game.units[k].unit for k in game.side(seat).deck)[:4]})
            refused.append({"type": "strike_leader", "ap": game.side(seat).ap + 1})
        return refused


def _unique(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen, out = set(), []
    for row in rows:
        key = orjson.dumps(row, option=orjson.OPT_SORT_KEYS)
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out

