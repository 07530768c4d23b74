"""Balance runs (`ringside balance`): bots play every matchup a ruleset declares
(`Ruleset.matchups`: its decks, teams, formations or encounters, each pairing on every side),
and the report gives each win rate with its 95% interval, how the battles ended and how long
they lasted, so a change to a game's content or rules is measured, not guessed.

`harness` plans a run and plays a battle of it, `workers` plays the run's battles (in worker
processes if asked, and logged so that a stopped run resumes), `tally` turns their results
into the report, `stats` holds the interval and the spreads, and `plot` draws the picture."""
from __future__ import annotations

from .harness import Fought, Plan, plan
from .tally import report
from .workers import BattleLog, play_plan

__all__ = ["BattleLog", "Fought", "Plan", "plan", "play_plan", "report"]
