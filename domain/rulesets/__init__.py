"""Every game Ringside hosts; importing this package registers them all."""
from . import battleboard, deckduel, rat, ring, skirmish  # noqa: F401
