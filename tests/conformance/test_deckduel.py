"""deckduel passes the ruleset contract."""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.deckduel.content import CARDS, CONTENT
from domain.rulesets.deckduel.state import SEATS, Duel

from .contract import RulesetContract

ALL_CARDS = sorted(CARDS)


class TestDeckduelContract(RulesetContract):
    ruleset_id = "deckduel"
    # Seed 004: a hand is its owner's; energy goes face down "without looking"; deck order is unknown.
    hidden_by_rule = {
        "engine.BattleCreated": {"seed": None, "seat_token_hashes": None},
        "engine.ChoiceLocked": {"choice": "seat"},
        "deckduel.DeckPrepared": {"order": None},
        "deckduel.CardsDrawn": {"cards": "seat"},
        "deckduel.CardsReturned": {"cards": "seat"},
        "deckduel.EnergyGained": {"cards": None},
        "deckduel.EnergyPaid": {"cards": None},
    }

    def hidden_setup_variants(self) -> list[tuple[dict[str, Any], dict[str, Any], str]]:
        """A deck that is not shuffled, in two orders: only its owner's hand may differ."""
        variants = []
        for seat, other in (("p2", "p1"), ("p1", "p2")):
            deck = list(CONTENT.characters["brom"].deck_list())
            scripted = [{seat: {"character": "brom", "deck": order, "shuffle": False},
                         other: {"character": "kira"}, "first_player": "p1"}
                        for order in (deck, deck[::-1])]
            variants.append((scripted[0], scripted[1], seat))
        return variants

    def perturb_hidden(self, game: Duel, owner: str | None, rng: Rng) -> Duel:
        """A seat hides its hand and its locked mulligan; nobody sees deck order or energy."""
        for seat in SEATS:
            side = game.side(seat)
            side = replace(side, deck=tuple(rng.choice(ALL_CARDS) for _ in side.deck),
                           energy=tuple(rng.choice(ALL_CARDS) for _ in side.energy))
            if seat == owner:
                side = replace(side, hand=tuple(rng.choice(ALL_CARDS) for _ in side.hand) if side.hand else ())
            game = game.with_side(seat, side)
        if owner is not None and game.choices is not None and owner in game.choices.locked:
            game = replace(game, choices=game.choices.with_lock(owner, {"cards": ["haymaker"] * 9}))
        return game

    def command_universe(self, game: Duel, seat: str) -> list[dict[str, Any]]:
        hand = sorted(game.side(seat).hand)
        universe: list[dict[str, Any]] = [{"type": "pass"}, {"type": "mulligan", "cards": []},
                                          {"type": "mulligan", "cards": hand},
                                          {"type": "mulligan", "cards": hand[:1] + ["no_such_card"]}]
        universe += [{"type": "mulligan", "cards": [c]} for c in hand]
        universe += [{"type": kind, "card": card} for kind in ("attack", "drill", "discard") for card in ALL_CARDS]
        return universe

    def refused_commands(self, game: Duel, seat: str) -> list[dict[str, Any]]:
        side = game.side(seat)
        missing = next(c for c in ALL_CARDS if c not in side.hand)
        refused = [{"type": "attack", "card": missing}, {"type": "drill", "card": missing},
                   {"type": "discard", "card": missing}, {"type": "attack", "card": "no_such_card"},
                   {"type": "pass", "extra": 1}]
        if game.phase == "mulligan":
            refused += [{"type": "mulligan", "cards": [missing]}, {"type": "pass"}]
        else:
            refused.append({"type": "mulligan", "cards": []})
            unaffordable = [c for c in side.hand if CARDS[c].cost > len(side.energy)]
            if game.phase == "combat" and unaffordable:
                refused.append({"type": CARDS[unaffordable[0]].kind, "card": unaffordable[0]})
            attacks = [c for c in side.hand if CARDS[c].kind == "attack"]
            if attacks:
                refused.append({"type": "drill", "card": attacks[0]})
            if game.phase == "combat":
                refused.append({"type": "discard", "card": side.hand[0]} if side.hand else {"type": "mulligan"})
            if game.phase == "discard":
                refused.append({"type": "pass"})
        return refused
