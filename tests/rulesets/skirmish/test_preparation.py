"""Seed 001, Preparation (Duels and Raids), run by the engine from a real setup: the selection and
the starting hand are simultaneous hidden choices; placements stay secret until every unit is
placed, each in its own deployment zone, one per tile; three cards are dealt, and a mulligan
shuffles the replaced cards back before drawing; then the characters enter and turn 1 starts.

The fielded characters have no Prologue talent, so their entry adds nothing to the events:
p1 fields wisp, sable, thorn (cinder stays home); p2 bramble, thorn, fang (sable stays home).
"""
from __future__ import annotations

from collections import Counter

import pytest

from domain.engine.battle import decide_batch, open_battle
from domain.engine.choices import ChoiceLocked, ChoicesRevealed
from domain.engine.errors import NotYourTurn
from domain.engine.events import Viewer, redact, wire_event
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.content import CONTENT
from domain.rulesets.skirmish.events import (ApRestored, CardsDrawn, CardsReturned, DeckPrepared, DeckShuffled,
                                             FirstPlayerChosen, MaxApChanged, PlacementsRevealed, SkirmishStarted,
                                             TurnStarted, UnitEntered, UnitPlaced)
from domain.rulesets.skirmish.state import SEATS

from .given import decide_after, legal, refused

SETUP = {"mode": "duel", "board": "meadow", "first_player": "p1",
         "p1": {"team": ["wisp", "sable", "thorn", "cinder"]},
         "p2": {"team": ["bramble", "thorn", "sable", "fang"]}}
FIELDED = {"p1": ["wisp", "sable", "thorn"], "p2": ["bramble", "thorn", "fang"]}
ROW = {"p1": 0, "p2": 7}            # meadow: p1 deploys on rows 0-1, p2 on rows 6-7
RAID = {"mode": "raid", "p1": {"team": ["sigil", "quill", "fang", "brick", "wisp"]}, "p2": {"boss": "tempest_wyrm"}}
P1, P2, SPECTATOR = Viewer(seat="p1"), Viewer(seat="p2"), Viewer()


def opened(setup=SETUP):
    state, records = open_battle(RULESET, battle_id="b-1", setup=setup, players={"p1": "ann", "p2": "bob"},
                                 revealed=b"\x01" * 32, created_at="2024-01-01T00:00:00Z")
    return state, records


def send(state, seat, wire):
    """One command through the engine: the battle after it, and the records it appended."""
    return decide_batch(RULESET, state, seat, wire)


def events(records):
    return [r.event for r in records]


def seen_by(record, viewer):
    return wire_event(record, viewer, False)["data"]


def selected(setup=SETUP):
    state, _ = opened(setup)
    for seat in SEATS:
        state, _ = send(state, seat, {"type": "field", "characters": FIELDED[seat]})
    return state


def placed(setup=SETUP):
    """Every fielded unit placed on its seat's back row, left to right: (battle, last batch)."""
    state = selected(setup)
    last = []
    for seat in SEATS:
        for col, character in enumerate(FIELDED[seat]):
            state, last = send(state, seat, {"type": "place", "character": character, "cell": [col, ROW[seat]]})
    return state, last


# -- The start --------------------------------------------------------------------------------

def test_the_teams_are_public_from_the_start():
    state, records = opened()
    started = records[1].event
    assert isinstance(started, SkirmishStarted)
    assert [u["key"] for u in started.units] == ["p1.wisp", "p1.sable", "p1.thorn", "p1.cinder",
                                                 "p2.bramble", "p2.thorn", "p2.sable", "p2.fang"]
    assert wire_event(records[1], P2, False).get("redacted") is None
    assert (state.game.phase, RULESET.awaiting(state.game)) == ("select", frozenset(SEATS))
    assert not any(u.fielded for u in state.game.units.values())


# -- Selection --------------------------------------------------------------------------------

