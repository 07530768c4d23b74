"""Every game Ringside hosts; importing this package registers them all."""
from . import deckduel, ring  # noqa: F401
