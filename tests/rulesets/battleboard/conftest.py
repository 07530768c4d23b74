"""Rule tests lay out their own terrain (`given.field`): the maps they add to the content are
taken away again after each test."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.rulesets.battleboard.content import CONTENT


@pytest.fixture(autouse=True)
def _own_maps_only() -> Iterator[None]:
    before = dict(CONTENT.maps)
    yield
    CONTENT.maps.clear()
    CONTENT.maps.update(before)