def test_the_first_selection_is_locked_in_secret():
    state, _ = opened()
    state, records = send(state, "p1", {"type": "field", "characters": ["thorn", "wisp", "sable"]})
    # kept in team order
    assert events(records) == [ChoiceLocked(seat="p1", kind="field", choice={"characters": ["wisp", "sable", "thorn"]})]
    assert seen_by(records[0], P1)["choice"] == {"characters": ["wisp", "sable", "thorn"]}
    assert seen_by(records[0], P2)["choice"] is None
    assert seen_by(records[0], SPECTATOR)["choice"] is None
    assert not any(u.fielded for u in state.game.units.values())
    assert RULESET.awaiting(state.game) == frozenset({"p2"})
    assert RULESET.view(state.game, P2)["seats"]["p1"]["locked"] is True


def test_the_last_selection_reveals_both():
    state, _ = opened()
    state, _ = send(state, "p1", {"type": "field", "characters": FIELDED["p1"]})
    state, records = send(state, "p2", {"type": "field", "characters": ["fang", "thorn", "bramble"]})
    assert events(records) == [
        ChoiceLocked(seat="p2", kind="field", choice={"characters": ["bramble", "thorn", "fang"]}),
        ChoicesRevealed(kind="field", choices={"p1": {"characters": ["wisp", "sable", "thorn"]},
                                               "p2": {"characters": ["bramble", "thorn", "fang"]}})]
    assert seen_by(records[1], P1)["choices"]["p2"] == {"characters": ["bramble", "thorn", "fang"]}
    game = state.game
    assert game.phase == "place"
    assert {k for k, u in game.units.items() if u.fielded} == {"p1.wisp", "p1.sable", "p1.thorn",
                                                               "p2.bramble", "p2.thorn", "p2.fang"}


def test_a_seat_locks_its_selection_once():
    state, _ = opened()
    state, _ = send(state, "p1", {"type": "field", "characters": FIELDED["p1"]})
    refused(state.game, "p1", RULESET.codec.parse({"type": "field", "characters": ["wisp", "sable", "cinder"]}),
            "p1 has already locked a field choice")
    with pytest.raises(NotYourTurn):
        send(state, "p1", {"type": "field", "characters": ["wisp", "sable", "cinder"]})


@pytest.mark.parametrize(("characters", "message"), [
    (["wisp", "sable"], "field 3 characters, not 2"),
    (["wisp", "sable", "thorn", "cinder"], "field 3 characters, not 4"),
    ([], "field 3 characters, not 0"),
    (["wisp", "sable", "fang"], "'fang' is not in your team"),
    (["wisp", "wisp", "sable"], "each character can be fielded once"),
])
def test_a_duel_fields_exactly_three_of_the_team(characters, message):
    state, _ = opened()
    refused(state.game, "p1", RULESET.codec.parse({"type": "field", "characters": characters}), message)


def test_the_legal_duel_selections_are_the_teams_threes():
    state, _ = opened()
    # 4 team members, choose 3: 4 selections
    assert legal(state.game, "p1") == [
        {"type": "field", "characters": c} for c in (
            ("wisp", "sable", "thorn"), ("wisp", "sable", "cinder"), ("wisp", "thorn", "cinder"),
            ("sable", "thorn", "cinder"))]


@pytest.mark.parametrize("characters", [["fang"], ["sigil", "quill", "fang", "brick", "wisp"], ["quill", "wisp"]])
def test_a_raid_fields_one_to_five(characters):
    state, _ = opened(RAID)
    _, records = send(state, "p1", {"type": "field", "characters": characters})
    assert [type(e) for e in events(records)] == [ChoiceLocked]


def test_a_raid_fields_at_least_one():
    state, _ = opened(RAID)
    refused(state.game, "p1", RULESET.codec.parse({"type": "field", "characters": []}),
            "field 1 to 5 characters, not 0")


def test_the_boss_side_always_fields_its_boss():
    state, _ = opened(RAID)
    refused(state.game, "p2", RULESET.codec.parse({"type": "field", "characters": ["stormling", "squall"]}),
            "the boss side always fields Tempest Wyrm")
    _, records = send(state, "p2", {"type": "field", "characters": ["tempest_wyrm"]})
    assert events(records) == [ChoiceLocked(seat="p2", kind="field", choice={"characters": ["tempest_wyrm"]})]


