"""Leaderboards and player history.

- `leaderboards`: openskill (Plackett-Luce) ratings per ruleset. Each side is a team of the
  players at its seats, so a side of several heroes wins or loses together; a side of one
  seat rates exactly as a one-player team. A side with no seat (rat's enemies, played by the
  rules' own AI) is not rated: it plays as a fixed anchor of the default rating, never
  updated, so a party's rating measures how reliably it beats the rules' AI. A battle outside
  a set is rated when it ends; a set is rated once, when it ends, by its result. The ranking is by ordinal (mu - 3 sigma).
  A battle aborted because a seat never made its first move (`ABORTED`) is not rated: nobody
  played it, so it changes no rating and no leaderboard. A timeout that forfeits is a win
  like any other. (In a set a seat that never moves loses the battle instead, and the set is
  rated by its result.)
- `history`: each player's battles and sets, with the seat and side they played and the
  result of that side: `win`, `loss`, `draw`, or `aborted`; and, for every battle, the
  reason it ended (`reasons`, such as `timeout` or `aborted_no_first_move`).

Players are listed by id; a house seat as `house:<policy>`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.battles import Battles
from domain.engine.battle import BattleCreated, BattleEnded, seat_table
from domain.engine.events import Recorded
from domain.engine.ruleset import get_ruleset
from domain.engine.table import Table, player_id
from domain.engine.timeouts import ABORTED
from domain.sets import SetBattleStarted, SetCreated, SetEnded
from domain.tournaments.events import PlayerJoined, TournamentCreated, TournamentEnded

from .base import Projection
from .ops import HDel, HSet, Op, RPush, ZAdd
from .store import ViewStore


RULES_ANCHOR = "rules"     # the name of a seatless side's fixed rating (never stored)


def table_of(ruleset: str, setup: Mapping[str, Any]) -> Table:
    return seat_table(get_ruleset(ruleset), setup)


def seated(players: Mapping[str, Any], table: Table) -> dict[str, Any]:
    """{side: [[seat, player id], ...]}: who played on which side, JSON-ready for the store."""
    return {side: [[seat, player_id(players[seat])] for seat in seats] for side, seats in table.sides}


ABORTED_RESULT = "aborted"


def result_of(side: str, winner: str | None, reason: str | None = None) -> str:
    if reason == ABORTED:
        return ABORTED_RESULT
    return "draw" if winner is None else ("win" if winner == side else "loss")


def rated(event: BattleEnded) -> bool:
    """Whether a battle's end changes ratings: not when it was aborted before anyone played."""
    return event.reason != ABORTED


def ordinal(row: dict[str, Any]) -> float:
    return round(row["mu"] - 3 * row["sigma"], 6)


class Leaderboards(Projection):
    """openskill ratings per ruleset; sides are teams."""
    name = "leaderboards"
    topics = frozenset(c.TOPIC for c in (SetCreated, SetBattleStarted, BattleCreated, BattleEnded, SetEnded))

    def __init__(self, battles: Battles, store: ViewStore):
        super().__init__(battles, store)
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()

    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True,
                superseded: bool = False) -> list[Op]:
        event = rec.event
        if isinstance(event, SetCreated):
            sides = seated(event.players, table_of(event.ruleset, event.public_setup))
            return [HSet(self.key("set-sides"), owner_id, sides)]
        if isinstance(event, SetBattleStarted):
            return [HSet(self.key("in-set"), event.battle_id, event.set_id)]
        if isinstance(event, BattleCreated):
            sides = seated(event.players, table_of(event.ruleset, event.setup))
            return [HSet(self.key("pending"), owner_id, {"ruleset": event.ruleset, "sides": sides})]
        if isinstance(event, BattleEnded):
            pending = self.store.hget(self.key("pending"), owner_id)
            ops: list[Op] = [HDel(self.key("pending"), owner_id), HDel(self.key("in-set"), owner_id)]
            if pending is not None and self.store.hget(self.key("in-set"), owner_id) is None and rated(event):
                ops += self.rate(pending["ruleset"], pending["sides"], event.winner, {"battle_id": owner_id})
            return ops
        if isinstance(event, SetEnded):
            set_sides = self.store.hget(self.key("set-sides"), owner_id)
            if set_sides is None:
                return []
            return [HDel(self.key("set-sides"), owner_id),
                    *self.rate(event.ruleset, set_sides, event.winner, {"set_id": owner_id})]
        return []

    def rate(self, ruleset: str, sides: Mapping[str, list[list[str]]], winner: str | None,
             cause: Mapping[str, str]) -> list[Op]:
        """The new ratings of everyone on `sides`, each linked to its `cause`: the battle (or
        set) that changed it, in the row and in the player's list of changes."""
        stats_key = self.key(ruleset, "stats")
        order = sorted(sides)
        players = sorted({player for side in order for _, player in sides[side]})
        if not players:
            return []
        rows = {p: self.store.hget(stats_key, p) or {"mu": None, "sigma": None, "games": 0, "wins": 0}
                for p in players}
        teams = [[self._rating(rows[p], p) for _, p in sides[side]] or [self.model.rating(name=RULES_ANCHOR)]
                 for side in order]
        rated = self.model.rate(teams, ranks=[0 if winner is None or side == winner else 1 for side in order])
        ops: list[Op] = []
        for side, team in zip(order, rated):      # an anchor's new rating is dropped with its empty side
            for (_, player), rating in zip(sides[side], team):
                row = {"mu": rating.mu, "sigma": rating.sigma, "games": rows[player]["games"] + 1,
                       "wins": rows[player]["wins"] + (1 if winner == side else 0), "cause": dict(cause)}
                before = None if rows[player]["mu"] is None else ordinal(rows[player])
                ops.append(RPush(self.key("changes", player),
                                 {"ruleset": ruleset, "before": before, "after": ordinal(row), **cause}))
                ops.append(HSet(stats_key, player, row))
                ops.append(ZAdd(self.key(ruleset, "ranking"), player, ordinal(row)))
                ops.append(HSet(self.key("players", player), ruleset, row))
        return ops

    def _rating(self, row: Mapping[str, Any], player: str) -> Any:
        if row["mu"] is None:
            return self.model.rating(name=player)
        return self.model.rating(mu=row["mu"], sigma=row["sigma"], name=player)


