"""Disarm lands, and its events (holding the unit's pools as `PoolSlot` structs) go through
every channel: the hash chain, the store, the wire and back through the typed decode.

A landed Disarm once failed the command that made it (HTTP 500): the chain encoder handed
orjson the event's fields one level deep, and orjson cannot write a struct.
"""
from __future__ import annotations

import uuid

import orjson

from domain.engine.chain import GENESIS, canonical_event, chain_events, chain_of
from domain.engine.events import OMNISCIENT, Recorded, decode_record, wire_event
from domain.rulesets.ring.commands import EndTurn, UseAbility
from domain.rulesets.ring.content import DeckUnit
from domain.rulesets.ring.events import EquipmentDisabled, EquipmentRestored
from domain.rulesets.ring.roster import build_fighter
from domain.rulesets.ring.state import Params, PoolSlot
from domain.store import BattleMapper, StoredRecord
from tests.api.helpers import auth, create

from .build import MID, of, ring, run, unit

# grizzlor's own pools (brawler 3, warden 2, mender 1); an Iron Plate adds none
GRIZZLOR_POOLS = (PoolSlot("brawler", 3), PoolSlot("warden", 2), PoolSlot("mender", 1))


def plated_grizzlor_facing_a_disarm():
    """p1's grizzlor can Disarm; p2's grizzlor in the Ring wears an Iron Plate."""
    plated = build_fighter("p2", DeckUnit(unit="grizzlor", equipment="iron_plate"), Params())
    return ring([unit("p1", "grizzlor", abilities=("disarm",))], [plated])


def chained(events) -> list[Recorded]:
    out: list[Recorded] = []
    chain_events(GENESIS, 0, events, out)
    return out


def test_a_landed_disarm_records_the_pools_left_and_its_batch_chains():
    given = plated_grizzlor_facing_a_disarm()
    events, then = run(given, "p1", UseAbility(ability="disarm"), MID)
    # a Normal hit: Disarm's power 1 at Normal is one turn of its team's turns
    assert of(events, EquipmentDisabled) == [
        EquipmentDisabled(unit="p2.grizzlor", equipment="iron_plate", turns=1, pools=GRIZZLOR_POOLS)]
    assert then.disabled_equipment("p2.grizzlor").turns == 1
    records = chained(events)
    at = events.index(of(events, EquipmentDisabled)[0]) + 1
    assert canonical_event(at, records[at - 1].event) == (
        b'{"data":{"equipment":"iron_plate","pools":[{"extra":0,"level":3,"pool":"brawler"},'
        b'{"extra":0,"level":2,"pool":"warden"},{"extra":0,"level":1,"pool":"mender"}],"turns":1,'
        b'"unit":"p2.grizzlor"},"seq":%d,"type":"ring.EquipmentDisabled"}' % at)
    # what an auditor recomputes from the replay file's JSON lines
    chain = GENESIS
    for rec in records:
        line = orjson.loads(orjson.dumps(wire_event(rec, OMNISCIENT, True)))
        chain = chain_of(chain, line["seq"], line["type"], line["data"])
        assert chain == rec.chain


def test_disarm_and_restore_events_are_stored_sent_and_decoded_as_they_were():
    given = plated_grizzlor_facing_a_disarm()
    disarmed, off = run(given, "p1", UseAbility(ability="disarm"), MID)
    p1_ended, p2_turn = run(off, "p1", EndTurn())
    p2_ended, _ = run(p2_turn, "p2", EndTurn())        # the plate comes back as p2's turn ends
    assert of(p2_ended, EquipmentRestored) == [
        EquipmentRestored(unit="p2.grizzlor", equipment="iron_plate", pools=GRIZZLOR_POOLS, reason="expired")]
    mapper, battle = BattleMapper(), uuid.uuid4()
    for rec in chained([*disarmed, *p1_ended, *p2_ended]):
        assert mapper.to_domain_event(mapper.to_stored_event(StoredRecord(battle, rec))) == rec
        line = orjson.loads(orjson.dumps(wire_event(rec, OMNISCIENT, True)))
        assert decode_record(line["seq"], line["type"], line["data"], line["chain"]) == rec
    restored = wire_event(chained(of(p2_ended, EquipmentRestored))[0], OMNISCIENT, True)
    assert orjson.loads(orjson.dumps(restored["data"])) == {
        "unit": "p2.grizzlor", "equipment": "iron_plate", "reason": "expired",
        "pools": [{"pool": "brawler", "level": 3, "extra": 0}, {"pool": "warden", "level": 2, "extra": 0},
                  {"pool": "mender", "level": 1, "extra": 0}]}


# One unit a side: p1's grizzlor prioritises Disarm, p2's wears an Iron Plate.
ONE_ON_ONE = {"params": {"deck_units": 1, "team_size": 1},
              "p1": {"deck": {"leader": "gale", "units": [{"unit": "grizzlor", "priorities": ["disarm"]}],
                              "items": []}},
              "p2": {"deck": {"leader": "gale", "units": [{"unit": "grizzlor", "equipment": "iron_plate"}],
                              "items": []}}}


def test_a_disarm_over_http_answers_with_its_events_and_the_log_shows_them(sqlite_url):
    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.services import Settings

    with TestClient(create_app(Settings(database_url=sqlite_url))) as client:
        battle = create(client, "ring", setup=ONE_ON_ONE)
        landed = disarm_until_it_lands(client, battle)
        log = client.get(f"/battles/{battle['battle_id']}/events", headers=auth(battle["seat_tokens"]["p1"])).json()
    shown = [e["data"] for e in log["events"] if e["type"] == "ring.EquipmentDisabled"]
    assert shown == [landed["data"]] == [{
        "unit": "p2.grizzlor", "equipment": "iron_plate", "turns": landed["data"]["turns"],
        "pools": [{"pool": "brawler", "level": 3, "extra": 0}, {"pool": "warden", "level": 2, "extra": 0},
                  {"pool": "mender", "level": 1, "extra": 0}]}]
    assert landed["data"]["turns"] in (1, 2)          # Normal 1, Critical 2


def disarm_until_it_lands(client, battle) -> dict:
    """Whoever acts uses Disarm when it can, else ends the turn, until a Disarm that is not a
    Glancing hit disables the plate (only p2's grizzlor wears equipment); that
    `ring.EquipmentDisabled` as the command answered it."""
    bid, tokens = battle["battle_id"], battle["seat_tokens"]
    for _ in range(40):
        seat, legal = awaited(client, battle)
        commands = legal["legal"]
        command = next((c for c in commands if c.get("ability") == "disarm"), None) or \
            next((c for c in commands if c["type"] == "end_turn"), commands[0])
        response = client.post(f"/battles/{bid}/commands", headers=auth(tokens[seat]),
                               json={"command": command, "expected_seq": legal["seq"]})
        assert response.status_code == 200, response.text
        landed = [e for e in response.json()["events"] if e["type"] == "ring.EquipmentDisabled"]
        if landed:
            return landed[0]
    raise AssertionError("no Disarm landed in 40 commands")


def awaited(client, battle) -> tuple[str, dict]:
    """The seat that may act now (one at a time here) and its legal commands."""
    for seat, token in sorted(battle["seat_tokens"].items()):
        legal = client.get(f"/battles/{battle['battle_id']}/legal", headers=auth(token)).json()
        if legal["legal"]:
            return seat, legal
    raise AssertionError("nobody may act")