def test_the_legal_raid_selections():
    state, _ = opened(RAID)
    # p1: 5 + 10 + 10 + 5 + 1 = 31 non-empty subsets of 5
    assert len(legal(state.game, "p1")) == 31
    # p2: the boss, plus any of its 2 escorts: 1 + 2 + 1 = 4
    assert sorted(tuple(c["characters"]) for c in legal(state.game, "p2")) == [
        ("tempest_wyrm",), ("tempest_wyrm", "squall"), ("tempest_wyrm", "stormling"),
        ("tempest_wyrm", "stormling", "squall")]


# -- Placement --------------------------------------------------------------------------------

def test_a_placement_is_secret_until_every_unit_is_placed():
    state, records = send(selected(), "p1", {"type": "place", "character": "wisp", "cell": [3, 1]})
    assert events(records) == [UnitPlaced(seat="p1", character="wisp", cell=[3, 1])]
    assert seen_by(records[0], P1)["cell"] == [3, 1]
    assert seen_by(records[0], P2)["cell"] is None
    assert seen_by(records[0], SPECTATOR)["cell"] is None
    assert state.game.units["p1.wisp"].cell is None               # not on the board yet
    seen = RULESET.view(state.game, P2)
    assert (seen["seats"]["p1"]["placed"], seen["seats"]["p1"]["placements"]) == (1, None)
    assert seen["units"]["p1.wisp"]["cell"] is None
    assert seen["units"]["p1.wisp"]["fielded"] is True            # who is fielded is public
    assert RULESET.view(state.game, P1)["seats"]["p1"]["placements"] == {"wisp": [3, 1]}


@pytest.mark.parametrize(("seat", "cell"), [
    ("p1", [0, 2]), ("p1", [3, 5]), ("p1", [0, 6]), ("p1", [6, 7]),     # open middle, p2's zone
    ("p2", [0, 0]), ("p2", [4, 1]), ("p2", [3, 5]),                     # p1's zone, open middle
])
def test_a_unit_is_placed_only_in_its_own_deployment_zone(seat, cell):
    game = selected().game
    character = FIELDED[seat][0]
    refused(game, seat, RULESET.codec.parse({"type": "place", "character": character, "cell": cell}),
            rf"\[{cell[0]}, {cell[1]}\] is not a free tile of your deployment zone")


def test_a_placement_off_the_board_is_refused():
    refused(selected().game, "p1", RULESET.codec.parse({"type": "place", "character": "wisp", "cell": [7, 0]}),
            r"cell\[0\]: col must be on the board")


def test_one_unit_per_tile():
    state, _ = send(selected(), "p1", {"type": "place", "character": "wisp", "cell": [0, 0]})
    refused(state.game, "p1", RULESET.codec.parse({"type": "place", "character": "sable", "cell": [0, 0]}),
            r"\[0, 0\] is not a free tile of your deployment zone")
    places = legal(state.game, "p1")
    # 2 characters left x (14 zone tiles - 1 taken) = 26
    assert len(places) == 26
    assert [0, 0] not in [c["cell"] for c in places]


@pytest.mark.parametrize("character", ["cinder", "fang", "bramble"])
def test_only_an_unplaced_fielded_character_is_placed(character):
    state, _ = send(selected(), "p1", {"type": "place", "character": "wisp", "cell": [0, 0]})
    for who in ("wisp", character):
        refused(state.game, "p1", RULESET.codec.parse({"type": "place", "character": who, "cell": [1, 0]}),
                f"'{who}' is not a fielded character of yours waiting to be placed")


def test_a_seat_done_placing_waits_for_the_other():
    state = selected()
    for col, character in enumerate(FIELDED["p1"]):
        state, _ = send(state, "p1", {"type": "place", "character": character, "cell": [col, 0]})
    assert RULESET.awaiting(state.game) == frozenset({"p2"})
    with pytest.raises(NotYourTurn):
        send(state, "p1", {"type": "place", "character": "wisp", "cell": [3, 1]})


