"""Who sits at the table: seats, the side each belongs to, and who plays each seat.

Seats come from the setup, not from the ruleset: a battleboard battle has one to four hero
seats on one side, a duel has two sides of one seat. An `Outcome` names the winning side.
A seat is played by a player (its id) or by a house bot (`{"bot": "greedy"}`), which the
service plays through the same submit path as any client.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

import msgspec

from .content import new_inputs
from .errors import InvalidInput

Seat = str
Side = str
MAX_PLAYER_ID = 64
HOUSE_PREFIX = "house:"


class Table(msgspec.Struct, frozen=True):
    """The sides in their order, each with its seats in order. A side with no seat is played
    by the rules themselves (rat's enemies): `decide` makes its choices inside the batch of
    the command that triggers them and records each one as an event."""
    sides: tuple[tuple[Side, tuple[Seat, ...]], ...]

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(seat for _, seats in self.sides for seat in seats)

    def has_seat(self, seat: Seat) -> bool:
        """`seat in self.seats`, without building the tuple (every command asks)."""
        for _, seats in self.sides:
            if seat in seats:
                return True
        return False

    @property
    def side_ids(self) -> tuple[Side, ...]:
        return tuple(side for side, _ in self.sides)

    def side_of(self, seat: Seat) -> Side:
        for side, seats in self.sides:
            if seat in seats:
                return side
        raise KeyError(seat)

    def as_json(self) -> dict[str, list[Seat]]:
        return {side: list(seats) for side, seats in self.sides}


def one_seat_sides(*seats: Seat) -> Table:
    """Each seat its own side, named like the seat (a duel: sides `p1` and `p2`)."""
    return Table(tuple((seat, (seat,)) for seat in seats))


DUEL = one_seat_sides("p1", "p2")


def duel_table(setup: Mapping[str, Any]) -> Table:
    """The default table: two sides of one seat each, whatever the setup."""
    return DUEL


PlayerEntry = str | dict[str, str | int]
# A searching house bot's difficulty: its iterations per move (`{"bot": "search", "iterations": 400}`).
MAX_ITERATIONS = 20_000


def parse_player(seat: Seat, raw: object) -> PlayerEntry:
    """A seat's player as given on the wire: a player id, or `{"bot": "<policy>"}` with, for a
    bot that searches, its `iterations` per move."""
    if isinstance(raw, Mapping):
        bot, iterations = raw.get("bot"), raw.get("iterations")
        if not set(raw) <= {"bot", "iterations"} or not isinstance(bot, str) or not bot.strip() \
                or len(bot) > MAX_PLAYER_ID:
            raise InvalidInput(f"players.{seat}", 'a house seat is {"bot": "<policy name>"}, with "iterations" '
                               "for a bot that searches, and nothing else")
        if iterations is None:
            return {"bot": bot}
        if type(iterations) is not int or not 1 <= iterations <= MAX_ITERATIONS:
            raise InvalidInput(f"players.{seat}.iterations",
                               f"iterations must be an integer from 1 to {MAX_ITERATIONS}")
        return {"bot": bot, "iterations": iterations}
    if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_PLAYER_ID:
        raise InvalidInput(f"players.{seat}", f"a player id must be a non-empty string of at most {MAX_PLAYER_ID} characters, "
                           'or {"bot": "<policy name>"} for a house seat')
    if in_house_namespace(raw) and new_inputs():
        raise InvalidInput(f"players.{seat}", f'a player id may not start with "{HOUSE_PREFIX}" (in any letter case '
                           "or Unicode form): it names the service's house bots")
    return raw


def in_house_namespace(player: str) -> bool:
    """Whether a player id reads as a house id: `HOUSE_PREFIX` in any letter case or Unicode
    compatibility form ("HOUSE:", fullwidth letters). Ratings and histories are keyed by the id,
    so a person sitting as `house:greedy` would merge into the house bot's; a look-alike would
    pass for it."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", player).casefold())
    return folded.startswith(HOUSE_PREFIX)


def house_bot(entry: object) -> str | None:
    """The policy of a house seat's entry; None for a player."""
    if isinstance(entry, Mapping) and isinstance(entry.get("bot"), str):
        return str(entry["bot"])
    return None


def house_iterations(entry: object) -> int | None:
    """A searching house bot's iterations per move, when its entry gives them."""
    if isinstance(entry, Mapping) and isinstance(entry.get("iterations"), int):
        return int(entry["iterations"])
    return None


def player_id(entry: object) -> str:
    """The id a seat's player is rated and listed under: house bots as `house:<policy>`, and a
    searching one of a given difficulty as `house:<policy>@<iterations>` (rated apart)."""
    bot = house_bot(entry)
    if bot is None:
        return str(entry)
    iterations = house_iterations(entry)
    return HOUSE_PREFIX + bot + (f"@{iterations}" if iterations is not None else "")


def house_bots(players: Mapping[str, object]) -> dict[Seat, str]:
    """The seats played by house bots, and each one's policy."""
    return {seat: bot for seat, entry in players.items() if (bot := house_bot(entry)) is not None}


def human_seats(players: Mapping[str, object]) -> list[Seat]:
    """The seats people play: the only ones given seat tokens. A house seat belongs to the
    service, which acts for it by seat, never by token."""
    return [seat for seat, entry in players.items() if house_bot(entry) is None]
