from __future__ import annotations

import uuid

import pytest

from projections.sqlite_views import SqliteViewStore
from projections.store import MemoryViewStore, RedisViewStore


@pytest.fixture
def redis_store(redis_url):
    store = RedisViewStore(redis_url, prefix=f"t{uuid.uuid4().hex[:10]}")
    yield store
    keys = list(store.redis.scan_iter(match=f"{store.prefix}:*"))
    if keys:
        store.redis.delete(*keys)
    store.close()


@pytest.fixture
def sqlite_store(tmp_path):
    store = SqliteViewStore(str(tmp_path / "views.db"), prefix="t")
    yield store
    store.close()


@pytest.fixture(params=["memory", "redis", "sqlite"])
def store(request):
    if request.param == "memory":
        return MemoryViewStore(prefix="t")
    return request.getfixturevalue(f"{request.param}_store")