def test_the_selection_step_is_over_during_placement():
    refused(selected().game, "p1", RULESET.codec.parse({"type": "field", "characters": FIELDED["p1"]}),
            "the place step takes a place command, not field")


def test_the_last_placement_reveals_every_cell_and_deals_three_cards():
    state, records = placed()
    got = events(records)
    assert got[:2] == [UnitPlaced(seat="p2", character="fang", cell=[2, 7]),
                       PlacementsRevealed(cells={"p1.wisp": [0, 0], "p1.sable": [1, 0], "p1.thorn": [2, 0],
                                                 "p2.bramble": [0, 7], "p2.thorn": [1, 7], "p2.fang": [2, 7]})]
    decks = [e for e in got if isinstance(e, DeckPrepared)]
    dealt = [e for e in got if isinstance(e, CardsDrawn)]
    assert [type(e) for e in got[2:]] == [DeckPrepared, CardsDrawn, DeckPrepared, CardsDrawn]
    for seat, deck, hand in zip(SEATS, decks, dealt):
        pool = Counter(card for c in FIELDED[seat] for card in CONTENT.pool(c, 4, 3))
        # 3 characters x (4 class cards + 2 unique cards x 3 copies) = 30
        assert (deck.seat, deck.size, len(deck.order)) == (seat, 30, 30)
        assert Counter(deck.order) == pool
        assert hand == CardsDrawn(seat=seat, count=3, cards=deck.order[:3])
        player = state.game.player(seat)
        assert (player.hand, player.deck) == (deck.order[:3], deck.order[3:])     # 30 - 3 = 27 left
    game = state.game
    assert game.phase == "mulligan"
    assert game.units["p2.fang"].cell == (2, 7) and game.units["p1.wisp"].cell == (0, 0)
    assert RULESET.awaiting(game) == frozenset(SEATS)


def test_the_deck_and_hand_are_hidden_from_the_opponent():
    _, records = placed()
    deck_p1 = next(r for r in records if isinstance(r.event, DeckPrepared) and r.event.seat == "p1")
    hand_p1 = next(r for r in records if isinstance(r.event, CardsDrawn) and r.event.seat == "p1")
    assert seen_by(deck_p1, P1)["order"] is None                    # server-only, even to its seat
    assert seen_by(deck_p1, P1)["size"] == 30
    assert seen_by(hand_p1, P1)["cards"] == hand_p1.event.cards
    assert seen_by(hand_p1, P2)["cards"] is None
    assert seen_by(hand_p1, P2)["count"] == 3


def test_the_placements_are_public_after_the_reveal():
    _, records = placed()
    revealed = next(r for r in records if isinstance(r.event, PlacementsRevealed))
    assert seen_by(revealed, P2)["cells"]["p1.wisp"] == [0, 0]
    assert seen_by(revealed, SPECTATOR)["cells"]["p2.fang"] == [2, 7]


# -- The starting hand ------------------------------------------------------------------------

def test_the_first_mulligan_is_locked_in_secret():
    state, _ = placed()
    hand = state.game.p1.hand
    state2, records = send(state, "p1", {"type": "mulligan", "cards": [hand[2], hand[0]]})
    assert events(records) == [ChoiceLocked(seat="p1", kind="mulligan",
                                            choice={"cards": sorted([hand[2], hand[0]])})]
    assert seen_by(records[0], P2)["choice"] is None
    assert state2.game.p1.hand == hand                              # nothing moves until both lock


