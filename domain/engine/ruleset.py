"""The ruleset contract (v2): one declared value per game, and the registry of them.

A game is declared once, as a `Ruleset` that names its parts: the state type, the command
codec, the content, and the pure functions (`parse_setup`, `start`, `evolve`, `awaiting`,
`legal_commands`, `decide`, `view`, `outcome`). Everything a ruleset *may* offer is a typed
field with a default here, so the engine, sets and AI memory call it without ever asking
whether it exists:

| part | default |
|---|---|
| `table(setup)`: seats and sides | two sides of one seat each, `p1` and `p2` |
| `sealing`: per-seat secret parts of the setup | nothing sealed |
| `withhold_setup(setup)`: the setup as shown before the battle is public | nothing withheld |
| `set_rules`: what a set carries from battle to battle | nothing carried |
| `turn(state)`: the public turn number, for timelines and AI memory | 0 (no turns) |
| `memory_known(view, seat)`: the others' resources a seat knows | nothing |
| `bots`: the game's own bot policies, by name | none (the generic ones still play) |
| `anytime`: command types any seat may send whenever the battle runs (a forfeit) | none |
| `releases`: earlier versions this code still plays (`domain.engine.releases.Kept`) | none |
| `default_command(state, seat)`: the move the rules play for a seat whose clock ran out (`auto`) | none: a timeout forfeits |
| `recommended_clock`: the clock preset the game plays best with (`GET /rulesets`; advice only) | none |
| `knowledge(state, seat)`, `determinize(knowledge, seat, rng)`: what a seat knows, and full states consistent with it, for search bots | nothing hidden: a state is its own knowledge |
| `matchups()`: the setups a balance run plays, each side's entry named (`Matchup`) | the default setup, sides by id |
| `tally(events, seats)`: what a balance run counts of what `seats` did (moves, rows taken) | nothing |

Two parts every game declares that the engine reads only to check and explain them: `commands`,
the command -> handler table its `decide` dispatches through (`domain.engine.dispatch`), and
`hooks`, the declared hooks its resolvers are built from (`domain.engine.hooks.Resolving`).

`Ruleset[S, P, C]` is generic in its state, its parsed setup and its command types.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol

from typing_extensions import TypeVar

from .bots import BotFactory
from .clock import PRESETS
from .decision import Decision, Outcome
from .errors import UnknownRuleset, quote
from .events import Command, CommandCodec, Event, Seat, Viewer
from .registry import Registry, caller_place
from .rng import Rng
from .table import Side, Table, duel_table

if TYPE_CHECKING:
    from .dispatch import CommandTable

S = TypeVar("S")
P = TypeVar("P", default=Any)                 # the parsed setup
C = TypeVar("C", bound=Command, default=Any)  # the game's commands


class Content(Protocol):
    """A ruleset's content: its files' hash (replays pin it) and the data as JSON."""
    @property
    def hash(self) -> str: ...
    def as_json(self) -> dict[str, object]: ...


class KeptReleases(Protocol):
    """The earlier versions a ruleset still plays, by version (`domain.engine.releases.Kept`)."""
    def __contains__(self, version: object) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def build(self, today: "Ruleset[Any]", version: str) -> "Ruleset[Any]": ...


class DeclaredHooks(Protocol):
    """A ruleset's declared hooks (`domain.engine.hooks.Resolving`): its registry of hooks, and
    the resolvers its `decide` builds from them."""
    @property
    def hooks(self) -> object: ...
    def __call__(self, state: Any, rng: Any) -> Any: ...


class SetRules(Protocol):
    """What a set carries over between its battles (ring's LP and EXS). Both are pure."""
    def apply_carry(self, setup: Mapping[str, Any], carry: Mapping[str, Any] | None) -> dict[str, Any]: ...
    def next_carry(self, carry: Mapping[str, Any] | None, setup: Mapping[str, Any], game: Any,
                   winner: Side | None) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Sealing:
    """Per-seat secrets in a setup (a hidden inventory): `seal(raw) -> (public, {seat: sealed})`
    and its inverse `unseal(public, sealed) -> raw`. Each sealed part is recorded as a
    `SetupSealed` event only its seat may read."""
    seal: Callable[[Mapping[str, Any]], tuple[dict[str, Any], dict[str, dict[str, Any]]]]
    unseal: Callable[[Mapping[str, Any], Mapping[str, Mapping[str, Any]]], dict[str, Any]]


def nothing_withheld(setup: Mapping[str, Any]) -> dict[str, Any] | None:
    return None


def no_turns(state: Any) -> int:
    return 0


def nothing_known(view: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    return {}


def everything_known(state: Any, seat: Seat) -> Any:
    return state


def nothing_to_sample(knowledge: Any, seat: Seat, rng: Rng) -> Any:
    return knowledge


def nothing_tallied(events: Sequence[Event], seats: Sequence[Seat]) -> dict[str, int]:
    return {}


@dataclass(frozen=True, kw_only=True)
class Matchup:
    """One cell of a balance run: a full setup for `open_battle`, the entry each side plays in
    it (a deck, a team, an encounter: whatever the game's setups vary), and the cell's name."""
    setup: Mapping[str, Any]
    entries: Mapping[Side, str]
    label: str


def default_setup_only() -> Sequence[Matchup]:
    """Stands for the default `matchups` until the ruleset is built, which binds it to its own
    default setup (`Ruleset.__post_init__`)."""
    return ()


def every_pairing(parts: Mapping[str, Mapping[str, Any]], rest: Mapping[str, Any] | None = None,
                  sides: tuple[Side, Side] = ("p1", "p2")) -> list[Matchup]:
    """A duel's matchups: every ordered pair of two different entries, one on each side (so
    each pair is played in both seatings). `parts` maps an entry's name to its side's part of
    the setup (`{"deck": "ember_rush"}`); `rest` is the rest of the setup."""
    return [Matchup(setup={**(rest or {}), sides[0]: dict(parts[a]), sides[1]: dict(parts[b])},
                    entries={sides[0]: a, sides[1]: b}, label=f"{a} v {b}")
            for a in parts for b in parts if a != b]


@dataclass(frozen=True, eq=False)
class DefaultMatchup:
    """The `matchups` of a ruleset that declares none: its default setup alone, each side
    labelled by its side id."""
    ruleset: "Ruleset[Any]" = field(repr=False)

    def __call__(self) -> list[Matchup]:
        sides = self.ruleset.default_table().side_ids
        return [Matchup(setup=self.ruleset.fresh_setup(), entries={side: side for side in sides},
                        label=" v ".join(sides))]


@dataclass(frozen=True, kw_only=True, eq=False)
class Ruleset(Generic[S, P, C]):
    """A game, declared once. Replays pin `id`, `version` and `content.hash`."""
    id: str
    version: str
    content: Content
    state_type: type[S]
    codec: CommandCodec
    default_setup: Mapping[str, Any]
    setup_schema: Mapping[str, Any]
    parse_setup: Callable[[Mapping[str, Any]], P]          # SetupError names the bad field
    # the parsed setup -> the opening events, or their Decision when a resolver applied them
    start: Callable[[P, Rng], Sequence[Event] | Decision[Any]]
    evolve: Callable[[S | None, Event], S]                 # pure
    awaiting: Callable[[S], frozenset[Seat]]               # who may act now; >1: several may act
    legal_commands: Callable[[S, Seat], Sequence[C]]
    decide: Callable[[S, Seat, C, Rng], Decision[S]]       # pure, or RuleViolation
    view: Callable[[S, Viewer], Mapping[str, object]]      # JSON-ready, redacted
    outcome: Callable[[S], Outcome | None]
    table: Callable[[Mapping[str, Any]], Table] = duel_table
    sealing: Sealing | None = None
    withhold_setup: Callable[[Mapping[str, Any]], dict[str, Any] | None] = nothing_withheld
    set_rules: SetRules | None = None
    turn: Callable[[S], int] = no_turns
    memory_known: Callable[[Mapping[str, Any], Seat], dict[str, Any]] = nothing_known
    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    # Command types any seat of the table may send at any time while the battle runs, awaited
    # or not (skirmish's forfeit). They are not moves: `legal_commands` leaves them out, so no
    # bot picks them, and `decide` must accept them from every seat in every running state.
    anytime: frozenset[str] = frozenset()
    # Rule evolution (DESIGN.md): the earlier versions this code still plays, each a snapshot
    # of its content and rule parameters (`domain.engine.releases`), built on first use.
    releases: KeptReleases | None = None
    # The command -> handler table `decide` dispatches through, and the declared hooks its
    # resolvers are built from (None: a game with no effects).
    commands: "CommandTable[Any] | None" = None
    hooks: DeclaredHooks | None = None
    # The command the rules play for an awaited seat whose clock ran out, when the battle's
    # clock says `auto` (end the turn, pass, keep the whole hand): legal in every state that
    # awaits the seat, and chosen from what the seat may see, so it tells nobody anything.
    default_command: Callable[[S, Seat], C] | None = None
    # The clock preset the game plays best with, shown to whoever creates a battle (`GET
    # /rulesets`, `ringside rulesets`). Advice only: a battle runs a clock only when asked.
    recommended_clock: str | None = None
    # Search (`domain/ai/search.py`). `knowledge(state, seat)` is what the seat knows, as a state
    # of the game's own type: each part the seat may see as it is, each other part replaced by a
    # mark that tells only what the seat may see (how many cards a hand holds, the gauge band of
    # an HP). It is a redacted projection like `view`, served to the seat alone. `determinize(
    # knowledge, seat, rng)` fills every mark with a value drawn from what the seat has not seen,
    # so the state it returns is possible: its knowledge and its view for the seat are the seat's.
    knowledge: Callable[[S, Seat], S] = everything_known
    determinize: Callable[[S, Seat, Rng], S] = nothing_to_sample
    # Balance (`ringside balance`): the setups a balance run plays, each naming the entry every
    # side plays in it. A game whose setups vary nothing keeps the default setup alone.
    matchups: Callable[[], Sequence[Matchup]] = default_setup_only
    # ... and what it counts of the play: the game's own tallies of what `seats` did in one
    # battle's events (moves made, rows taken), shown per 100 battles.
    tally: Callable[[Sequence[Event], Sequence[Seat]], Mapping[str, int]] = nothing_tallied

    def __post_init__(self) -> None:
        if self.matchups is default_setup_only:
            object.__setattr__(self, "matchups", DefaultMatchup(self))
        if self.recommended_clock is not None and self.recommended_clock not in PRESETS:
            raise ValueError(f"{self.id}: recommended_clock {self.recommended_clock!r} is not a clock preset; "
                             f"presets: {', '.join(PRESETS)}")

    @property
    def earlier_versions(self) -> list[str]:
        """The kept releases but the installed one (kept too once it is cut, before the bump)."""
        return [v for v in self.releases or () if v != self.version]

    def release(self, version: str, content_hash: str) -> "Ruleset[Any] | None":
        """The ruleset exactly as `version` with `content_hash` played, or None if this code
        base no longer plays it."""
        if (version, content_hash) == (self.version, self.content_hash):
            return self
        built = _BUILT.get((self.id, version))     # every fold of an old battle asks: read its release once
        if built is None:
            if self.releases is None or version not in self.releases:
                return None
            built = _BUILT[(self.id, version)] = self.releases.build(self, version)
        return built if built.content_hash == content_hash else None

    @property
    def content_hash(self) -> str:
        return self.content.hash

    def fresh_setup(self) -> dict[str, Any]:
        """A copy of the default setup, for a battle created without one."""
        return dict(self.default_setup)

    def default_table(self) -> Table:
        """The seats of a battle created from the default setup (what `ringside rulesets` lists)."""
        return self.table(self.default_setup)


_REGISTRY: Registry[str, Ruleset[Any]] = Registry("ruleset")
_BUILT: dict[tuple[str, str], Ruleset[Any]] = {}
RULESET_PACKAGE = "domain.rulesets"


def register(ruleset: Ruleset[S, P, C]) -> Ruleset[S, P, C]:
    """Register a ruleset by id; a second ruleset with the same id is refused, naming both."""
    _REGISTRY.add(ruleset.id, ruleset, caller_place(2))
    return ruleset


def all_rulesets() -> dict[str, Ruleset[Any]]:
    importlib.import_module(RULESET_PACKAGE)
    return dict(sorted(_REGISTRY.items()))


def get_ruleset(ruleset_id: str) -> Ruleset[Any]:
    found = _REGISTRY.get(ruleset_id)
    if found is not None:
        return found
    known = all_rulesets()
    try:
        return known[ruleset_id]
    except KeyError:
        raise UnknownRuleset(f"unknown ruleset {quote(ruleset_id)}; known: {', '.join(known) or 'none'}",
                             ruleset=ruleset_id) from None


def pinned_ruleset(ruleset_id: str, version: str, content_hash: str) -> Ruleset[Any] | None:
    """The rules a battle pinned: the installed ruleset, or the earlier release kept for that
    version and content hash; None if neither is installed (UnknownRuleset if the id is not)."""
    return get_ruleset(ruleset_id).release(version, content_hash)


def ruleset_of(created: Any) -> Ruleset[Any]:
    """The ruleset a `BattleCreated` pinned, for folding and showing the battle; the
    installed one if that version is no longer kept (re-simulation refuses it instead)."""
    installed = get_ruleset(created.ruleset)
    return installed.release(created.ruleset_version, created.content_hash) or installed
