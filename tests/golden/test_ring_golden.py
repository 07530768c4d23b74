"""The ring golden battles: what each pinned log shows, and that each verifies as a replay.
(`test_golden.py` checks that every battle still reproduces its pinned log.)"""
from collections import Counter

import pytest

from domain.engine.choices import ChoiceLocked, ChoicesRevealed
from domain.engine.events import SPECTATOR, Viewer, wire_event
from domain.engine.hooks import EffectTriggered
from domain.rulesets.ring import events as ev
from replays.format import build
from replays.verify import verify

from .ring_playthroughs import BATTLES, greedy_vs_memory, ko_swap_and_strike, ring_set


def scripted_events():
    _, records = ko_swap_and_strike()
    return records, [r.event for r in records]


def test_the_scripted_battle_picks_teams_and_ring_units_in_secret():
    records, events = scripted_events()
    locks = [r for r in records if isinstance(r.event, ChoiceLocked)]
    assert [(r.event.seat, r.event.kind) for r in locks] == [
        ("p1", "pick_team"), ("p2", "pick_team"), ("p1", "pick_ring"), ("p2", "pick_ring")]
    for rec in locks:
        other = Viewer(seat="p2" if rec.event.seat == "p1" else "p1")
        # While the battle runs, only the picking seat sees its pick.
        assert wire_event(rec, Viewer(seat=rec.event.seat), False)["data"]["choice"] == rec.event.choice
        assert wire_event(rec, other, False)["data"]["choice"] is None
        assert wire_event(rec, SPECTATOR, False)["data"]["choice"] is None
    # Each pick is revealed in the batch of the second lock, right after it.
    revealed = [(r.seq, r.event.kind, r.event.choices) for r in records if isinstance(r.event, ChoicesRevealed)]
    assert revealed == [
        (locks[1].seq + 1, "pick_team", {"p1": {"units": ["fang_shrike", "needle_hawk"]},
                                         "p2": {"units": ["mirror_imp", "shadow_cat"]}}),
        (locks[3].seq + 1, "pick_ring", {"p1": {"unit": "fang_shrike"}, "p2": {"unit": "mirror_imp"}})]
    # The Unit Dynamics the teams bring come into play between the two picks.
    added = [e for e in events[locks[1].seq:locks[2].seq] if isinstance(e, ev.DynamicAdded)]
    assert [(e.kind, e.unit) for e in added if e.source == "unit"] == [
        ("brutality", "p1.fang_shrike"), ("keen_eye", "p1.needle_hawk"),
        ("shadow", "p2.mirror_imp"), ("shadow", "p2.shadow_cat")]


def test_the_scripted_battle_rolls_effectiveness_and_triggers_dynamics():
    _, events = scripted_events()
    assert [(e.ability, e.effectiveness) for e in events if isinstance(e, ev.EffectivenessRolled)] == [
        ("umbral_strike", "critical"), ("heavy_slap", "normal"), ("heavy_slap", "normal"),
        ("umbral_strike", "critical"), ("gust_strike", "critical"), ("heavy_slap", "normal"),
        ("heavy_slap", "normal"), ("potion", "normal"), ("umbral_strike", "critical"), ("heavy_slap", "normal"),
        ("war_horn", "normal")]
    # Keen Eye (leader and needle hawk) on every p1 roll but the items', Brutality twice on each slap, the
    # volcano at each turn start of a standing Ring unit, Tailwind on Gale's AP, Quick Hands
    # on her paid swap, and the imp's Shadow (two once the first critical adds a second).
    assert Counter((e.kind, e.on) for e in events if isinstance(e, EffectTriggered)) == {
        ("keen_eye", "Odds"): 10, ("brutality", "ring.HpReduced"): 10, ("scorched_earth", "ring.TurnStarted"): 6,
        ("shadow", "ring.HpReduced"): 5, ("tailwind", "ApRestore"): 5, ("quick_hands", "SwapCost"): 1}
    shadows = [(e.unit, e.amount) for e in events if isinstance(e, ev.HpReduced) and e.kind == "shadow"]
    assert shadows == [("p1.fang_shrike", 2), ("p1.fang_shrike", 2), ("p1.fang_shrike", 1),
                       ("p1.fang_shrike", 2), ("p1.fang_shrike", 3)]


