"""Every game Ringside hosts; importing this package registers them all."""
from . import deckduel, rat, ring  # noqa: F401
