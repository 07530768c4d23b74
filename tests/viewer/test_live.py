"""A running ring battle in the viewer: the other seat's secrets (its inventory, its locked
team pick) never reach the page before the end, live mode follows the commands posted here,
and the omniscient view opens only once the battle has ended."""
from __future__ import annotations

import random
import re

from ..api.helpers import auth, create, step
from .helpers import PLAYERS, open_battle, position, shot, shown

# Items only one side's preset packs (p1 ember_rush, p2 iron_wall): the page of anyone but
# their owner must not hold them until they are used or the battle ends.
OWN_ITEMS = {"p1": ["fire_bomb", "ether", "war_horn"], "p2": ["hi_potion", "ward_charm", "smelling_salts"]}
SHORT = {"params": {"max_turns": 4}, "p1": {"deck": "ember_rush"}, "p2": {"deck": "iron_wall"}}


def lock_one_team(http, battle: dict, rng: random.Random) -> tuple[str, dict, int]:
    """Play until a seat may pick its team, and lock it: (that seat, its pick, the lock's seq)."""
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    for _ in range(20):
        for seat, token in tokens.items():
            picks = [c for c in http.get(f"/battles/{bid}/legal", headers=auth(token)).json()["legal"]
                     if c["type"] == "pick_team"]
            if picks:
                answer = http.post(f"/battles/{bid}/commands", headers=auth(token), json={"command": picks[0]})
                assert answer.status_code == 200, answer.text
                assert "engine.ChoicesRevealed" not in [e["type"] for e in answer.json()["events"]]
                return seat, picks[0], answer.json()["seq"]
        step(http, battle, rng)
    raise AssertionError("no team pick came up")


def assert_no_secrets_of(page, seats: list[str], pick: dict | None, locker: str, lock_seq: int) -> None:
    content = page.content()
    for seat in seats:
        for item in OWN_ITEMS[seat]:
            assert item not in content and item.replace("_", " ").title() not in content, (seat, item)
    if pick is not None:
        units = ", ".join(pick["units"])
        assert units not in content and str(pick["units"]) not in content
        row = page.locator(f'#log-list li[data-seq="{lock_seq}"]').inner_text()
        assert "choice: hidden" in row and pick["units"][0] not in row
        assert page.locator(f'.side[data-seat="{locker}"] [data-pile="pick"] .card.face').count() == 0


def test_the_other_seats_secrets_never_reach_the_page(page, server, http):
    battle = create(http, "ring", PLAYERS)
    locker, pick, lock_seq = lock_one_team(http, battle, random.Random(3))
    viewer = "p1" if locker == "p2" else "p2"

    open_battle(page, server, battle["battle_id"], token=battle["seat_tokens"][viewer])
    shown(page, lock_seq)
    assert page.locator("#perspective").input_value() == viewer
    assert page.locator(f'.side[data-seat="{viewer}"] [data-pile="items"] .card.face').count() >= 4
    assert_no_secrets_of(page, [locker], pick, locker, lock_seq)
    page.locator(f'#log-list li[data-seq="{lock_seq}"]').click()
    assert '"choice": null' in page.locator("#event-detail").inner_text()
    shot(page, f"ring-live-as-{viewer}")

    page.select_option("#perspective", "spectator")
    page.wait_for_selector(f'.side[data-seat="{viewer}"] [data-pile="items"] .card.back')
    shown(page, lock_seq)
    assert_no_secrets_of(page, ["p1", "p2"], pick, locker, lock_seq)
    shot(page, "ring-live-spectator")


def test_live_mode_follows_the_battle_to_its_end(page, server, http):
    battle = create(http, "ring", PLAYERS, setup=SHORT)
    bid = battle["battle_id"]
    open_battle(page, server, bid)
    assert page.locator("#status-badge").inner_text() == "live"
    assert page.locator("#follow").inner_text() == "● Following live"
    disabled = page.locator("#perspective option:disabled").evaluate_all("options => options.map(o => o.value)")
    assert disabled == ["p1", "p2", "all"]

    rng = random.Random(5)
    for _ in range(6):
        step(http, battle, rng)
    head = http.get(f"/battles/{bid}").json()["seq"]
    shown(page, head)
    assert position(page) == (head, head)
    assert page.locator("#log-count").inner_text() == f"{head} events"
    assert_no_secrets_of(page, ["p1", "p2"], None, "p1", 0)
    shot(page, "ring-live-following")

    while step(http, battle, rng) is not None:
        pass
    final = http.get(f"/battles/{bid}").json()["seq"]
    page.wait_for_selector("#status-badge.ended")
    shown(page, final)
    assert page.locator(".outcome").count() == 1
    assert page.locator("#perspective option:disabled").count() == 0
    page.select_option("#perspective", "all")
    page.wait_for_function("() => document.querySelector('#state .view') && "
                           "!document.querySelector('[data-pile=items] .card.back')")
    shot(page, "ring-live-ended-omniscient")


def test_live_mode_resumes_from_its_next_seq_after_a_4408(page, server, http):
    """The server closes a reader that fell too far behind with 4408: the page reconnects at
    once from the next seq it lacks, and ends up with every event once."""
    battle = create(http, "ring", PLAYERS, setup=SHORT)
    bid = battle["battle_id"]
    opened: list[str] = []

    def route(ws) -> None:
        opened.append(ws.url)
        upstream = ws.connect_to_server()
        if len(opened) > 1:
            return                          # later connections pass everything through

        def first_frame_then_drop(message) -> None:
            ws.send(message)
            ws.close(code=4408, reason="too far behind; reconnect with from=?")
            upstream.close()
        upstream.on_message(first_frame_then_drop)

    page.route_web_socket(re.compile(r"/stream\?"), route)
    open_battle(page, server, bid)
    head = http.get(f"/battles/{bid}").json()["seq"]
    rng = random.Random(5)
    first = step(http, battle, rng)
    page.wait_for_function("n => document.querySelectorAll('#log-list li').length >= n", arg=first["seq"])
    for _ in range(3):
        step(http, battle, rng)
    final = http.get(f"/battles/{bid}").json()["seq"]
    shown(page, final)
    assert page.locator("#log-count").inner_text() == f"{final} events"
    seqs = [int(s) for s in page.locator("#log-list li").evaluate_all("items => items.map(i => i.dataset.seq)")]
    assert seqs == list(range(1, final + 1))
    assert [int(re.search(r"from=(\d+)", url)[1]) for url in opened] == [head + 1, first["seq"] + 1]