def test_the_scripted_battle_swaps_knocks_out_and_strikes_the_leader():
    state, records = ko_swap_and_strike()
    events = [r.event for r in records]
    assert [(e.seat, e.unit, e.out, e.cost) for e in events if isinstance(e, ev.UnitSwapped)] == [
        ("p2", "shadow_cat", "p2.mirror_imp", 2),           # Quick Hands: 3 AP less 1
        ("p2", "mirror_imp", "p2.shadow_cat", 0),           # forced, so free
        ("p1", "needle_hawk", "p1.fang_shrike", 0)]
    # A forced swap is the only thing the seat can do, and the next thing it does.
    required = [i for i, e in enumerate(events) if isinstance(e, ev.SwapRequired)]
    assert [(events[i].seat, events[i].unit) for i in required] == [("p2", "p2.shadow_cat"), ("p1", "p1.fang_shrike")]
    assert all(isinstance(events[i + 1], ev.UnitSwapped) and events[i + 1].cost == 0 for i in required)
    fates = (ev.UnitKnockedOut, ev.LpLost, ev.UnitRevived, ev.UnitRemoved)
    assert [(type(e).__name__, e.unit) for e in events if isinstance(e, fates)] == [
        ("UnitKnockedOut", "p2.shadow_cat"), ("LpLost", "p2.shadow_cat"),
        ("UnitKnockedOut", "p2.mirror_imp"), ("LpLost", "p2.mirror_imp"),
        ("UnitRevived", "p2.mirror_imp"),                   # the Potion
        ("UnitKnockedOut", "p2.mirror_imp"), ("LpLost", "p2.mirror_imp"), ("UnitRemoved", "p2.mirror_imp"),
        ("UnitKnockedOut", "p1.fang_shrike"), ("LpLost", "p1.fang_shrike")]     # the volcano
    # Each strike converts AP 1:1 into leader damage; the five take all of Gale's 27 HP
    # (4 + 4 + 8 + 10 + 1 = 27).
    struck = [i for i, e in enumerate(events) if isinstance(e, ev.LeaderStruck)]
    assert [events[i].ap for i in struck] == [4, 4, 8, 10, 1]
    for i in struck:
        assert events[i + 1] == ev.ApSpent(seat="p1", amount=events[i].ap)
        assert events[i + 2] == ev.LeaderHpReduced(seat="p2", amount=events[i].ap, by="p1")
    game = state.game
    assert (game.p2.leader_hp, game.p1.leader_hp, game.turn) == (0, 22, 10)
    assert [(k, game.units[k].lp, game.units[k].removed) for k in game.p2.team] == [
        ("p2.mirror_imp", 0, True), ("p2.shadow_cat", 2, False)]
    assert (state.outcome.winner, state.outcome.reason, len(records)) == ("p1", "p2's leader is down", 181)


def test_an_item_always_rolls_normal():
    _, events = scripted_events()
    rolls = [events[i + 1:] for i, e in enumerate(events) if isinstance(e, ev.ItemUsed)]
    rolled = [next(e for e in after if isinstance(e, ev.EffectivenessRolled)) for after in rolls]
    assert [(e.ability, e.effectiveness, e.chances) for e in rolled] == [
        ("potion", "normal", (0, 10_000, 0)), ("war_horn", "normal", (0, 10_000, 0))]


def test_the_bot_battle_runs_from_the_battlefield_choice_to_a_fallen_leader():
    state, records = greedy_vs_memory()
    events = [r.event for r in records]
    rolled = next(e for e in events if isinstance(e, ev.InitiativeRolled))
    assert (rolled.winner, rolled.advantage) == ("p1", "battlefield")
    # Ignis's advantage: the winner chooses the battlefield (nothing fixes it in the setup).
    assert [(e.seat, e.battlefield) for e in events if isinstance(e, ev.BattlefieldChosen)] == [("p1", "volcano_rim")]
    teams = next(e for e in events if isinstance(e, ChoicesRevealed))
    assert teams.choices == {"p1": {"units": ["fang_shrike", "grizzlor", "iron_boar", "sunflare_drake"]},
                             "p2": {"units": ["bastion_golem", "grizzlor", "iron_boar", "shellback"]}}
    # Ironhelm's Soul Anchor cancels the LP loss of p2's first KO, then drops to severity 1.
    anchored = [i for i, e in enumerate(events) if isinstance(e, EffectTriggered) and e.kind == "soul_anchor"]
    assert len(anchored) == 1 and events[anchored[0]].cancelled
    assert events[anchored[0] - 1] == ev.UnitKnockedOut(unit="p2.shellback")
    assert events[anchored[0] + 1] == ev.SeverityChanged(id="d3", severity=1, delta=-4)
    assert Counter(e.unit.split(".")[0] for e in events if isinstance(e, ev.LpLost)) == {"p1": 5, "p2": 3}
    assert (state.outcome.winner, state.outcome.reason, state.game.turn, len(records)) == (
        "p2", "p1's leader is down", 38, 1049)


