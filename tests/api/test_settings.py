"""The service's settings from the environment: each bad value is one error naming its variable."""
from __future__ import annotations

import pytest

from api.services import Settings, bootstrap, served
from domain.engine.errors import InvalidInput


def test_the_service_sizes_its_state_cache_from_the_environment(sqlite_url, monkeypatch):
    monkeypatch.setenv("RINGSIDE_DATABASE_URL", sqlite_url)
    monkeypatch.setenv("RINGSIDE_STATE_CACHE", "500")
    services = bootstrap()
    try:
        assert services.battles.cache.size == 500
    finally:
        services.close()
    monkeypatch.delenv("RINGSIDE_STATE_CACHE")
    assert Settings.from_env().state_cache == 16384


@pytest.mark.parametrize("raw", ["many", "0", "-5", "1.5", "²", "9" * 40, "10000001"])
def test_a_bad_state_cache_size_is_one_error_naming_the_variable(monkeypatch, raw):
    monkeypatch.setenv("RINGSIDE_STATE_CACHE", raw)
    with pytest.raises(InvalidInput) as err:
        Settings.from_env()
    assert err.value.message.startswith("RINGSIDE_STATE_CACHE: a whole number from 1 to 10,000,000, not ")


@pytest.mark.parametrize("raw, expected", [("on", True), ("1", True), ("Yes", True), ("off", False), ("0", False)])
def test_telemetry_is_switched_from_the_environment(monkeypatch, raw, expected):
    monkeypatch.setenv("RINGSIDE_TELEMETRY", raw)
    assert Settings.from_env().telemetry is expected


def test_a_bad_telemetry_switch_is_one_error_naming_the_variable(monkeypatch):
    monkeypatch.setenv("RINGSIDE_TELEMETRY", "maybe")
    with pytest.raises(InvalidInput) as err:
        Settings.from_env()
    assert err.value.message == "RINGSIDE_TELEMETRY: on or off (1/0, true/false, on/off, yes/no), not 'maybe'"


def test_the_service_takes_its_stream_bounds_from_the_environment(sqlite_url, monkeypatch):
    monkeypatch.setenv("RINGSIDE_DATABASE_URL", sqlite_url)
    monkeypatch.setenv("RINGSIDE_STREAM_OUTBOX", "12")
    monkeypatch.setenv("RINGSIDE_STREAM_SEND_SECONDS", "2.5")
    services = bootstrap()
    try:
        assert (services.live.outbox_batches, services.live.send_seconds) == (12, 2.5)
    finally:
        services.close()


@pytest.mark.parametrize("name, raw", [("RINGSIDE_STREAM_OUTBOX", "0"), ("RINGSIDE_STREAM_OUTBOX", "lots"),
                                       ("RINGSIDE_STREAM_SEND_SECONDS", "-1"), ("RINGSIDE_STREAM_SEND_SECONDS", "nan")])
def test_a_bad_stream_bound_is_one_error_naming_the_variable(monkeypatch, name, raw):
    monkeypatch.setenv(name, raw)
    with pytest.raises(InvalidInput) as err:
        Settings.from_env()
    assert err.value.message.startswith(f"{name}: ")


def test_a_server_on_a_sqlite_file_keeps_its_views_in_a_file_beside_it_run_by_a_child(tmp_path):
    # given a server's settings on a SQLite file, with nothing said about projections
    settings = served(Settings(database_url=f"sqlite:///{tmp_path / 'games.db'}"))
    # then the views go to games.views.db, kept by a runner process
    assert (settings.projections, settings.views_path) == ("process", str(tmp_path / "games.views.db"))


@pytest.mark.parametrize("settings", [Settings(database_url="sqlite:///:memory:"),
                                      Settings(database_url="sqlite:///x.db", redis_url="redis://127.0.0.1:6379/0"),
                                      Settings(database_url="sqlite:///x.db", projections="thread"),
                                      Settings(database_url="postgresql://u@127.0.0.1:5432/db")])
def test_other_servers_keep_the_projections_they_were_given(settings):
    # in memory there is no file to share, Redis is shared already, a thread was asked for,
    # and PostgreSQL's views are in Redis
    assert served(settings) == settings


@pytest.mark.parametrize("raw, expected", [("thread", "thread"), ("Process", "process"), ("external", "external")])
def test_where_projections_run_comes_from_the_environment(monkeypatch, raw, expected):
    monkeypatch.setenv("RINGSIDE_PROJECTIONS", raw)
    assert Settings.from_env().projections == expected


def test_a_bad_projections_place_is_one_error_naming_the_variable(monkeypatch):
    monkeypatch.setenv("RINGSIDE_PROJECTIONS", "elsewhere")
    with pytest.raises(InvalidInput) as err:
        Settings.from_env()
    assert err.value.message == "RINGSIDE_PROJECTIONS: one of thread, process, external, not 'elsewhere'"


def test_views_another_process_keeps_need_a_place_both_can_reach():
    # given projections in another process, on an in-memory store without Redis
    with pytest.raises(InvalidInput) as err:
        bootstrap(Settings(database_url="sqlite:///:memory:", projections="process"))
    # then nothing starts, and the error says what would do
    assert err.value.message.startswith("RINGSIDE_PROJECTIONS: views another process keeps need Redis or")
