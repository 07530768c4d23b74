"""rat passes the ruleset contract."""
from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.rat.legal import options, to_plan
from domain.rulesets.rat.setup import DEFAULT_SETUP
from domain.rulesets.rat.state import ENEMIES, PARTY, Plan, Rat, Stack

from .contract import RulesetContract


class TestRatContract(RulesetContract):
    ruleset_id = "rat"
    # Seed 003, In-Battle UI and AI: enemy HP is hidden from the party (and so from everyone
    # while the rules play the enemies); the party's build and consumables are its own; a
    # turn's choices are secret until every side has chosen.
    hidden_by_rule = {
        "engine.BattleCreated": {"seed": None, "seat_token_hashes": None},
        "engine.SetupSealed": {"sealed": "seat"},
        "rat.PartyJoined": {"members": "seat"},
        "rat.ActionPlanned": {"action": "seat", "target": "seat"},
        "rat.EnemyHpChanged": {"delta": "seat", "hp": "seat"},
        "rat.ConsumableUsed": {"left": "seat"},
    }

    def seat_setups(self) -> list[dict[str, Any]]:
        return [{**DEFAULT_SETUP, "enemy_seat": True}, {**DEFAULT_SETUP, "enemy_seat": True,
                                                         "formation": "rat_kings_court"}]

    def hidden_setup_variants(self) -> list[tuple[dict[str, Any], dict[str, Any], str]]:
        """The party's EVs, equipment, moves and consumables are its seat's alone."""
        party = [dict(m) for m in DEFAULT_SETUP["party"]]
        other = [dict(m) for m in party]
        other[0] = {**other[0], "evs": {"hp": 4, "atk": 2, "def": 2, "spd": 2}, "moves": ["heavy_swing", "war_cry"]}
        other[2] = {**other[2], "items": {"potion": {"count": 5, "durability": 1}}}
        return [({"party": party}, {"party": other}, "p1"),
                ({"party": party, "enemy_seat": True}, {"party": other, "enemy_seat": True}, "p1")]

    def perturb_hidden(self, game: Rat, owner: str | None, rng: Rng) -> Rat:
        """A side hides its stats, unused PP, consumables and plans; an enemy's HP reaches
        nobody but its own seat (the ANALYZE bar shows only the percentage)."""
        side = game.seat_side(owner) if owner is not None else ENEMIES
        if owner is None and game.seats.get(ENEMIES) is not None:
            side = ENEMIES
        entities = dict(game.entities)
        for key, e in game.entities.items():
            if e.side != side:
                continue
            changes: dict[str, Any] = {"atk": e.atk + 1}
            if side == ENEMIES:
                changes.update(hp=e.hp * 2, max_hp=e.max_hp * 2)
            else:
                changes["items"] = {**e.items, "elixir": Stack(count=1, durability=9)}
            entities[key] = replace(e, **changes)
        plans = {k: Plan(actor=k, action="perturbed") if game.entities[k].side == side else p
                 for k, p in game.plans.items()}
        return replace(game, entities=entities, plans=plans)

    def refused_commands(self, game: Rat, seat: str) -> list[dict[str, Any]]:
        side = game.seat_side(seat) or PARTY
        waiting = to_plan(game, side)
        actor = waiting[0] if waiting else "mc"
        return [{"type": "act", "actor": "nobody", "action": "strike", "target": "e1"},
                {"type": "act", "actor": actor, "action": "no_such_move"},
                {"type": "act", "actor": actor, "action": "strike", "target": "nobody"},
                {"type": "act", "actor": actor, "action": "strike", "target": "e1", "extra": 1},
                {"type": "act"}]

    def command_universe(self, game: Rat, seat: str) -> list[dict[str, Any]]:
        side = game.seat_side(seat) or PARTY
        waiting = to_plan(game, side)
        if not waiting:
            return []
        me = game.entities[waiting[0]]
        legal = [msgspec.to_builtins(c) for c in options(game, me)]
        actions = sorted({*me.moves, *me.intrinsic, *me.items, "strike", "protect", "wish", "analyze", "potion",
                          "stutter_potion", "no_such_move"})
        targets = [None, *game.entities, "nobody"]
        universe = list(legal)
        for action in actions:
            for target in targets:
                universe.append({"type": "act", "actor": me.id, "action": action, "target": target, "move": None})
        for move in [*me.moves, "no_such_move"]:
            universe.append({"type": "act", "actor": me.id, "action": "stutter_potion", "target": me.id,
                             "move": move})
        for other in [*waiting[1:2], *[k for k in game.entities if k not in waiting][:2]]:
            foe = next(k for k, e in game.entities.items() if e.side != me.side)
            for target in (None, foe):
                universe.append({"type": "act", "actor": other, "action": "strike", "target": target, "move": None})
        return universe
