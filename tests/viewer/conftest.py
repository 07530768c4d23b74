"""The replay viewer in a real headless Chromium (Debian's, driven by Playwright; never a
downloaded browser) against a real uvicorn server on a SQLite file.

Without /usr/bin/chromium the tests are skipped, or fail under RINGSIDE_REQUIRE_SERVICES=1
(as in CI, where `make test` installs it first). Screenshots go to test-artifacts/viewer/.
"""
from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import httpx
import pytest

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.battles import Battles
from domain.engine.ruleset import get_ruleset

from ..api.server import uvicorn_server

from .helpers import LAPTOP, PLAYERS

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def need_browser() -> None:
    missing = None
    if not os.path.exists(CHROMIUM):
        missing = f"{CHROMIUM} is missing (apt-get install -y chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "the playwright package is missing (pip install -e '.[test]')"
    if missing is None:
        return
    if os.environ.get("RINGSIDE_REQUIRE_SERVICES") == "1":
        pytest.fail(missing + " (RINGSIDE_REQUIRE_SERVICES=1)")
    pytest.skip(missing)


@pytest.fixture(scope="session")
def db_file(tmp_path_factory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('viewer') / 'viewer.db'}"


@pytest.fixture(scope="session")
def server(db_file) -> Iterator[str]:
    need_browser()
    with uvicorn_server(db_file) as url:
        yield url


@pytest.fixture
def http(server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=10) as client:
        yield client


@pytest.fixture(scope="session")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    """A laptop-sized page; an uncaught script error or a blocked resource fails the test."""
    context = browser.new_context(viewport=LAPTOP)
    opened = context.new_page()
    opened.set_default_timeout(10_000)
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.on("console", lambda msg: problems.append(msg.text)
              if msg.type == "error" and "Content Security Policy" in msg.text else None)
    yield opened
    context.close()
    assert problems == []


@pytest.fixture(scope="session")
def finished_ring(db_file, server) -> str:
    """A ring battle played to its end by two greedy bots, saved straight into the server's store."""
    ruleset = get_ruleset("ring")
    battle_id = str(uuid.uuid4())
    match = play(ruleset, {seat: get_policy("greedy", "ring") for seat in ruleset.default_table().seats}, battle_id=battle_id,
                 revealed=seeded_bytes(7, "viewer"), bot_seed=seeded_bytes(7, "bots"), players=PLAYERS)
    with Battles(db_file) as battles:
        battles.save_battle(match.records, match.state)
    return battle_id
