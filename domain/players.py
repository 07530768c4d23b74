"""Registered players: an id that only the holder of its player token can queue as.

A player id is otherwise any string: a game server that creates battles (with the admin
token, when one is set) vouches for the ids it names. Queues and tournaments have no game
server between them and the player, so they take a player token instead: `register` keeps
the id, and only the token's hash, as two bookkeeping records saved in one transaction:

- under the id, folded (NFKC, case-folded), so that "Alice", "alice" and a fullwidth
  look-alike are one id: a second registration of it conflicts in the store, on any worker;
- under the token's hash, naming the id, so a request's token finds its player in one read.

House bots are never registered: their ids are the service's own (`house:<policy>#n`).
"""
from __future__ import annotations

import secrets
import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from eventsourcing.persistence import IntegrityError

from domain.access import token_hash
from domain.engine.errors import InvalidInput, RingsideError
from domain.engine.table import HOUSE_PREFIX, MAX_PLAYER_ID, in_house_namespace
from domain.engine.wire import check_wire
from domain.store import PLAYER_TOKEN_TOPIC, PLAYER_TOPIC, BattleStore, StoredBlob

NEW_RATING = 25.0       # openskill's mu for a player not rated yet
# A player's rating (openskill mu) in a ruleset, as queues and tournaments record it; None: not rated yet.
RatingOf = Callable[[str, str], float | None]

PLAYERS_NS = uuid.UUID("6b1f0c1e-3a55-4f0e-9a4b-8d7e2c5f1a90")
TOKENS_NS = uuid.UUID("2c9e7d41-5b0a-4e61-8f3d-1a6c4b9e7d22")


class PlayerTaken(RingsideError):
    code = "player_taken"


class UnknownPlayerToken(RingsideError):
    """A player token that opens no registered player."""
    code = "unauthorized"


@dataclass(frozen=True)
class RegisteredPlayer:
    player_id: str
    player_token: str


def folded(player_id: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", player_id).casefold())


def check_player_id(player_id: object) -> str:
    """A registrable id: a string of 1 to MAX_PLAYER_ID characters, not blank, storable, and
    outside the house's namespace."""
    if not isinstance(player_id, str) or not player_id.strip() or len(player_id) > MAX_PLAYER_ID:
        raise InvalidInput("player_id", f"a player id is a non-empty string of at most {MAX_PLAYER_ID} characters")
    check_wire(player_id, "player_id")
    if in_house_namespace(player_id):
        raise InvalidInput("player_id", f'a player id may not start with "{HOUSE_PREFIX}": it names the house bots')
    return player_id


class Players:
    """Register players and find a token's player."""

    def __init__(self, store: BattleStore):
        self.store = store

    def register(self, player_id: object) -> RegisteredPlayer:
        """Keep `player_id` with a new token; PlayerTaken (409) if it, or a look-alike, is kept."""
        player_id = check_player_id(player_id)
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        kept = {"player_id": player_id, "token_hash": hashed}
        try:
            self.store.save(StoredBlob(uuid.uuid5(PLAYERS_NS, folded(player_id)), 1, PLAYER_TOPIC, kept),
                            StoredBlob(uuid.uuid5(TOKENS_NS, hashed), 1, PLAYER_TOKEN_TOPIC, {"player_id": player_id}))
        except IntegrityError:
            raise PlayerTaken(f"the player id {player_id!r} is already registered",
                              player_id=player_id) from None
        return RegisteredPlayer(player_id, token)

    def registered(self, player_id: str) -> bool:
        return self.store.stored_blob(uuid.uuid5(PLAYERS_NS, folded(player_id))) is not None

    def player_of(self, token: str | None) -> str:
        """The registered player whose token this is; UnknownPlayerToken (401) otherwise."""
        if not token:
            raise UnknownPlayerToken("a player token is required (Authorization: Bearer <player token>); "
                                     "POST /players gives one")
        found = self.store.stored_blob(uuid.uuid5(TOKENS_NS, token_hash(token)))
        if found is None:
            raise UnknownPlayerToken("this token opens no registered player")
        return str(found.body["player_id"])


def not_rated(ruleset: str, player: str) -> float | None:
    """The `RatingOf` of a service with no leaderboard: nobody is rated yet."""
    return None


def rating_or_new(rating_of: RatingOf, ruleset: str, player: str) -> float:
    found = rating_of(ruleset, player)
    return NEW_RATING if found is None else float(found)