def units_as_built(records, seat):
    built = next(r.event for r in records if isinstance(r.event, ev.DeckBuilt) and r.event.seat == seat)
    return {f["unit"]: f for f in built.fighters}


def test_the_set_carries_lp_and_exs_from_battle_to_battle():
    first, second, third = ring_set()
    assert [b.state.outcome.winner for b in (first, second, third)] == ["p2", "p1", "p1"]
    teams = [{s: sorted(b.state.game.units[k].unit for k in b.state.game.side(s).team) for s in ("p1", "p2")}
             for b in (first, second, third)]
    assert teams == [{"p1": ["iron_boar", "sunflare_drake"], "p2": ["bastion_golem", "shellback"]},
                     {"p1": ["fang_shrike", "grizzlor"], "p2": ["lantern_spirit", "salamander"]},
                     {"p1": ["iron_boar", "sunflare_drake"], "p2": ["coral_sentinel", "iron_boar"]}]
    # Battle 1: participants gain 1500 EXS; p1 lost, and each of its two lost an LP (3 -> 2);
    # p2 won, but its units are at their max LP (shellback's 4, the golem's 3), so the win
    # adds none; units that sat out at 0 EXS stay at 0.
    assert first.carry["p1"]["iron_boar"] == {"lp": 2, "exs": 1500}
    assert first.carry["p1"]["sunflare_drake"] == {"lp": 2, "exs": 1500}
    assert first.carry["p2"]["shellback"] == {"lp": 4, "exs": 1500}
    assert first.carry["p2"]["bastion_golem"] == {"lp": 3, "exs": 1500}
    assert first.carry["p1"]["fang_shrike"] == {"lp": 3, "exs": 0}
    # Battle 2: the units of battle 1 sit out: 1500 - 1000 = 500; the loser's lantern spirit
    # loses all 3 of its LP and is out for the rest of the set, its salamander one (3 -> 2).
    assert second.carry["p1"]["iron_boar"] == {"lp": 2, "exs": 500}
    assert second.carry["p2"]["shellback"] == {"lp": 4, "exs": 500}
    assert second.carry["p2"]["lantern_spirit"] == {"lp": 0, "exs": 1500}
    assert second.carry["p2"]["salamander"] == {"lp": 2, "exs": 1500}
    assert second.state.game.units["p2.lantern_spirit"].removed
    # Battle 3: p1 wins with the boar and the drake, which win their LP back (2 -> 3) and gain
    # 500 + 1500 = 2000 EXS; sitting out again takes the shellback's 500 to 0, not below; the
    # lantern spirit stays out, at 0 LP, and sits out: 1500 - 1000 = 500.
    assert third.carry["p1"]["iron_boar"] == {"lp": 3, "exs": 2000}
    assert third.carry["p1"]["sunflare_drake"] == {"lp": 3, "exs": 2000}
    assert third.carry["p2"]["shellback"] == {"lp": 4, "exs": 0}
    assert third.carry["p2"]["lantern_spirit"] == {"lp": 0, "exs": 500}
    assert "p2.lantern_spirit" not in third.state.game.side("p2").team


@pytest.mark.parametrize("index", [1, 2])
def test_each_set_battle_starts_from_the_carry_before_it(index):
    before, battle = ring_set()[index - 1], ring_set()[index]
    for seat in ("p1", "p2"):
        assert battle.setup[seat]["condition"] == before.carry[seat]
        built = units_as_built(battle.records, seat)
        assert {u: {"lp": f["lp"], "exs": f["exs"]} for u, f in built.items()} == before.carry[seat]


def test_exhaustion_and_lost_lp_show_in_the_decks_as_built():
    first, second, third = ring_set()
    assert units_as_built(first.records, "p1")["sunflare_drake"]["max_hp"] == 156
    # EXS lowers max HP: 1500 bp off the drake's 156 is 132.6 -> 132, with the LP it lost in battle 1.
    drake = units_as_built(second.records, "p1")["sunflare_drake"]
    assert (drake["max_hp"], drake["hp"], drake["lp"], drake["exs"]) == (132, 132, 2, 1500)
    # 1500 bp off grizzlor's 180 is 153; 500 bp off the drake's 156 is 148.2 -> 148.
    p1 = units_as_built(third.records, "p1")
    assert [(p1[u]["max_hp"], p1[u]["exs"]) for u in ("grizzlor", "sunflare_drake")] == [(153, 1500), (148, 500)]


@pytest.mark.parametrize("name", list(BATTLES))
def test_a_ring_golden_battle_verifies_as_a_replay(name):
    state, records = BATTLES[name]()
    report = verify(build(state, records))
    assert (report.status, report.reason, report.winner) == ("ok", None, state.outcome.winner)
    assert report.winner in ("p1", "p2")
