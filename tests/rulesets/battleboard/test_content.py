"""Content is data: every id the TOML names resolves to registered behaviour or to other content,
every registered behaviour is used by some content, and the content covers what seed 002 names
(the four basic actions, the ten effect tokens, the three armors, every terrain type)."""
from __future__ import annotations

import re

import pytest

from domain.rulesets.battleboard.steps import STEPS
from domain.rulesets.battleboard.attack import parse_dice
from domain.rulesets.battleboard.build import UPGRADES
from domain.rulesets.battleboard.content import (CONTENT, KINDS, MOVEMENT, PATTERNS, RANKS, STATS, TARGETS,
                                                 TERRAIN)
from domain.rulesets.battleboard.hooks import HOOKS
from domain.rulesets.battleboard.setup import parse_setup
from domain.rulesets.battleboard.state import Params

ACTIONS = CONTENT.actions
STEPS_OF = [(a, step) for a in ACTIONS.values() for step in a.steps]
STANCES = {step.stance for _, step in STEPS_OF if step.do == "stance"}


# -- Actions ----------------------------------------------------------------------------------

@pytest.mark.parametrize("action", ACTIONS.values(), ids=lambda a: a.id)
def test_every_action_has_a_known_kind_pattern_and_target(action):
    assert action.kind in KINDS
    assert action.pattern in PATTERNS
    assert action.target in TARGETS
    assert action.range >= 0 and action.energy >= 0 and action.focus >= 0


@pytest.mark.parametrize("action", ACTIONS.values(), ids=lambda a: a.id)
def test_every_dice_expression_parses(action):
    if action.dice is None:
        assert action.target != "enemy" and action.effects == (), f"{action.id}: effects without an attack"
        assert action.pattern == "single", f"{action.id}: a pattern without an attack"
        return
    count, times, _ = parse_dice(action.dice)
    assert count >= 1 and times >= 1
    assert action.target == "enemy", f"{action.id}: attacks are made on enemies"


@pytest.mark.parametrize("action", ACTIONS.values(), ids=lambda a: a.id)
def test_guard_and_move_actions_never_attack(action):
    # seed 002, Actions: attacks come from attack and tactics actions; guard actions never include attacks
    if action.kind in ("guard", "move"):
        assert action.dice is None, action.id


@pytest.mark.parametrize("action", [a for a in ACTIONS.values() if a.target != "self" and a.pattern != "path"],
                         ids=lambda a: a.id)
def test_every_action_text_gives_the_reach_the_rules_allow(action):
    # given an aimed action: its target (or its line, wave or burst) is within `range` of an origin
    # when its text states the reach
    # then it counts from where seed 002, Patterns, puts the origin: "The origin of the attack
    # must be adjacent to or on the combatant's Movement Path"; range 0 is a cell on or next to it
    if action.range == 0:
        assert "on or next to your path" in action.text or "in melee" in action.text, action.text
    else:
        assert f"within {action.range} of a cell on or next to your path" in action.text, action.text


def test_no_content_text_counts_the_reach_from_the_path_itself():
    # "within 2 of your path" would be one short: an origin next to the path adds one
    texts = [t.text for table in (ACTIONS, CONTENT.weapons, CONTENT.foes, CONTENT.upgrades) for t in table.values()]
    assert [t for t in texts if re.search(r"within \d+ of (your|its) path", t)] == []


@pytest.mark.parametrize("action", ACTIONS.values(), ids=lambda a: a.id)
def test_every_effect_an_action_gives_is_a_token(action):
    for token in action.effects:
        assert token in CONTENT.tokens, f"{action.id}: unknown token {token!r}"


@pytest.mark.parametrize(("action", "step"), STEPS_OF, ids=lambda x: getattr(x, "id", None) or getattr(x, "do", ""))
def test_every_step_names_a_registered_step_and_what_it_needs(action, step):
    assert step.do in STEPS, f"{action.id}: step {step.do!r} has no handler"
    if step.do == "give":
        assert step.token in CONTENT.tokens, f"{action.id}: gives unknown token {step.token!r}"
    if step.do == "special":
        assert step.movement in MOVEMENT, f"{action.id}: unknown movement {step.movement!r}"
    if step.do == "stance":
        assert step.stance in HOOKS.kinds, f"{action.id}: stance {step.stance!r} has no hook"
    if step.do in ("untap", "restore", "movement", "teleport", "focus", "energy", "cleanse"):
        assert step.amount > 0, f"{action.id}: {step.do} of {step.amount}"


