"""Skirmish's hook handlers: the seven effects (chips.py) and the seven talents (talents.py),
each registered on import in `hooks.HOOKS`."""
from . import chips, talents  # noqa: F401  (registers the hooks)
