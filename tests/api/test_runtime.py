"""A server process tunes the interpreter once it has started (api/runtime.py); tests and
tools that build the app in-process keep the interpreter as it is."""
from __future__ import annotations

import gc
import subprocess
import sys

from fastapi.testclient import TestClient

from api.app import create_app
from api.runtime import SWITCH_SECONDS, YOUNG_THRESHOLD
from api.services import Settings

PROBE = """
import gc, sys
from fastapi.testclient import TestClient
from api.app import create_app
from api.services import Settings
with TestClient(create_app(Settings(database_url=sys.argv[1]), long_running=True)) as client:
    assert client.get("/rulesets").status_code == 200
    print(gc.get_freeze_count(), gc.get_threshold()[0], sys.getswitchinterval())
"""


def test_a_long_running_server_freezes_what_it_loaded_and_widens_the_young_generation(sqlite_url):
    # Given a server app built as `ringside serve` builds it, in a process of its own
    # When it has started
    done = subprocess.run([sys.executable, "-c", PROBE, sqlite_url], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    frozen, young, switch = done.stdout.split()
    # Then what it loaded is in the permanent generation (tens of thousands of objects:
    # modules, routes, the rulesets' content), and the thresholds are the service's
    assert int(frozen) > 20_000
    assert int(young) == YOUNG_THRESHOLD
    assert float(switch) == SWITCH_SECONDS


def test_an_app_built_in_process_leaves_the_interpreter_alone(sqlite_url):
    # Given the interpreter's settings in this test process
    before = (gc.get_freeze_count(), gc.get_threshold(), sys.getswitchinterval())
    # When an app is built and started the ordinary way
    with TestClient(create_app(Settings(database_url=sqlite_url))) as client:
        assert client.get("/rulesets").status_code == 200
    # Then nothing was frozen and no threshold changed
    assert (gc.get_freeze_count(), gc.get_threshold(), sys.getswitchinterval()) == before