def test_the_basic_actions_are_the_seeds_four():
    assert CONTENT.basic == ("strike", "aid", "recover", "reposition")


# -- What names actions -----------------------------------------------------------------------

@pytest.mark.parametrize("archetype", CONTENT.archetypes.values(), ids=lambda a: a.id)
def test_every_archetype_has_real_powers_and_ten_of_its_own_upgrades(archetype):
    assert archetype.powers and all(p in ACTIONS for p in archetype.powers), archetype.id
    assert len(archetype.upgrades) == 10 and len(set(archetype.upgrades)) == 10
    assert all(u in CONTENT.upgrades for u in archetype.upgrades), archetype.id


def test_every_upgrade_belongs_to_exactly_one_archetype():
    owners = [u for a in CONTENT.archetypes.values() for u in a.upgrades]
    assert sorted(owners) == sorted(CONTENT.upgrades)


@pytest.mark.parametrize("upgrade", CONTENT.upgrades.values(), ids=lambda u: u.id)
def test_every_upgrade_effect_is_registered_and_names_what_it_needs(upgrade):
    assert upgrade.effect in UPGRADES, f"{upgrade.id}: effect {upgrade.effect!r} has no handler"
    if upgrade.effect == "action":
        assert upgrade.action in ACTIONS, upgrade.id
    if upgrade.effect == "stat":
        assert upgrade.stat in STATS and upgrade.amount > 0, upgrade.id
    if upgrade.effect == "movement":
        assert upgrade.movement in MOVEMENT, upgrade.id
    if upgrade.effect == "teleport":
        assert upgrade.amount > 0, upgrade.id


@pytest.mark.parametrize("weapon", CONTENT.weapons.values(), ids=lambda w: w.id)
def test_every_weapon_has_a_slot_and_real_actions(weapon):
    assert weapon.slot in ("primary", "secondary")
    assert weapon.actions and all(a in ACTIONS for a in weapon.actions), weapon.id


def test_the_armors_are_the_seeds_three():
    assert {a: (x.speed, x.evasion, x.defense) for a, x in CONTENT.armor.items()} == {
        "light": (0, 1, 0), "medium": (0, 0, 1), "heavy": (-1, 1, 1)}


@pytest.mark.parametrize("foe", CONTENT.foes.values(), ids=lambda f: f.id)
def test_every_foe_resolves(foe):
    assert foe.rank in RANKS
    assert foe.actions and all(a in ACTIONS for a in foe.actions), foe.id
    assert all(m in MOVEMENT for m in foe.movement), foe.id
    assert min(foe.speed, foe.evasion, foe.defense, foe.resilience) >= 1 and foe.teleport >= 0
    # seed 002, Combatants: mobs use neither focus nor energy, elites energy, bosses both
    assert {"mob": (False, False), "elite": (False, True), "boss": (True, True)}[foe.rank] == (foe.focus > 0,
                                                                                               foe.energy > 0)


@pytest.mark.parametrize("foe", CONTENT.foes.values(), ids=lambda f: f.id)
def test_a_foes_costly_actions_are_ones_it_can_pay(foe):
    for action in foe.actions:
        assert ACTIONS[action].energy <= foe.energy and ACTIONS[action].focus <= foe.focus * Params().focus_bank, \
            f"{foe.id} cannot pay for {action}"


# -- Tokens -----------------------------------------------------------------------------------

def test_the_tokens_are_the_seeds_ten():
    assert sorted(CONTENT.tokens) == sorted(["weakened", "confused", "vulnerable", "hobbled", "stunned", "poisoned",
                                             "wounded", "heroic", "lucky", "invigorated"])
    assert {t for t, x in CONTENT.tokens.items() if not x.negative} == {"heroic", "lucky", "invigorated"}


