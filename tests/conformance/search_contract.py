"""The search part of the contract: a seat's knowledge tells nothing it may not see, the states
`determinize` draws from it are possible, and the `search` bot's choice never depends on the
hidden truth."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
from msgspec.structs import replace

from domain.ai import get_policy
from domain.ai.match import Match, bot_choice, seen_by
from domain.engine.battle import BattleState
from domain.engine.events import Viewer
from domain.engine.playout import Sim, playout
from domain.engine.rng import Rng
from domain.engine.ruleset import Ruleset

SAMPLED = 40            # states per match the search tests look at
SEARCH_ITERATIONS = 24  # a small budget: the choice, not its strength, is under test
SEARCHED = 12           # states the search test looks at


class SearchContract:
    ruleset: Ruleset[Any]
    server_only_state: bool

    def states(self, match: Match) -> Iterator[BattleState]: ...

    def perturb_hidden(self, game: Any, owner: str | None, rng: Rng) -> Any: ...

    def sampled(self, matches: list[Match], limit: int = 3) -> Iterator[BattleState]:
        """Up to SAMPLED states spread over each of the first matches."""
        for m in matches[:limit]:
            states = list(self.states(m))
            yield from states[::max(1, len(states) // SAMPLED)]

    def hiders(self, seat: str) -> tuple[str | None, ...]:
        """Whose secrets `seat` may not see: every other seat's, and nobody's."""
        others = tuple(s for s in self.ruleset.default_table().seats if s != seat)
        return (*others, *((None,) if self.server_only_state else ()))

    def test_knowledge_does_not_depend_on_what_the_seat_may_not_see(self, matches):
        rs, rng, checked = self.ruleset, Rng(b"perturb knowledge"), 0
        for state in self.sampled(matches):
            for seat in rs.default_table().seats:
                known = rs.knowledge(state.game, seat)
                for owner in self.hiders(seat):
                    other = self.perturb_hidden(state.game, owner, rng)
                    if other is not None:
                        assert rs.knowledge(other, seat) == known, (state.seq, seat, owner)
                        checked += 1
        assert checked > 0

    def test_determinized_states_are_possible(self, matches):
        """What `determinize` draws is a state the seat could be in: the same knowledge, view,
        awaited seats and legal commands; and it plays on to the end."""
        rs, rng = self.ruleset, Rng(b"determinize")
        for state in self.sampled(matches):
            for seat in rs.default_table().seats:
                known = rs.knowledge(state.game, seat)
                drawn = rs.determinize(known, seat, rng)
                assert rs.knowledge(drawn, seat) == known, (state.seq, seat)
                assert orjson.dumps(rs.view(drawn, Viewer(seat=seat))) == \
                    orjson.dumps(rs.view(state.game, Viewer(seat=seat))), (state.seq, seat)
                assert rs.awaiting(drawn) == rs.awaiting(state.game), (state.seq, seat)
                if seat in rs.awaiting(state.game):
                    assert [rs.codec.wire(c) for c in rs.legal_commands(drawn, seat)] == \
                        [rs.codec.wire(c) for c in rs.legal_commands(state.game, seat)], (state.seq, seat)
                seed = rng.next64().to_bytes(8, "big") * 4
                end, _ = playout(rs, Sim(drawn, state.seq, seed, rs.outcome(drawn)), rng)
                assert end.outcome is not None

    def test_determinize_samples_what_is_hidden(self, matches):
        """Wherever another seat (or nobody) hides something, some draw differs from the truth."""
        rs, rng = self.ruleset, Rng(b"resample")
        hidden, resampled = 0, 0
        for state in self.sampled(matches):
            for seat in rs.default_table().seats:
                if all(self.perturb_hidden(state.game, owner, rng) is None for owner in self.hiders(seat)):
                    continue
                hidden += 1
                known = rs.knowledge(state.game, seat)
                resampled += any(rs.determinize(known, seat, rng) != state.game for _ in range(4))
        assert hidden > 0
        assert resampled == hidden

    def test_search_never_reads_the_hidden_truth(self, matches):
        """With its seed fixed, the search bot picks the same command whatever the hidden truth:
        at up to SEARCHED states where an awaited seat has a choice and something is hidden from it."""
        rs, rng = self.ruleset, Rng(b"perturb search")
        bot = get_policy("search", rs.id, iterations=SEARCH_ITERATIONS)
        checked = 0
        for state, seat, others in self.hidden_choices(matches, rng):
            legal = rs.legal_commands(state.game, seat)
            chosen = bot_choice(bot, rs, state.game, seat, legal, Rng(b"bot seed"), seen=seen_by(rs, state, seat, None))
            for other in others:
                again = bot_choice(bot, rs, other, seat, rs.legal_commands(other, seat), Rng(b"bot seed"),
                                   seen=seen_by(rs, replace(state, game=other), seat, None))
                assert rs.codec.wire(again) == rs.codec.wire(chosen), (state.seq, seat)
                checked += 1
        assert checked > 0

    def hidden_choices(self, matches: list[Match], rng: Rng) -> Iterator[tuple[BattleState, str, list[Any]]]:
        """(state, awaited seat with a choice, the state with what the seat may not see
        perturbed by each hider), at up to SEARCHED states of the first matches."""
        found = 0
        for m in matches[:3]:
            for state in self.states(m):
                for seat in sorted(self.ruleset.awaiting(state.game)):
                    if len(self.ruleset.legal_commands(state.game, seat)) < 2:
                        continue
                    others = [o for owner in self.hiders(seat)
                              if (o := self.perturb_hidden(state.game, owner, rng)) is not None]
                    if others:
                        yield state, seat, others
                        found += 1
                        if found == SEARCHED:
                            return
