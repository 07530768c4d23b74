"""Who a duel awaits, what each seat may do now (exactly the commands `decide` accepts), and
what the rules play for a seat whose clock ran out."""
from __future__ import annotations

import functools

from domain.engine.mulligan import mulligan_picks

from .commands import Discard, DuelCommand, Mulligan, Pass, PlayAttack, PlayDrill
from .content import Content, content
from .hooks import cost_of, costs_modified
from .state import Duel


def awaiting(s: Duel) -> frozenset[str]:
    if s.deck_out():
        return frozenset()
    if s.phase == "mulligan":
        return s.choices.waiting_for() if s.choices else frozenset()
    return frozenset((s.turn,)) if s.turn else frozenset()


# The commands that play, and discard, each card of a content, built once per content:
# commands are frozen, and `legal_commands` lists them for every decision of every battle.
@functools.cache
def _card_commands(rules: Content) -> tuple[dict[str, PlayAttack | PlayDrill], dict[str, Discard]]:
    play: dict[str, PlayAttack | PlayDrill] = {
        card_id: PlayAttack(card=card_id) if card.kind == "attack" else PlayDrill(card=card_id)
        for card_id, card in rules.cards.items()}
    return play, {card_id: Discard(card=card_id) for card_id in rules.cards}


_PASS = Pass()


def legal_commands(s: Duel, seat: str) -> list[DuelCommand]:
    if seat not in awaiting(s):
        return []
    hand = s.side(seat).hand
    if s.phase == "mulligan":
        return [Mulligan(cards=p) for p in mulligan_picks(hand)]
    if s.phase == "discard":
        return [_card_commands(content())[1][c] for c in sorted(set(hand))]
    energy = len(s.side(seat).energy)
    # Without a drill that changes costs, each card costs what it says: no query per card.
    modified = costs_modified(s)
    rules = content()
    plays: list[DuelCommand] = [_card_commands(rules)[0][c] for c in sorted(set(hand))
                                if (cost_of(s, seat, rules.cards[c]) if modified else rules.cards[c].cost) <= energy]
    plays.append(_PASS)
    return plays


_KEEP = Mulligan()


def default_command(s: Duel, seat: str) -> DuelCommand:
    """The move for an awaited seat whose clock ran out (README, "seed silent: clocks"): keep
    the whole hand at the mulligan, pass in combat, and in the end step discard the first card
    of the hand by id (the first listed), the one step that has no passive move. It reads only
    the seat's own hand, so it tells nobody anything."""
    if s.phase == "mulligan":
        return _KEEP
    if s.phase == "discard":
        return _card_commands(content())[1][min(s.side(seat).hand)]
    return _PASS
