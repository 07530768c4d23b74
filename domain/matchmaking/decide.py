"""What a queue decides: a ticket opened or cancelled, and what each pairing wave pairs. The
wave is `pairings`, one pure function of the queue's state and the wave's recorded time, so
`ringside audit queue` re-derives every recorded wave and compares."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.battle import parse_battle_setup
from domain.engine.errors import InvalidInput, RingsideError, SetupError

from .events import Pairing, TicketCancelled, TicketOpened, TicketsPaired
from .formats import QueueFormat
from .state import QueueState
from .waves import DEFAULT_RULES, Waiting, WaveRules, pair_wave

HOUSE = "house:"


class TicketExists(RingsideError):
    code = "ticket_exists"


class UnknownTicket(RingsideError):
    code = "not_found"


class TicketClosed(RingsideError):
    """The ticket was paired or cancelled already."""
    code = "stale"


def check_setup_part(fmt: QueueFormat, part: object) -> dict[str, Any] | None:
    """A player's own part of the setup (a deck, a team), checked by the ruleset's setup rules
    as the first seat's part; an error names `setup.<field>`."""
    if part is None:
        return None
    if not fmt.setup_parts:
        raise InvalidInput("setup", f"queue {fmt.id} takes no setup part: its battles start from its own setup")
    if not isinstance(part, Mapping):
        raise InvalidInput("setup", "a ticket's setup is an object: the player's own part (a deck, a team)")
    seat = fmt.seats[0]
    trial = {**fmt.battle_setup(), seat: dict(part)}
    try:
        parse_battle_setup(fmt.rules, trial)
    except SetupError as refused:          # its field is within the setup: "p1.deck" names "deck"
        field = refused.field.removeprefix(f"{seat}.") if refused.field != seat else "setup"
        raise SetupError(field, refused.message.split(": ", 1)[-1]) from None
    except InvalidInput as refused:
        raise InvalidInput(refused.field.replace(f"setup.{seat}", "setup", 1),
                           refused.message.split(": ", 1)[-1]) from None
    return dict(part)


def open_ticket(state: QueueState, fmt: QueueFormat, *, ticket: str, player: str, rating: float, at_ms: int,
                setup: dict[str, Any] | None, seat_token_hash: str) -> list[TicketOpened]:
    """A ticket for `player`, who may hold one per queue."""
    held = state.waiting_ticket_of(player)
    if held is not None:
        raise TicketExists(f"{player} already waits in {fmt.id} with ticket {held}", ticket=held)
    return [TicketOpened(queue=fmt.id, ticket=ticket, player=player, rating=rating, at_ms=at_ms, setup=setup,
                         seat_token_hash=seat_token_hash)]


def cancel_ticket(state: QueueState, ticket: str, player: str, at_ms: int) -> list[TicketCancelled]:
    opened = state.tickets.get(ticket)
    if opened is None or opened.player != player:
        raise UnknownTicket(f"no ticket {ticket!r} of yours here", ticket=ticket)
    if ticket not in state.waiting:
        raise TicketClosed(f"ticket {ticket} was already {'paired' if ticket in state.seated else 'cancelled'}",
                           ticket=ticket)
    return [TicketCancelled(ticket=ticket, at_ms=at_ms)]


def waiting_line(state: QueueState) -> list[Waiting]:
    return [Waiting(ticket=t, player=o.player, rating=o.rating, since_ms=o.at_ms,
                    last_opponent=state.last_opponent.get(o.player)) for t, o in state.waiting.items()]


def pairings(state: QueueState, fmt: QueueFormat, at_ms: int,
             rules: WaveRules = DEFAULT_RULES) -> list[tuple[dict[str, str], dict[str, str]]]:
    """The wave at `at_ms`: for each battle, (seat -> ticket, seat -> house bot). Pairs come
    from `pair_wave`; the ticket that opened first takes the first seat (ties by ticket id).
    Then each ticket still unpaired that has waited `backfill_after_s` plays the queue's house
    bot, longest waiter first."""
    first, second = fmt.seats[0], fmt.seats[1]
    made: list[tuple[dict[str, str], dict[str, str]]] = []
    paired: set[str] = set()
    for a, b in pair_wave(waiting_line(state), at_ms, rules):
        early, late = sorted((a, b), key=lambda t: (state.waiting[t].at_ms, t))
        made.append(({first: early, second: late}, dict(fmt.house)))
        paired |= {a, b}
    if fmt.backfill_after_s is not None and fmt.backfill_bot is not None:
        due_ms = at_ms - round(fmt.backfill_after_s * 1000)
        for ticket, opened in sorted(state.waiting.items(), key=lambda item: (item[1].at_ms, item[0])):
            if ticket not in paired and opened.at_ms <= due_ms:
                made.append(({first: ticket}, {second: fmt.backfill_bot, **fmt.house}))
    return made


def decide_wave(state: QueueState, fmt: QueueFormat, at_ms: int, battle_ids: list[str],
                rules: WaveRules = DEFAULT_RULES) -> TicketsPaired | None:
    """The wave's event, each battle taking the next of `battle_ids`; None if it pairs nobody."""
    found = pairings(state, fmt, at_ms, rules)
    if not found:
        return None
    return TicketsPaired(at_ms=at_ms, pairings=[Pairing(battle_id=battle_ids[i], seats=seats, house=house)
                                                for i, (seats, house) in enumerate(found)])


def wave_due(state: QueueState, fmt: QueueFormat, now_ms: int) -> bool:
    """Whether a wave should run now: something could pair (two tickets, or one the house may
    fill), and either `min_wave` tickets wait or `wave_s` has passed since the last wave."""
    waiting = len(state.waiting)
    if waiting < 2 and not (waiting == 1 and fmt.backfill_after_s is not None):
        return False
    last = state.last_wave_ms
    return waiting >= fmt.min_wave or last is None or now_ms - last >= fmt.wave_s * 1000
