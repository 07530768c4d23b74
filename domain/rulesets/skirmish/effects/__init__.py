"""Skirmish's hooks: the seven effects (chips.py) and the seven talents (talents.py)."""
from . import chips, talents  # noqa: F401  (registers the hooks)
from .queries import HOOKS, SkirmishResolver

__all__ = ["HOOKS", "SkirmishResolver"]
