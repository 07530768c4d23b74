"""The state panel renders any ruleset's view, here a made-up board game's: a grid, entities
with bars, statuses with severity on the unit they belong to, and hands as cards or as a
face-down count."""
from __future__ import annotations

from .helpers import shot

KNIGHT = {"name": "Knight", "hp": 5, "max_hp": 8, "mp": 2, "max_mp": 4, "stunned": True}
ARCHER = {"name": "Archer", "hp": 6, "max_hp": 6}
VIEW = {
    "battle_id": "b", "ruleset": "boardgame", "seq": 12, "players": {"p1": "ann", "p2": "bob"}, "outcome": None,
    "state": {
        "turn_number": 2, "active": "p1", "awaiting": ["p1"],
        "board": [[None, KNIGHT, None], ["rock", None, ARCHER]],
        "effects": [{"id": "e1", "kind": "poison", "unit": "k1", "severity": 4, "active": True},
                    {"id": "e2", "kind": "fog", "severity": 1, "active": False}],
        "seats": {
            "p1": {"hand": None, "hand_count": 3, "deck_count": 10, "units": {"k1": KNIGHT}},
            "p2": {"hand": ["fire_ball", "heal"], "hand_count": 2, "deck_count": 9, "units": {"a1": ARCHER}},
        },
    },
}
RENDER = """async (view) => {
  const { renderView } = await import("/viewer/assets/render.js");
  document.querySelector("#list-page").replaceChildren(renderView(view, {}));
}"""


def test_a_board_ruleset_renders_generically(page, server):
    page.goto(f"{server}/viewer/")
    page.evaluate(RENDER, VIEW)
    assert page.locator(".grid .cell").count() == 6
    assert page.locator(".grid .cell.unit").all_inner_texts()[0].startswith("Knight")
    knight = page.locator('.side[data-seat="p1"] .entity[data-key="k1"]')
    assert knight.locator(".bar").count() == 2 and "is-stunned" in knight.get_attribute("class")
    poison = knight.locator(".status")
    assert poison.locator(".status-name").inner_text() == "Poison" and poison.locator(".sev").inner_text() == "4"
    fog = page.locator(".statuses.global .status")
    assert "inactive" in fog.get_attribute("class")
    mine = page.locator('.side[data-seat="p1"] [data-pile="hand"]')
    assert mine.locator(".card.face").count() == 0 and "×3" in mine.locator(".card.back").inner_text()
    theirs = page.locator('.side[data-seat="p2"] [data-pile="hand"] .card.face').all_inner_texts()
    assert theirs == ["Fire Ball", "Heal"]
    assert "×9" in page.locator('.side[data-seat="p2"] [data-pile="deck"]').inner_text()
    shot(page, "generic-board")


def test_a_house_seat_shows_its_bot(page, server):
    # given a view whose p2 is played by the house's greedy bot, ended with p2's side winning
    view = {**VIEW, "players": {"p1": "ann", "p2": {"bot": "greedy"}},
            "outcome": {"winner": "p2", "reason": "p1's deck is empty"}}
    page.goto(f"{server}/viewer/")
    page.evaluate(RENDER, view)
    # then the seat names the bot, never "[object Object]"
    assert page.locator('.side[data-seat="p2"] .player-name').inner_text() == "house greedy"
    assert page.locator(".outcome").inner_text() == "Winner: p2 · house greedy (p1's deck is empty)"
