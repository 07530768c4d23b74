"""Balance runs (`ringside balance`): bots play every matchup a ruleset declares
(`Ruleset.matchups`: its decks, teams, formations or encounters, each pairing on every side),
and the report gives each win rate with its 95% interval, how the battles ended and how long
they lasted, so a change to a game's content or rules is measured, not guessed.

`harness` plays the battles, `tally` turns their results into the report, `stats` holds the
interval and the spreads, and `plot` draws the picture."""
from __future__ import annotations

from .harness import Fought, Plan, play_plan, plan
from .tally import report

__all__ = ["Fought", "Plan", "plan", "play_plan", "report"]
