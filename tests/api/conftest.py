from __future__ import annotations

import warnings

import pytest

from api.app import create_app
from api.services import Settings

warnings.filterwarnings("ignore", message=".*httpx2.*")


@pytest.fixture
def app(sqlite_url):
    return create_app(Settings(database_url=sqlite_url))


@pytest.fixture
def client(app):
    from fastapi.testclient import TestClient
    with TestClient(app) as test_client:
        yield test_client
