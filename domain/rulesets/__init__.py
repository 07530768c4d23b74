"""Every game Ringside hosts; importing this package registers them all."""
from . import deckduel  # noqa: F401
