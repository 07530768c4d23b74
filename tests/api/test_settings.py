"""The service's settings from the environment: each bad value is one error naming its variable."""
from __future__ import annotations

import pytest

from api.services import Settings, bootstrap
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
