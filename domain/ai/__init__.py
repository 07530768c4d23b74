"""Bot policies. A bot sees only what its seat may know: its redacted view, its legal
commands and its AI memory. Nothing here reads battle state directly.

The generic policies (`random`) play every ruleset; a game's own policies (`greedy`,
`memory`) live in its ruleset package and are named by its `Ruleset.bots`. A ruleset's own
policy of a name comes before a generic one.
"""
from __future__ import annotations

from collections.abc import Mapping

from domain.engine.bots import Bot, BotFactory
from domain.engine.errors import InvalidInput, RingsideError, quote
from domain.engine.registry import Registry
from domain.engine.ruleset import all_rulesets, get_ruleset
from domain.engine.table import house_bots, house_iterations

from .random_policy import RandomPolicy
from .search import MAX_ITERATIONS, SearchBot

GENERIC: Registry[str, BotFactory] = Registry("bot policy")
GENERIC.add("random", RandomPolicy)
GENERIC.add("search", SearchBot)


class UnknownPolicy(RingsideError):
    code = "unknown_policy"


def policy_names(ruleset_id: str | None = None) -> list[str]:
    """The policies that play `ruleset_id` (every ruleset's when None), sorted."""
    rulesets = [get_ruleset(ruleset_id)] if ruleset_id else list(all_rulesets().values())
    return sorted({*GENERIC, *(name for r in rulesets for name in r.bots)})


def get_policy(name: str, ruleset_id: str, iterations: int | None = None) -> Bot:
    """The policy `name` plays `ruleset_id` with; a searching one with `iterations` per move
    when given (its difficulty), else its game's own budget."""
    factory = get_ruleset(ruleset_id).bots.get(name) or GENERIC.get(name)
    if factory is None:
        raise UnknownPolicy(f"no bot policy {name!r} for {ruleset_id}; known: {', '.join(policy_names(ruleset_id))}",
                            policy=name)
    bot = factory()
    if iterations is not None:
        if not isinstance(bot, SearchBot):
            raise InvalidInput("iterations", f"the {name} bot does not search: only a searching bot takes iterations")
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise InvalidInput("iterations", f"iterations must be an integer from 1 to {MAX_ITERATIONS}")
        bot = bot.with_iterations(iterations)
    return bot


def check_house_players(ruleset_id: str, players: Mapping[str, object]) -> None:
    """Every house seat names a bot policy that plays this ruleset (InvalidInput naming the seat)."""
    for seat, bot in house_bots(players).items():
        if bot not in policy_names(ruleset_id):
            raise InvalidInput(f"players.{seat}", f"no bot policy {quote(bot)} for {ruleset_id}; "
                               f"known: {', '.join(policy_names(ruleset_id))}")
        if house_iterations(players[seat]) is not None and not get_policy(bot, ruleset_id).searches:
            raise InvalidInput(f"players.{seat}.iterations", f"the {bot} bot does not search: only a searching bot "
                               "takes iterations")
