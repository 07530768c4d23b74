"""`store_env`: database URL -> eventsourcing settings."""
from __future__ import annotations

import pytest

from domain.battles import Battles
from domain.store import DEFAULT_DATABASE_URL, BadDatabaseUrl, database_url, store_env
from tests.storage.helpers import PLAYERS


def test_sqlite_file_url(tmp_path):
    path = tmp_path / "a b" / "x.db"
    env = store_env(f"sqlite:///{path}")
    assert env["PERSISTENCE_MODULE"] == "domain.sqlite_store:Factory"
    assert env["SQLITE_DBNAME"] == str(path)
    assert not any(k.startswith("POSTGRES_") for k in env)


def test_relative_sqlite_path_and_percent_escapes():
    assert store_env("sqlite:///./ringside.db")["SQLITE_DBNAME"] == "./ringside.db"
    assert store_env("sqlite:///data/my%20file.db")["SQLITE_DBNAME"] == "data/my file.db"


def test_sqlite_memory_urls_are_distinct_shared_cache_databases():
    one, two = store_env("sqlite:///:memory:"), store_env("sqlite:///:memory:")
    assert one["PERSISTENCE_MODULE"] == "domain.sqlite_store:Factory"
    for env in (one, two):
        name = env["SQLITE_DBNAME"]
        assert name.startswith("file:") and "mode=memory" in name and "cache=shared" in name
    assert one["SQLITE_DBNAME"] != two["SQLITE_DBNAME"]


def test_sqlite_memory_store_works_across_the_connection_pool():
    with Battles("sqlite:///:memory:") as battles:
        created = battles.create("deckduel", PLAYERS)
        battles.submit(created.battle_id, "p1", {"type": "mulligan", "cards": []})
        assert [r.seq for r in battles.records(created.battle_id)] == list(range(1, created.seq + 2))


def test_postgresql_url_with_schema_user_password_and_port():
    env = store_env("postgresql://alice:s%40cret@db.example:6543/games?schema=t_1")
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert env["POSTGRES_DBNAME"] == "games"
    assert env["POSTGRES_HOST"] == "db.example"
    assert env["POSTGRES_PORT"] == "6543"
    assert env["POSTGRES_USER"] == "alice"
    assert env["POSTGRES_PASSWORD"] == "s@cret"
    assert env["POSTGRES_SCHEMA"] == "t_1"
    assert "SQLITE_DBNAME" not in env


def test_postgresql_url_defaults():
    env = store_env("postgres://127.0.0.1/test")
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert (env["POSTGRES_PORT"], env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("5432", "postgres", "")
    assert "POSTGRES_SCHEMA" not in env


def test_postgres_url_fixture_is_usable(postgres_url):
    env = store_env(postgres_url)
    assert env["POSTGRES_SCHEMA"].startswith("t_")
    with Battles(postgres_url) as battles:
        created = battles.create("deckduel", PLAYERS)
        assert battles.load(created.battle_id).seq == created.seq


@pytest.mark.parametrize("url", [
    "mysql://root@localhost/db",
    "http://example.com/x.db",
    "ringside.db",
    "sqlite://relative.db",
    "sqlite:///",
    "postgresql:///nohost",
    "postgresql://user@host:5432/",
])
def test_bad_urls_raise_bad_database_url(url):
    with pytest.raises(BadDatabaseUrl) as caught:
        store_env(url)
    assert caught.value.code == "bad_database_url"
    assert url in caught.value.message


def test_bad_url_is_rejected_by_battles_too():
    with pytest.raises(BadDatabaseUrl):
        Battles("mysql://root@localhost/db")


def test_environment_variable_and_default(monkeypatch, tmp_path):
    monkeypatch.delenv("RINGSIDE_DATABASE_URL", raising=False)
    assert database_url() == DEFAULT_DATABASE_URL == "sqlite:///./ringside.db"
    assert store_env()["SQLITE_DBNAME"] == "./ringside.db"
    monkeypatch.setenv("RINGSIDE_DATABASE_URL", f"sqlite:///{tmp_path}/env.db")
    assert store_env()["SQLITE_DBNAME"] == f"{tmp_path}/env.db"
    assert database_url("sqlite:///explicit.db") == "sqlite:///explicit.db"