def test_the_mulligan_shuffles_the_replaced_cards_back_then_draws():
    state, _ = placed()
    hand, deck = state.game.p1.hand, state.game.p1.deck
    returned = sorted([hand[0], hand[2]])
    state, _ = send(state, "p1", {"type": "mulligan", "cards": returned})
    state, records = send(state, "p2", {"type": "mulligan", "cards": []})
    got = events(records)
    # only how many each replaces is revealed
    assert got[:3] == [ChoiceLocked(seat="p2", kind="mulligan", choice={"cards": []}),
                       ChoicesRevealed(kind="mulligan", choices={"p1": {"count": 2}, "p2": {"count": 0}}),
                       CardsReturned(seat="p1", count=2, cards=tuple(returned))]
    shuffled = got[3]
    assert isinstance(shuffled, DeckShuffled) and shuffled.seat == "p1"
    # 27 left + 2 back = 29, in a new order
    assert Counter(shuffled.order) == Counter(deck) + Counter(returned)
    assert shuffled.order != deck + tuple(returned)
    assert got[4] == CardsDrawn(seat="p1", count=2, cards=shuffled.order[:2])
    assert not any(isinstance(e, (CardsReturned, DeckShuffled)) and e.seat == "p2" for e in got)
    # then turn 1 (p1's) draws one more: kept 1 + new 2 + 1 = 4 in hand, 29 - 3 = 26 in the deck
    assert state.game.p1.hand == (hand[1], *shuffled.order[:3])
    assert state.game.p1.deck == shuffled.order[3:]
    returned_rec = next(r for r in records if isinstance(r.event, CardsReturned))
    assert seen_by(returned_rec, P2)["cards"] is None
    assert seen_by(next(r for r in records if isinstance(r.event, DeckShuffled)), P1)["order"] is None


def test_keeping_every_card_returns_nothing():
    state, _ = placed()
    hand = state.game.p2.hand
    state, _ = send(state, "p1", {"type": "mulligan", "cards": []})
    state, records = send(state, "p2", {"type": "mulligan", "cards": []})
    assert not any(isinstance(e, (CardsReturned, DeckShuffled)) for e in events(records))
    assert state.game.p2.hand == hand                              # p2 does not draw on p1's turn


def test_only_cards_in_the_starting_hand_are_replaced():
    state, _ = placed()
    hand = state.game.p1.hand
    absent = next(c for c in ("pinning_shot", "vanish", "root_bind", "wild_leap") if c not in hand)
    refused(state.game, "p1", RULESET.codec.parse({"type": "mulligan", "cards": [absent]}),
            "you can only replace cards in your starting hand")
    once = next(c for c in hand if hand.count(c) == 1)
    refused(state.game, "p1", RULESET.codec.parse({"type": "mulligan", "cards": [once, once]}),
            "you can only replace cards in your starting hand")


# -- The match begins -------------------------------------------------------------------------

def test_after_the_starting_hands_the_units_enter_and_turn_one_starts():
    state, _ = placed()
    state, _ = send(state, "p1", {"type": "mulligan", "cards": []})
    state, records = send(state, "p2", {"type": "mulligan", "cards": []})
    got = events(records)[2:]
    drawn = state.game.p1.hand[-1]
    assert got == [FirstPlayerChosen(seat="p1", by="setup"),
                   MaxApChanged(seat="p2", max_ap=4, ap=4, by="second_player"),    # 0 + second_player_ap 4
                   UnitEntered(unit="p1.wisp", cell=[0, 0]), UnitEntered(unit="p1.sable", cell=[1, 0]),
                   UnitEntered(unit="p1.thorn", cell=[2, 0]),
                   UnitEntered(unit="p2.bramble", cell=[0, 7]), UnitEntered(unit="p2.thorn", cell=[1, 7]),
                   UnitEntered(unit="p2.fang", cell=[2, 7]),
                   TurnStarted(turn=1, seat="p1"),
                   ApRestored(seat="p1", max_ap=1, ap=1),       # 0 + 1
                   CardsDrawn(seat="p1", count=1, cards=(drawn,))]
    game = state.game
    assert (game.phase, game.turn, game.active, RULESET.awaiting(game)) == ("combat", 1, "p1", frozenset({"p1"}))
    assert all(u.on_board for u in game.units.values() if u.fielded)
    assert (len(game.p1.hand), len(game.p2.hand)) == (4, 3)      # 3 + 1 drawn; p2 draws on its turn


