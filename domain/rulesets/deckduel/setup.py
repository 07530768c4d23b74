"""Parses and validates a deckduel setup; every error names the offending field."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.engine.content import check_keys, seat_part
from domain.engine.content import parse_params as typed_params
from domain.engine.errors import SetupError

from .content import content
from .state import SEATS, Params


class DuelSetup(msgspec.Struct, frozen=True, kw_only=True):
    params: Params
    decks: dict[str, tuple[str, ...]]
    chosen: dict[str, str]
    shuffle: dict[str, bool]
    first_player: str | None

    def params_json(self) -> dict[str, Any]:
        return msgspec.to_builtins(self.params)

    def characters(self) -> dict[str, str]:
        return dict(self.chosen)


DEFAULT_SETUP: dict[str, Any] = {"p1": {"character": "kira"}, "p2": {"character": "brom"}}
SEAT_KEYS = {"character", "deck", "shuffle"}


def parse_setup(raw: Mapping[str, Any]) -> DuelSetup:
    """`{"p1": {"character", "deck"?, "shuffle"?}, "p2": {...}, "params"?, "first_player"?}`.

    `deck` lists card ids top first; `shuffle: false` keeps that order (tests, tutorials).
    """
    check_keys(raw, {*SEATS, "params", "first_player"})
    params = parse_params(raw.get("params", {}))
    first = raw.get("first_player")
    if first is not None and first not in SEATS:
        raise SetupError("first_player", f"must be one of {', '.join(SEATS)} or null")
    decks, chosen, shuffle = {}, {}, {}
    for seat in SEATS:
        part = seat_part(raw, seat, SEAT_KEYS, "a 'character'")
        chosen[seat], decks[seat], shuffle[seat] = parse_seat(seat, part, params)
    return DuelSetup(params=params, decks=decks, chosen=chosen, shuffle=shuffle, first_player=first)


def parse_params(raw: Any) -> Params:
    params = typed_params(raw, Params)
    if params.deck_size < params.initial_hand + params.starting_energy + 1:
        raise SetupError("params.deck_size", "must hold the initial hand, the starting energy and one more card")
    return params


def parse_seat(seat: str, raw: Mapping[str, Any], params: Params) -> tuple[str, tuple[str, ...], bool]:
    name = raw.get("character")
    character = content().characters.get(name) if isinstance(name, str) else None
    if character is None:
        raise SetupError(f"{seat}.character",
                         f"unknown character {raw.get('character')!r}; known: {', '.join(content().characters)}")
    deck = raw.get("deck", list(character.deck_list()))
    if not isinstance(deck, list):
        raise SetupError(f"{seat}.deck", "must be a list of card ids")
    for i, card in enumerate(deck):
        if not isinstance(card, str) or card not in content().cards:
            raise SetupError(f"{seat}.deck[{i}]", f"unknown card {card!r}")
    if len(deck) != params.deck_size:
        raise SetupError(f"{seat}.deck", f"has {len(deck)} cards; a deck has {params.deck_size}")
    shuffle = raw.get("shuffle", True)
    if not isinstance(shuffle, bool):
        raise SetupError(f"{seat}.shuffle", "must be true or false")
    return character.id, tuple(deck), shuffle


def withhold_setup(setup: Mapping[str, Any]) -> dict[str, Any] | None:
    """A deck that is not shuffled keeps its scripted order, which is as secret as a shuffle
    (seed 004: nobody knows the deck order): until the battle is public, such a deck shows
    only what it holds, sorted. A shuffled deck's listed order means nothing and stays."""
    shown, hidden = dict(setup), False
    for seat in SEATS:
        part = setup.get(seat)
        if isinstance(part, Mapping) and part.get("shuffle") is False and isinstance(part.get("deck"), list):
            shown[seat] = {**part, "deck": sorted(part["deck"])}
            hidden = True
    return shown if hidden else None