def test_every_negative_token_but_the_immediate_can_be_eliminated():
    """Heroic and Cleanse share one order of the worst first, which names every kept negative token."""
    from domain.rulesets.battleboard.steps import NEGATIVE_ORDER
    kept = {t for t, x in CONTENT.tokens.items() if x.negative and not x.immediate}
    assert set(NEGATIVE_ORDER) == kept


# -- Maps, encounters and presets -------------------------------------------------------------

@pytest.mark.parametrize("board", CONTENT.maps.values(), ids=lambda m: m.id)
def test_every_map_is_6_rows_of_5_legal_cells(board):
    assert len(board.rows) == 6, board.id
    for row in board.rows:
        assert len(row) == 5 and all(c in TERRAIN or c in "123" for c in row), f"{board.id}: {row!r}"


@pytest.mark.parametrize("board", CONTENT.maps.values(), ids=lambda m: m.id)
def test_every_map_has_room_for_a_full_side_in_each_section(board):
    largest = max(4, *(len(e.foes) for e in CONTENT.encounters.values()))      # four hero seats at most
    for rows in (board.rows[:3], board.rows[3:]):
        assert sum(c not in "#c" for row in rows for c in row) >= largest, board.id


def test_the_maps_use_every_terrain_type():
    used = {board.terrain(c, r) for board in CONTENT.maps.values() for r in range(6) for c in range(5)}
    assert used == {*TERRAIN.values(), "elevated"}


@pytest.mark.parametrize("encounter", CONTENT.encounters.values(), ids=lambda e: e.id)
def test_every_encounter_names_real_foes_and_a_map(encounter):
    assert encounter.foes and all(f in CONTENT.foes for f in encounter.foes), encounter.id
    assert encounter.map in CONTENT.maps, encounter.id
    assert parse_setup({"heroes": ["aria"], "encounter": encounter.id}).foes == encounter.foes


@pytest.mark.parametrize("preset", CONTENT.presets.values(), ids=lambda p: p.id)
def test_every_preset_builds(preset):
    parsed = parse_setup({"heroes": [preset.id], "encounter": "goblin_ambush"})
    assert (parsed.heroes[0].cls, parsed.heroes[0].armor, parsed.heroes[0].upgrades) == (
        preset.cls, preset.armor, preset.upgrades)


# -- Every registered behaviour is used -------------------------------------------------------

def test_every_registered_step_is_used_by_some_action():
    assert set(STEPS) == {step.do for _, step in STEPS_OF}


def test_every_stance_hook_is_used_by_some_action():
    assert HOOKS.kinds == STANCES


def test_every_upgrade_effect_is_used_by_some_upgrade():
    assert set(UPGRADES) == {u.effect for u in CONTENT.upgrades.values()}


def test_every_pattern_target_and_kind_is_used():
    assert {a.pattern for a in ACTIONS.values()} == set(PATTERNS)
    assert {a.target for a in ACTIONS.values()} == set(TARGETS)
    assert {a.kind for a in ACTIONS.values()} == set(KINDS)


def test_every_movement_type_is_given_by_something():
    given = {step.movement for _, step in STEPS_OF if step.do == "special"}
    given |= {u.movement for u in CONTENT.upgrades.values() if u.effect == "movement"}
    given |= {m for f in CONTENT.foes.values() for m in f.movement}
    assert given == set(MOVEMENT)


def test_every_token_is_given_by_something():
    given = {t for a in ACTIONS.values() for t in a.effects}
    given |= {step.token for _, step in STEPS_OF if step.do == "give"}
    assert given == set(CONTENT.tokens)


def test_every_action_is_reachable():
    named = set(CONTENT.basic)
    named |= {p for a in CONTENT.archetypes.values() for p in a.powers}
    named |= {u.action for u in CONTENT.upgrades.values() if u.action}
    named |= {a for w in CONTENT.weapons.values() for a in w.actions}
    named |= {a for f in CONTENT.foes.values() for a in f.actions}
    assert named == set(ACTIONS)
