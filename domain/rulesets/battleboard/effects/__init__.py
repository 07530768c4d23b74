"""Battleboard's hook handlers: the guard stances (stances.py), registered on import in
`hooks.HOOKS`."""
from . import stances  # noqa: F401  (registers the hooks)
