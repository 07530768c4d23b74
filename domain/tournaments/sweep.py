"""The tournament sweep: every few seconds, move on each tournament in play whose round's sets
have all ended (`Tournaments.advance`: the round's results, then the next round's sets, or the
standings). It follows the notification log for the tournaments' own events only, so it costs
one read of the new log a round and an advance per tournament in play. Sweeps in several
workers may advance one tournament at once: its aggregate version lets one of them win."""
from __future__ import annotations

import logging

from domain.periodic import Periodic
from domain.store import LogCursor

from .events import RoundPaired, TournamentEnded
from .service import Tournaments

log = logging.getLogger(__name__)
EVERY_SECONDS = 2.0
TOPICS = [RoundPaired.TOPIC, TournamentEnded.TOPIC]


class TournamentSweep(Periodic):
    name = "tournament-sweep"

    def __init__(self, tournaments: Tournaments, every_seconds: float = EVERY_SECONDS):
        super().__init__(every_seconds)
        self.tournaments = tournaments
        self._log = LogCursor(tournaments.battles.store, TOPICS)
        self._in_play: set[str] = set()

    def round(self) -> list[str]:
        return self.sweep()

    def sweep(self) -> list[str]:
        """Advance every tournament in play; returns their ids, sorted."""
        for note in self._log.read():
            tournament_id = str(note.originator_id)
            if note.topic == TournamentEnded.TOPIC:
                self._in_play.discard(tournament_id)
            else:
                self._in_play.add(tournament_id)
        due = sorted(self._in_play)
        for tournament_id in due:
            try:
                if self.tournaments.advance(tournament_id).ended is not None:
                    self._in_play.discard(tournament_id)
            except Exception:
                log.exception("tournament sweep could not advance %s; it stays in play", tournament_id)
        return due
