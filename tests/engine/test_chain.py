from hashlib import blake2b

import orjson

from domain.engine.chain import GENESIS, canonical_bytes, chain_of, link


def test_canonical_bytes_sort_keys_at_every_level():
    assert canonical_bytes(3, "t.X", {"b": 1, "a": {"z": 0, "y": [1, 2]}}) == \
        b'{"data":{"a":{"y":[1,2],"z":0},"b":1},"seq":3,"type":"t.X"}'


def test_chain_matches_the_design_formula():
    data = {"seat": "p1", "card": "jab"}
    expected = blake2b(bytes.fromhex(GENESIS) + orjson.dumps({"seq": 1, "type": "t.X", "data": data},
                                                             option=orjson.OPT_SORT_KEYS), digest_size=32).hexdigest()
    assert chain_of(GENESIS, 1, "t.X", data) == expected
    assert GENESIS == "0" * 64


def test_any_change_changes_the_link():
    base = link(GENESIS, b"abc")
    assert link(GENESIS, b"abd") != base
    assert link("1" + GENESIS[1:], b"abc") != base