def test_the_second_seat_first_when_the_setup_says_so():
    setup = {**SETUP, "first_player": "p2"}
    state, _ = placed(setup)
    state, _ = send(state, "p1", {"type": "mulligan", "cards": []})
    state, records = send(state, "p2", {"type": "mulligan", "cards": []})
    got = events(records)
    assert got[2] == FirstPlayerChosen(seat="p2", by="setup")
    assert [e.unit for e in got if isinstance(e, UnitEntered)] == [
        "p2.bramble", "p2.thorn", "p2.fang", "p1.wisp", "p1.sable", "p1.thorn"]
    assert TurnStarted(turn=1, seat="p2") in got
    assert ApRestored(seat="p2", max_ap=1, ap=1) in got
    # the second player, p1, gets second_player_ap (4) before the first turn: 0 + 4
    assert MaxApChanged(seat="p1", max_ap=4, ap=4, by="second_player") in got
    assert (state.game.active, state.game.p1.max_ap) == ("p2", 4)


def test_the_second_player_starts_its_first_turn_with_the_compensation_and_one_more():
    # given p1 first, second_player_ap 4 (the default)
    state, _ = placed()
    state, _ = send(state, "p1", {"type": "mulligan", "cards": []})
    state, _ = send(state, "p2", {"type": "mulligan", "cards": []})
    # when p1 ends its first turn
    _, records = send(state, "p1", {"type": "end_turn"})
    # then p2's maximum rises from 4 to 5 and its AP is restored to it: 0 + 4 + 1
    assert ApRestored(seat="p2", max_ap=5, ap=5) in events(records)


def test_the_compensation_stops_at_the_ap_cap():
    # given an AP cap of 2 and second_player_ap 4
    state, _ = placed({**SETUP, "params": {"ap_cap": 2}})
    state, _ = send(state, "p1", {"type": "mulligan", "cards": []})
    # when the match begins
    state, records = send(state, "p2", {"type": "mulligan", "cards": []})
    # then p2's maximum rises to the cap: min(2, 0 + 4) = 2
    assert MaxApChanged(seat="p2", max_ap=2, ap=2, by="second_player") in events(records)
    assert state.game.p2.max_ap == 2


def test_no_compensation_when_the_param_is_zero():
    # given second_player_ap 0 (what every release before 1.1.0 played)
    state, _ = placed({**SETUP, "params": {"second_player_ap": 0}})
    state, _ = send(state, "p1", {"type": "mulligan", "cards": []})
    # when the match begins
    state, records = send(state, "p2", {"type": "mulligan", "cards": []})
    # then nobody's maximum changes before the first turn
    assert not [e for e in events(records) if isinstance(e, MaxApChanged)]
    assert (state.game.p1.max_ap, state.game.p2.max_ap) == (1, 0)


def test_the_rng_picks_the_first_player_when_the_setup_does_not():
    setup = {**SETUP, "first_player": None}
    state, _ = placed(setup)
    state, _ = send(state, "p1", {"type": "mulligan", "cards": []})
    state, records = send(state, "p2", {"type": "mulligan", "cards": []})
    [chosen] = [e for e in events(records) if isinstance(e, FirstPlayerChosen)]
    assert chosen.by == "rng" and chosen.seat in SEATS
    assert TurnStarted(turn=1, seat=chosen.seat) in events(records)
    assert state.game.active == chosen.seat


def test_a_redacted_selection_hides_nothing_but_the_choice():
    state, _ = opened()
    _, records = send(state, "p1", {"type": "field", "characters": FIELDED["p1"]})
    data, whole = redact(records[0].event, P2, False)
    assert (data["seat"], data["kind"], data["choice"], whole) == ("p1", "field", None, False)


def test_the_preparation_is_over_once_the_match_begins():
    state, _ = placed()
    for seat in SEATS:
        state, _ = send(state, seat, {"type": "mulligan", "cards": []})
    for wire in ({"type": "mulligan", "cards": []}, {"type": "field", "characters": FIELDED["p1"]},
                 {"type": "place", "character": "wisp", "cell": [3, 1]}):
        refused(state.game, "p1", RULESET.codec.parse(wire),
                f"{wire['type']} belongs to the preparation, which is over")
