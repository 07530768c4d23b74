"""Each game's place in the viewer is one module, games/<ruleset id>.js (with its stylesheet
beside it), found by the ruleset id: the shared code names no game, and a ruleset without a
module is drawn by the generic panel."""
from __future__ import annotations

import re

from api.routes.viewer import ASSETS
from domain.engine.ruleset import all_rulesets

LOAD = """async (ids) => {
  const { hintsFor, loadGame } = await import("/viewer/assets/games.js");
  const found = await Promise.all(ids.map((id) => loadGame(id)));
  return { loaded: found.map((game) => game !== null), hints: ids.map((id) => Object.keys(hintsFor(id)).sort()),
    sheets: [...document.querySelectorAll("link[rel=stylesheet]")].map((l) => new URL(l.href).pathname) };
}"""
DRAW = """async (view) => {
  const { loadGame, hintsFor } = await import("/viewer/assets/games.js");
  const { renderView } = await import("/viewer/assets/render.js");
  await loadGame(view.ruleset);
  document.querySelector("#list-page").replaceChildren(renderView(view, hintsFor(view.ruleset)));
  return document.querySelector("#list-page .view").className;
}"""


def test_the_shared_viewer_code_names_no_game():
    shared = [path for path in ASSETS.iterdir() if path.is_file()]
    names = re.compile(r"\b(" + "|".join(map(re.escape, all_rulesets())) + r")\b")
    assert len(shared) > 10
    for path in shared:
        assert not names.search(path.read_text()), f"{path.name}: {names.search(path.read_text())[0]}"
    assert {path.stem for path in (ASSETS / "games").glob("*.js")} == set(all_rulesets())


def test_a_game_is_loaded_by_its_ruleset_id_with_its_style(page, server):
    page.goto(f"{server}/viewer/")
    found = page.evaluate(LOAD, ["ring", "deckduel", "no_such_game", "../api"])
    assert found["loaded"] == [True, True, False, False]
    assert found["hints"] == [["groups", "labels", "order", "outOf", "secretIf"], ["labels", "order"], [], []]
    assert found["sheets"] == ["/viewer/assets/viewer.css", "/viewer/assets/games/ring.css"]
    # loaded once: asking again adds no second stylesheet
    assert page.evaluate(LOAD, ["ring"])["sheets"] == found["sheets"]


def test_a_game_panel_draws_only_the_shape_it_knows(page, server):
    page.goto(f"{server}/viewer/")
    view = {"battle_id": "b", "ruleset": "rat", "seq": 3, "players": {"p1": "ann"},
            "outcome": {"winner": "p1", "reason": "knockout"}, "state": {"turn": 1, "hp": 3, "max_hp": 5}}
    # a rat view without the party and enemies rat's panel draws: the generic panel, same headline
    assert page.evaluate(DRAW, view) == "view"
    assert page.locator("#list-page .outcome").inner_text() == "Winner: p1 · ann (knockout)"
