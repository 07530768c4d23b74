"""The contract every ruleset passes. A ruleset's test module subclasses `RulesetContract`,
sets `ruleset_id`, and supplies what only it knows: how to change the data a seat hides,
and commands that must be refused in a given state."""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import msgspec
import orjson
import pytest

from domain.ai import get_policy, policy_names
from domain.ai.match import Match, play, seeded_bytes
from domain.battles import Battles
from domain.reading import view_json
from domain.engine.battle import BattleState, decide_batch, open_battle, seat_table
from domain.engine.errors import NotYourTurn, RuleViolation
from domain.engine.events import (OMNISCIENT, SPECTATOR, Secret, Viewer, decode_event, hidden_fields, owned_by, redact,
                                  wire_event)
from domain.engine.rng import Rng
from domain.engine.ruleset import Ruleset, get_ruleset
from domain.engine.table import Table
from domain.house import HouseSeats
from replays.format import build, dumps, loads
from replays.verify import verify

from .playout_contract import PlayoutContract
from .routes_contract import RoutesContract
from .search_contract import SearchContract
from .views_contract import ViewsContract


MAX_COMMANDS = 5000


class RulesetContract(ViewsContract, RoutesContract, PlayoutContract, SearchContract, ABC):
    ruleset_id: ClassVar[str]
    playouts: ClassVar[int] = 12
    policies: ClassVar[tuple[str, ...]] = ("random", "greedy")
    # What the rules hide, declared apart from the event classes' markers:
    # topic -> {field: owner field, or None for data no player may see}.
    hidden_by_rule: ClassVar[dict[str, dict[str, str | None]]] = {}

    # -- what each ruleset supplies -----------------------------------------------------------
    @abstractmethod
    def perturb_hidden(self, game: Any, owner: str | None, rng: Rng) -> Any:
        """Change only data that `owner` hides from everyone else (None: data no player sees).
        Return None where `owner` hides nothing yet (skirmish before anyone has chosen)."""

    @abstractmethod
    def refused_commands(self, game: Any, seat: str) -> Sequence[dict[str, Any]]:
        """Wire commands that `decide` must refuse in this state for the awaiting `seat`."""

    @abstractmethod
    def command_universe(self, game: Any, seat: str) -> Sequence[dict[str, Any]]:
        """A finite set of well-formed wire commands covering every kind the ruleset has."""

    @abstractmethod
    def hidden_setup_variants(self) -> Sequence[tuple[dict[str, Any], dict[str, Any], str]]:
        """(setup A, setup B, owner): two setups that differ only in what the rules hide, such
        as a scripted deck order or a sealed inventory; `owner` is the seat whose own view may
        differ between them (its hand dealt from that order, say)."""

    # -- shared machinery ---------------------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset[Any]:
        return get_ruleset(self.ruleset_id)

    def match(self, i: int, policy: str = "random") -> Match:
        bots = {seat: get_policy(policy, self.ruleset_id) for seat in self.ruleset.default_table().seats}
        return play(self.ruleset, bots, battle_id=f"00000000-0000-4000-8000-{i:012d}",
                    revealed=seeded_bytes("contract", i), bot_seed=seeded_bytes("contract-bots", i, policy))

    def states(self, match: Match) -> Iterator[BattleState]:
        """Every state after each batch of a match, re-folded from its records."""
        from domain.engine.battle import fold
        state = None
        for rec in match.records:
            state = fold(self.ruleset, state, rec)
            if state.game is not None and (rec is match.records[-1] or match.records[rec.seq].event.starts_batch()):
                yield state

    @pytest.fixture(scope="class")
    @classmethod
    def matches(cls) -> list[Match]:
        return [cls().match(i, cls.policies[i % len(cls.policies)]) for i in range(cls.playouts)]

    # -- the contract -------------------------------------------------------------------------
    def test_random_playouts_terminate_with_an_outcome(self, matches):
        for m in matches:
            assert m.state.outcome is not None
            assert m.records[-1].event.TOPIC == "engine.BattleEnded"
            assert not self.ruleset.awaiting(m.state.game) or m.state.outcome is not None

    def test_every_legal_command_is_accepted(self, matches):
        for state in self.states(matches[0]):
            for seat in self.ruleset.awaiting(state.game):
                legal = self.ruleset.legal_commands(state.game, seat)
                assert legal, f"{seat} is awaited at seq {state.seq} but has no legal command"
                for cmd in legal:
                    decide_batch(self.ruleset, state, seat, self.ruleset.codec.wire(cmd))

    def test_decide_accepts_exactly_the_legal_commands(self, matches):
        """Over a finite universe of commands: accepted if and only if listed as legal."""
        checked = 0
        for state in self.states(matches[2]):
            for seat in self.ruleset.awaiting(state.game):
                legal = {orjson.dumps(self.ruleset.codec.wire(c), option=orjson.OPT_SORT_KEYS)
                         for c in self.ruleset.legal_commands(state.game, seat)}
                for wire in self.command_universe(state.game, seat):
                    listed = orjson.dumps(wire, option=orjson.OPT_SORT_KEYS) in legal
                    try:
                        decide_batch(self.ruleset, state, seat, wire)
                        accepted = True
                    except RuleViolation:
                        accepted = False
                    assert accepted == listed, (state.seq, seat, wire, "listed" if listed else "not listed")
                    checked += 1
        assert checked > 0

    def test_illegal_commands_are_refused(self, matches):
        refused = 0
        for state in self.states(matches[1]):
            waiting = self.ruleset.awaiting(state.game)
            for seat in self.ruleset.default_table().seats:
                if seat not in waiting and state.outcome is None:
                    any_cmd = self.ruleset.codec.wire(self.ruleset.legal_commands(state.game, next(iter(waiting)))[0])
                    with pytest.raises(NotYourTurn):
                        decide_batch(self.ruleset, state, seat, any_cmd)
                    continue
                for wire in [*self.refused_commands(state.game, seat), {"type": "no_such_command"}]:
                    with pytest.raises(RuleViolation):
                        decide_batch(self.ruleset, state, seat, wire)
                    refused += 1
        assert refused > 0

    def test_events_and_state_round_trip_through_orjson(self, matches):
        for rec in matches[0].records:
            wire = orjson.loads(orjson.dumps(wire_event(rec, OMNISCIENT, True)))
            assert decode_event(wire["type"], wire["data"], wire.get("v", 1)) == rec.event
        for state in self.states(matches[0]):
            raw = orjson.dumps(msgspec.to_builtins(state.game))
            assert msgspec.convert(orjson.loads(raw), type=self.ruleset.state_type) == state.game

    def test_rebuild_from_the_store_equals_live_state(self, matches, tmp_path):
        url = f"sqlite:///{tmp_path / 'rebuild.db'}"
        with Battles(url, snapshot_every=25) as store:
            for m in matches[:3]:
                store.save_battle(m.records, m.state)
                store.writer.snapshot(m.state)
        with Battles(url) as cold:
            for m in matches[:3]:
                assert cold.load(m.state.battle_id) == m.state
                middle = len(m.records) // 2
                assert cold.load(m.state.battle_id, at=middle) == next(
                    s for s in self.states_at(m, middle))

    def states_at(self, m: Match, seq: int) -> Iterator[BattleState]:
        from domain.engine.battle import fold
        state = None
        for rec in m.records[:seq]:
            state = fold(self.ruleset, state, rec)
        yield state

    def test_verify_passes(self, matches):
        for m in matches:
            report = verify(loads(dumps(build(m.state, m.records))))
            assert report.ok, report
            assert report.head == m.records[-1].chain
            assert report.winner == m.state.outcome.winner

    def test_same_seed_same_commands_same_bytes(self):
        first, again = self.match(7, "greedy"), self.match(7, "greedy")
        assert dumps(build(first.state, first.records)) == dumps(build(again.state, again.records))
        other = self.match(8, "greedy")
        assert dumps(build(first.state, first.records)) != dumps(build(other.state, other.records))

    def test_hidden_event_fields_never_reach_other_viewers(self, matches):
        """Change only hidden values; every viewer who may not see them gets the same bytes."""
        assert self.hidden_fields_checked(matches[0].records, self.viewers()) > 0

    def hidden_fields_checked(self, records: Sequence[Any], viewers: list[Viewer]) -> int:
        checked = 0
        for rec in records:
            marks = hidden_fields(type(rec.event))
            if not marks:
                continue
            changed = msgspec.structs.replace(rec.event, **{name: _other(getattr(rec.event, name))
                                                            for name, _ in marks})
            for viewer in viewers:
                sees = {name for name, mark in marks
                        if isinstance(mark, Secret) and owned_by(getattr(rec.event, mark.owner), viewer.seat)}
                if sees:
                    continue
                assert redact(rec.event, viewer, False) == redact(changed, viewer, False), (rec.seq, viewer)
                wire = wire_event(rec, viewer, False)
                assert wire["chain"] is None
                assert wire.get("redacted", False) == any(getattr(rec.event, n) is not None for n, _ in marks)
                checked += 1
        return checked

    def test_no_chain_reaches_a_player_or_spectator_before_the_battle_is_public(self, matches):
        """Every chain commits to the hidden events before it (the brute-force test in
        tests/engine/test_events.py), so none is sent until the log is public."""
        m = matches[0]
        for viewer in self.viewers():
            assert all(wire_event(r, viewer, False)["chain"] is None for r in m.records)
            assert [wire_event(r, viewer, True)["chain"] for r in m.records] == [r.chain for r in m.records]

    def test_what_the_rules_hide_is_hidden_in_every_viewers_log(self, matches):
        assert self.hidden_by_rule, "declare hidden_by_rule for this ruleset"
        seen = set()
        for rec in matches[0].records:
            fields = self.hidden_by_rule.get(rec.event.TOPIC, {})
            for viewer in self.viewers():
                data = wire_event(rec, viewer, False)["data"]
                for name, owner in fields.items():
                    if owner is not None and owned_by(data[owner], viewer.seat):
                        continue
                    assert data[name] is None, f"{rec.event.TOPIC}.{name} reaches {viewer} at seq {rec.seq}"
                    seen.add(rec.event.TOPIC)
        assert seen == set(self.hidden_by_rule) - set(self.rare_hidden_topics)

    rare_hidden_topics: ClassVar[tuple[str, ...]] = ()
    # Whether the game state holds data no player may see (deck order, say); a ruleset whose
    # every secret belongs to some seat says False, and is perturbed per seat only.
    server_only_state: ClassVar[bool] = True

    def test_views_do_not_depend_on_what_the_viewer_may_not_see(self, matches):
        rng = Rng(b"perturb")
        checked = 0
        for state in self.states(matches[0]):
            for owner in (*self.ruleset.default_table().seats, *((None,) if self.server_only_state else ())):
                other = self.perturb_hidden(state.game, owner, rng)
                if other is None:       # the ruleset says nothing is hidden at this point
                    continue
                assert other != state.game, f"perturb_hidden changed nothing for {owner} at seq {state.seq}"
                for viewer in self.viewers():
                    if owner is not None and viewer.seat == owner:
                        continue
                    assert orjson.dumps(self.ruleset.view(state.game, viewer)) == \
                        orjson.dumps(self.ruleset.view(other, viewer)), (state.seq, owner, viewer)
                    checked += 1
        assert checked > 0

    def test_setups_that_script_hidden_data_never_show_it(self):
        """A scripted order is hidden like a shuffle: from BattleCreated's setup, the rest of the
        create batch, the replay header and the views, every other viewer gets the same bytes."""
        variants = self.hidden_setup_variants()
        if self.setups_hide_nothing:
            assert not variants and self.ruleset.sealing is None
            assert self.ruleset.withhold_setup(self.ruleset.fresh_setup()) is None
            return
        assert variants, "declare hidden_setup_variants for this ruleset"
        for a, b, owner in variants:
            self.assert_only_owner_sees_a_difference([self.created(setup) for setup in (a, b)], owner)

    def assert_only_owner_sees_a_difference(self, made: list[tuple[BattleState, list[Any]]], owner: str | None) -> None:
        """Two create batches that differ: every viewer but `owner` reads the same replay and view."""
        assert [r.event for r in made[0][1]] != [r.event for r in made[1][1]], "the two batches are the same"
        for viewer in self.viewers(made[0][0].table):
            if viewer.seat == owner:
                continue
            seen = [orjson.dumps([dumps(build(state, records, viewer)).decode(), view_json(state, viewer)])
                    for state, records in made]
            assert seen[0] == seen[1], (owner, viewer)

    # A ruleset whose setups hold nothing secret (skirmish: teams are public) says so here.
    setups_hide_nothing: ClassVar[bool] = False

    # -- the declared parts (contract v2) -------------------------------------------------------
    def test_anytime_commands_are_accepted_from_every_seat(self, matches):
        """A command type the ruleset accepts at any time (a forfeit) is accepted from every
        seat in every running state, awaited or not, and is never listed as a move."""
        checked = 0
        for state in list(self.states(matches[1]))[::7]:
            if state.outcome is not None:
                continue
            for seat in state.table.seats:
                listed = {self.ruleset.codec.wire(c)["type"] for c in self.ruleset.legal_commands(state.game, seat)}
                for kind in sorted(self.ruleset.anytime):
                    assert kind not in listed
                    _, records = decide_batch(self.ruleset, state, seat, {"type": kind})
                    assert records[0].event.acting_seat() == seat
                    checked += 1
        assert checked > 0 or not self.ruleset.anytime

    def seat_setups(self) -> list[dict[str, Any]]:
        """Setups whose tables differ from the default (more seats, where the ruleset allows
        them, or a seat for a side the rules play by default); each is played to the end with
        a bot on every seat."""
        return []

    def test_every_table_has_sides_and_every_outcome_names_one(self, matches, tmp_path):
        setups = [self.ruleset.fresh_setup(), *self.seat_setups()]
        for i, setup in enumerate(setups):
            table = seat_table(self.ruleset, setup)
            assert len(table.side_ids) >= 2 and len(set(table.seats)) == len(table.seats) > 0
            if i:
                assert table != seat_table(self.ruleset, setups[0]), "seat_setups() lists other tables"
            bots = {seat: get_policy("random", self.ruleset_id) for seat in table.seats}
            m = play(self.ruleset, bots, battle_id=f"00000000-0000-4000-8000-{i + 900:012d}", setup=setup,
                     revealed=seeded_bytes("tables", i), bot_seed=seeded_bytes("table-bots", i))
            assert m.state.outcome is not None and m.state.table == table
            assert m.state.outcome.winner in (*table.side_ids, None)
            assert verify(loads(dumps(build(m.state, m.records)))).ok
            if i:   # every seat of another table is a viewer the hidden fields must not reach
                assert self.hidden_fields_checked(m.records, self.viewers(table)) > 0
        for m in matches:
            assert m.state.outcome.winner in (*m.state.table.side_ids, None)

    def test_each_bot_is_named_as_it_is_registered(self):
        """Simulated battles record a house seat as {"bot": bot.name}: it must find the bot again."""
        for name, factory in self.ruleset.bots.items():
            assert factory().name == name
        assert {"random", *self.ruleset.bots} == set(policy_names(self.ruleset_id))

    def test_the_turn_number_never_goes_back(self, matches):
        for m in matches[:3]:
            turns = [self.ruleset.turn(state.game) for state in self.states(m)]
            assert turns == sorted(turns) and all(isinstance(t, int) for t in turns)

    def test_default_command_is_legal_wherever_a_seat_is_awaited(self, matches):
        """The move the rules play for a seat whose clock ran out (`auto`) is declared, listed
        among the seat's legal commands in every state that awaits it, and accepted by `decide`."""
        default = self.ruleset.default_command
        assert default is not None, f"{self.ruleset_id} declares no default_command"
        checked = 0
        for m in matches:
            for state in self.states(m):
                for seat in sorted(self.ruleset.awaiting(state.game)):
                    wire = self.ruleset.codec.wire(default(state.game, seat))
                    legal = [self.ruleset.codec.wire(c) for c in self.ruleset.legal_commands(state.game, seat)]
                    assert wire in legal, (state.seq, seat, wire)
                    decide_batch(self.ruleset, state, seat, wire)
                    checked += 1
        assert checked > 0

    def test_every_bot_policy_plays_a_house_seat_to_the_end(self, tmp_path):
        """Each of the ruleset's policies, as a house seat against a human seat playing random
        moves through the same submit path (a table of one seat gives it to the house bot);
        the replay verifies."""
        with Battles(f"sqlite:///{tmp_path / 'house.db'}") as battles:
            house = HouseSeats(battles, sweep_seconds=3600)
            seats = self.ruleset.default_table().seats
            humans = seats[:1] if len(seats) > 1 else ()
            for name in policy_names(self.ruleset_id):
                # A searching bot at a small budget: its strength is measured elsewhere.
                bot = {"bot": name, "iterations": 8} if get_policy(name, self.ruleset_id).searches else {"bot": name}
                players = {s: "human" if s in humans else bot for s in seats}
                made = battles.create(self.ruleset_id, players)
                rng = Rng(seeded_bytes("house", name))
                for _ in range(MAX_COMMANDS):
                    house.sweep()
                    state = battles.load(made.battle_id)
                    if state.outcome is not None:
                        break
                    for human in humans:
                        if human in self.ruleset.awaiting(state.game):
                            battles.submit(made.battle_id, human, rng.choice(battles.legal(made.battle_id, human)))
                state = battles.load(made.battle_id)
                assert state.outcome is not None, f"{name}: no result"
                assert verify(build(state, battles.records(made.battle_id))).ok

    def created(self, setup: dict[str, Any]) -> tuple[BattleState, list[Any]]:
        """The create batch of a battle with this setup, its seed and id fixed."""
        return open_battle(self.ruleset, battle_id="00000000-0000-4000-8000-00000000feed", setup=setup,
                           players={seat: f"player-{seat}" for seat in seat_table(self.ruleset, setup).seats},
                           revealed=seeded_bytes("scripted"), created_at="2026-01-01T00:00:00.000Z")

    def viewers(self, table: Table | None = None) -> list[Viewer]:
        return [SPECTATOR, *(Viewer(seat=s) for s in (table or self.ruleset.default_table()).seats)]


def _other(value: Any) -> Any:
    """A different value of the same shape, for the hidden-field leak test."""
    if value is None:
        return None
    if isinstance(value, str):
        return value[::-1] + "~"
    if isinstance(value, tuple):
        return tuple(_other(v) for v in reversed(value)) + ("~",)
    if isinstance(value, dict):
        return {**{k: _other(v) for k, v in value.items()}, "~": 1}
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return ["~"]

