"""rat passes the ruleset contract."""
from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.rat.content import CONTENT
from domain.rulesets.rat.legal import options, to_plan
from domain.rulesets.rat.setup import DEFAULT_SETUP, ENEMY_SEAT
from domain.rulesets.rat.state import ENEMIES, PARTY, Entity, Plan, Rat, Stack

from .contract import RulesetContract


class TestRatContract(RulesetContract):
    ruleset_id = "rat"
    # Seed 003, In-Battle UI and AI: enemy HP is hidden from the party (and so from everyone
    # while the rules play the enemies), from the start on; the party's build and consumables
    # are its own; a turn's choices are secret until every side has chosen.
    hidden_by_rule = {
        "engine.BattleCreated": {"seed": None, "seat_token_hashes": None},
        "engine.SetupSealed": {"sealed": "seat"},
        "rat.RatStarted": {"enemy_hp": "enemy_seat"},
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

    def test_enemy_hp_in_content_never_reaches_the_party_or_spectators(self, monkeypatch):
        """Change only the enemies' HP, content the server keeps: from the create batch, the
        replay header and the view, the party's seat and spectators read the same bytes."""
        for setup in ({}, {"enemy_seat": True}):
            made = [self.created(setup)]
            for kind, enemy in CONTENT.enemies.items():
                monkeypatch.setitem(CONTENT.enemies, kind, replace(enemy, hp=enemy.hp + 17))
            made.append(self.created(setup))
            monkeypatch.undo()
            self.assert_only_owner_sees_a_difference(made, ENEMY_SEAT)

    def perturb_hidden(self, game: Rat, owner: str | None, rng: Rng) -> Rat:
        """A side hides its stats, unused PP, consumables and plans; an enemy's current and
        max HP reach nobody but its own seat (the ANALYZE bar shows only the percentage)."""
        side = game.seat_side(owner) if owner is not None else ENEMIES
        if owner is None and game.seats.get(ENEMIES) is not None:
            side = ENEMIES
        entities = dict(game.entities)
        for key, e in game.entities.items():
            if e.side != side:
                continue
            changes: dict[str, Any] = {"atk": e.atk + 1}
            if side == ENEMIES:
                changes.update(_other_hp(game, e))
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


def _other_hp(game: Rat, e: Entity) -> dict[str, int]:
    """Other current and max HP for an enemy: where ANALYZE shows its bar, both doubled (the
    same whole percent); elsewhere, numbers that keep no ratio."""
    if game.has(e.id, "analyzed"):
        return {"hp": e.hp * 2, "max_hp": e.max_hp * 2}
    return {"hp": e.hp + 3, "max_hp": e.max_hp * 2 + 5}
