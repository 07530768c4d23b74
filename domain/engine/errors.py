"""Errors a client can cause. Each carries a stable `code` for the API and the CLI."""
from __future__ import annotations


class RingsideError(Exception):
    code = "error"

    def __init__(self, message: str, **details: object):
        super().__init__(message)
        self.message = message
        self.details = details


class RuleViolation(RingsideError):
    """The command breaks a rule of the game; nothing was appended."""
    code = "rule_violation"


class NotYourTurn(RuleViolation):
    code = "not_your_turn"


class BattleOver(RuleViolation):
    code = "battle_over"


class StaleState(RingsideError):
    """The client's `expected_seq` is behind the battle."""
    code = "stale"


class IdempotencyConflict(RingsideError):
    """An idempotency key was reused for a different command."""
    code = "idempotency_conflict"


class SetupError(RingsideError):
    """A setup field is wrong; `field` names it as a dotted path."""
    code = "bad_setup"

    def __init__(self, field: str, message: str):
        super().__init__(f"setup.{field}: {message}", field=field)
        self.field = field


class UnknownRuleset(RingsideError):
    code = "unknown_ruleset"


class UnknownBattle(RingsideError):
    code = "not_found"


class SeqOutOfRange(RingsideError):
    """Time travel to a seq the battle has not reached (or below 1)."""
    code = "seq_out_of_range"


class ResolveDepthExceeded(RingsideError):
    """Hook reactions chained deeper than the cap: a content loop, not a client error."""
    code = "resolve_depth"


class ReplayError(RingsideError):
    """A replay file cannot be read at all (not JSON, no header, wrong format)."""
    code = "bad_replay"