class PlayerHistory(Projection):
    """Each player's battles, sets and tournaments: the seat and side played, and that side's
    result; and the index of every tournament, newest first."""
    name = "history"
    topics = frozenset(c.TOPIC for c in (BattleCreated, BattleEnded, SetCreated, SetEnded, TournamentCreated,
                                         PlayerJoined, TournamentEnded))

    def project(self, owner_id: str, rec: Recorded, position: int, batch_end: bool = True,
                superseded: bool = False) -> list[Op]:
        event = rec.event
        if isinstance(event, (TournamentCreated, PlayerJoined, TournamentEnded)):
            return self.tournament(owner_id, event, position)
        if isinstance(event, (BattleCreated, SetCreated)):
            setup = event.setup if isinstance(event, BattleCreated) else event.public_setup
            sides = seated(event.players, table_of(event.ruleset, setup))
            kind, owner = ("battles", "battle_id") if isinstance(event, BattleCreated) else ("sets", "set_id")
            entry: dict[str, object] = {owner: owner_id, "ruleset": event.ruleset, "players": event.players,
                                        "created_at": event.created_at}
            if isinstance(event, SetCreated):
                entry.update(games=event.games, mode=event.mode)
            return [*(RPush(self.key(player, kind), {**entry, "seat": seat, "side": side})
                      for side, members in sides.items() for seat, player in members),
                    HSet(self.key("sides"), owner_id, sides)]
        if isinstance(event, (BattleEnded, SetEnded)):
            played = self.store.hget(self.key("sides"), owner_id) or {}
            reason = event.reason if isinstance(event, BattleEnded) else None
            players = [(side, player) for side, members in played.items() for _, player in members]
            reasons = [] if reason is None else [HSet(self.key(player, "reasons"), owner_id, reason)
                                                 for _, player in players]
            return [*(HSet(self.key(player, "results"), owner_id, result_of(side, event.winner, reason))
                      for side, player in players), *reasons, HDel(self.key("sides"), owner_id)]
        return []

    def tournament(self, owner_id: str, event: TournamentCreated | PlayerJoined | TournamentEnded,
                   position: int) -> list[Op]:
        """The tournaments' index (`tournaments`: id -> summary; `tournaments-order`: newest
        first) and each entrant's list of the tournaments it entered."""
        index = self.key("tournaments")
        if isinstance(event, TournamentCreated):
            created: dict[str, Any] = {"tournament_id": owner_id, "name": event.name, "ruleset": event.ruleset,
                                       "format": event.format, "created_at": event.created_at, "entrants": 0,
                                       "champion": None, "finished": False}
            return [HSet(index, owner_id, created), ZAdd(self.key("tournaments-order"), owner_id, float(position))]
        summary: dict[str, Any] | None = self.store.hget(index, owner_id)
        if summary is None:
            return []
        if isinstance(event, PlayerJoined):
            entered = {key: summary[key] for key in ("tournament_id", "name", "ruleset", "format", "created_at")}
            return [HSet(index, owner_id, {**summary, "entrants": summary["entrants"] + 1}),
                    RPush(self.key(event.player, "tournaments"), entered)]
        return [HSet(index, owner_id, {**summary, "champion": event.champion, "finished": True})]
