"""What a rat seat can ask for: one entity's action for the turn. The party's seat (and
the enemies' seat in a player-versus-player battle) plans each of its entities in queue
order; nothing is revealed until every side has planned.

`{"type": "act", "actor": "mc", "action": "strike", "target": "e1"}`; `move` names the
0-PP move a STUTTER_POTION restores.
"""
from __future__ import annotations

from domain.engine.events import Command, CommandCodec


class Act(Command, frozen=True, tag="act"):
    actor: str
    action: str
    target: str | None = None
    move: str | None = None


CODEC = CommandCodec((Act,))
