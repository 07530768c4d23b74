"""A finished ring battle in the viewer: the list, scrubbing with the slider and the keys,
stepping by event, action and turn, jumping to a turn, playing, the perspectives, and the
event log's filter and click-to-seek."""
from __future__ import annotations

import re

from .helpers import open_battle, position, shot, shown


def marks_of(http, battle_id: str) -> dict:
    return http.get(f"/viewer/api/battles/{battle_id}/timeline").json()


def test_the_list_links_to_a_finished_battle(page, server, finished_ring):
    page.goto(f"{server}/viewer/")
    link = page.locator(f'#ended-battles tr[data-battle="{finished_ring}"] a')
    link.wait_for()
    assert "alice (p1) vs bob (p2)" in link.inner_text()
    shot(page, "list")
    link.click()
    page.wait_for_url(re.compile(f"/viewer/battles/{finished_ring}"))
    page.wait_for_selector("#state .view")


def test_the_root_address_opens_the_list_which_links_the_api_docs(page, server):
    page.goto(f"{server}/")
    assert page.url == f"{server}/viewer/"
    links = page.locator("#list-page #api-links a")
    assert links.evaluate_all("links => links.map(a => [a.textContent, a.getAttribute('href')])") == [
        ["API docs", "/docs"], ["OpenAPI schema", "/openapi.json"]]
    assert links.nth(0).is_visible() and links.nth(1).is_visible()
    for link in ("/docs", "/openapi.json"):
        assert page.request.get(f"{server}{link}").status == 200
    page.click("text=OpenAPI schema")
    page.wait_for_url(f"{server}/openapi.json")
    assert '"openapi"' in page.content()


def test_scrub_step_jump_and_play(page, server, http, finished_ring):
    marks = marks_of(http, finished_ring)
    last = marks["seq"]
    open_battle(page, server, finished_ring)
    shown(page, last)                                   # a finished battle opens at its end
    assert page.locator(".outcome").inner_text().startswith("Winner")
    shot(page, "ring-finished")

    slider = page.locator("#scrubber")
    box = slider.bounding_box()
    slider.click(position={"x": box["width"] / 3, "y": box["height"] / 2})
    seq = position(page)[0]
    assert last * 0.25 < seq < last * 0.42
    shown(page, seq)

    page.keyboard.press("ArrowRight")
    shown(page, seq + 1)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    shown(page, seq - 1)
    action = min(a for a in marks["actions"] if a > seq - 1)
    page.keyboard.press("Shift+ArrowRight")
    shown(page, action)
    turn = min(t["seq"] for t in marks["turns"] if t["seq"] > action)
    page.keyboard.press("ArrowDown")
    shown(page, turn)
    page.keyboard.press("ArrowUp")
    shown(page, max(t["seq"] for t in marks["turns"] if t["seq"] < turn))

    page.click("button[data-step=action][data-dir='-1']")
    before = position(page)[0]
    assert before == max(a for a in marks["actions"] if a < max(t["seq"] for t in marks["turns"] if t["seq"] < turn))
    page.click("button[data-step=turn][data-dir='1']")
    shown(page, min(t["seq"] for t in marks["turns"] if t["seq"] > before))

    fifth = next(t["seq"] for t in marks["turns"] if t["turn"] == 5)
    page.fill("#jump-turn", "5")
    page.press("#jump-turn", "Enter")
    shown(page, fifth)
    assert "turn 5 of" in page.locator("#position").inner_text()

    page.select_option("#speed", "16")
    page.keyboard.press("Escape")
    page.keyboard.press(" ")                            # play
    page.wait_for_function("s => Number(document.querySelector('#state').dataset.seq) >= s", arg=fifth + 4)
    page.keyboard.press(" ")                            # pause
    assert page.locator("#play").get_attribute("aria-pressed") == "false"
    stopped = position(page)[0]
    page.wait_for_timeout(300)
    assert position(page)[0] == stopped > fifth
    page.keyboard.press("Home")                         # seq 1: the game has not started yet
    page.wait_for_selector('#state[data-seq="1"] .empty-state')
    assert position(page)[0] == 1


def items(page, seat: str) -> tuple[int, list[str]]:
    """(face-down stacks, face-up card names) of a seat's inventory as shown."""
    pile = page.locator(f'.side[data-seat="{seat}"] [data-pile="items"]')
    return pile.locator(".card.back").count(), pile.locator(".card.face").all_inner_texts()


def test_perspectives_of_a_finished_battle(page, server, http, finished_ring):
    marks = marks_of(http, finished_ring)
    assert marks["perspectives"] == ["spectator", "p1", "p2", "all"]
    first_turn = marks["turns"][0]["seq"]
    open_battle(page, server, finished_ring, f"?seq={first_turn}")
    shown(page, first_turn)
    assert page.locator("#perspective option:disabled").count() == 0
    assert items(page, "p1") == (1, []) and items(page, "p2") == (1, [])

    page.select_option("#perspective", "p1")
    page.wait_for_selector('.side[data-seat="p1"] [data-pile="items"] .card.face')
    assert items(page, "p1") == (0, ["Fire Bomb", "Potion", "Ether", "War Horn"])
    assert items(page, "p2")[0] == 1
    page.wait_for_url(re.compile(f"as=p1&seq={first_turn}"))

    page.select_option("#perspective", "p2")
    page.wait_for_selector('.side[data-seat="p2"] [data-pile="items"] .card.face')
    assert items(page, "p1") == (1, []) and "Hi Potion" in items(page, "p2")[1]

    page.select_option("#perspective", "all")
    page.wait_for_selector('.side[data-seat="p1"] [data-pile="items"] .card.face')
    assert items(page, "p2")[0] == 0
    shot(page, "ring-omniscient")

    page.select_option("#perspective", "spectator")
    page.wait_for_selector('.side[data-seat="p1"] [data-pile="items"] .card.back')
    assert "Fire Bomb" not in page.locator("#state").inner_text()


def test_event_log_filter_and_click_to_seek(page, server, http, finished_ring):
    marks = marks_of(http, finished_ring)
    open_battle(page, server, finished_ring)
    page.fill("#log-filter", "AbilityUsed")
    rows = page.locator("#log-list li:not([hidden])")
    types = rows.evaluate_all("rows => rows.map(r => r.dataset.type)")
    assert types and all("AbilityUsed" in t for t in types)
    assert page.locator("#log-count").inner_text() == f"{len(types)} of {marks['seq']}"

    row = rows.nth(3)
    seq = int(row.get_attribute("data-seq"))
    row.click()
    shown(page, seq)
    assert "current" in row.get_attribute("class")
    assert page.locator("#event-detail").inner_text().startswith(f"#{seq} ")

    page.fill("#log-filter", "")
    page.check("#log-actions")
    assert rows.count() == len(marks["actions"])
    assert rows.evaluate_all("rows => rows.every(r => r.classList.contains('action'))")
    shot(page, "ring-log-filter")
