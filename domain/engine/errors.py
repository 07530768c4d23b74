"""Errors a client can cause. Each carries a stable `code` for the API and the CLI.

An error may quote what it refuses, but only a short prefix of it (`quote`), and no message is
longer than `MAX_MESSAGE`: refusing an 18 MB command must not answer with 18 MB.
"""
from __future__ import annotations

import reprlib

MAX_MESSAGE = 500
QUOTE_LIMIT = 60
_short = reprlib.Repr()
_short.maxstring = _short.maxother = QUOTE_LIMIT
_short.maxlist = _short.maxtuple = _short.maxdict = _short.maxset = 8
_short.maxlevel = 3


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` cut to `limit` characters (the last one `…`), with any lone surrogate escaped so
    that it can always be encoded as UTF-8."""
    cut, text = len(text) > limit, text[:limit]
    if not text.isascii():
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if cut or len(text) > limit:
        text = text[:limit - 1] + "…"
    return text


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A client value as an error message may show it: a prefix of its repr, at most `limit`
    characters. Built from a bounded repr, so quoting a huge value costs no more than a small one."""
    if isinstance(value, str):
        return clip(repr(value[:limit]) + ("…" if len(value) > limit else ""), limit)
    if isinstance(value, int) and value.bit_length() > 12_000:
        # Python refuses to print an integer of over 4,300 digits: describe it instead.
        return clip(f"<an integer of {value.bit_length()} bits>", limit)
    return clip(_short.repr(value), limit)


class RingsideError(Exception):
    code = "error"

    def __init__(self, message: str, **details: object):
        message = clip(message)
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


class TimeOut(RuleViolation):
    """The seat's time had run out (past grace) when its command arrived; nothing was appended."""
    code = "time_out"


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
        # "setup" names the whole setup, which is not a field of itself.
        super().__init__(f"{field}: {message}" if field == "setup" else f"setup.{field}: {message}", field=field)
        self.field = field


class UnknownRuleset(RingsideError):
    code = "unknown_ruleset"


class UnknownBattle(RingsideError):
    code = "not_found"


class SeqOutOfRange(RingsideError):
    """Time travel to a seq the battle has not reached (or below 1)."""
    code = "seq_out_of_range"


class InvalidInput(RingsideError):
    """A value that no JSON encoder here can store faithfully (a lone surrogate, an integer
    outside 64 bits, NaN) or that is larger than allowed; `field` names it as a dotted path."""
    code = "invalid"

    def __init__(self, field: str, message: str, **details: object):
        super().__init__(f"{field}: {message}" if field else message, field=field, **details)
        self.field = field


class PayloadTooLarge(RingsideError):
    """An upload (or what it inflates to) is larger than its limit, named in `limit`."""
    code = "payload_too_large"


class ResolveDepthExceeded(RingsideError):
    """Hook reactions chained deeper than the cap: a content loop, not a client error."""
    code = "resolve_depth"


class ReplayError(RingsideError):
    """A replay file cannot be read at all (not JSON, no header, wrong format)."""
    code = "bad_replay"
