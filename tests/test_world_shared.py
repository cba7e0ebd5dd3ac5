"""Worlds of one level share its static parts, and an episode plays the same cold or warm (39).

Every reset of an environment makes a world of the same level: the layout (derived from
the frozen level) and the path finder (from the level's cached mesh) are made once and
shared, so a later episode reads the searches of earlier ones. Sharing must not change a
result: an episode played after others equals the same episode played with cold caches.
"""

from __future__ import annotations

import pytest

import world.objectives.route as route
import world.sim.layout as layout
import world.sim.queries as queries
from tests.shared import shipped
from world.setup import create_world


def test_worlds_of_a_level_share_its_layout_and_path_finder() -> None:
    level = shipped("exit_switch")
    first, second = create_world(level, "normal", 1), create_world(level, "normal", 2)
    assert first.layout is second.layout
    assert first.paths is second.paths


def test_an_episode_after_others_plays_as_with_cold_caches() -> None:
    pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")
    from tests.test_raw_golden import episode_digest

    for kept in (queries._FINDERS, layout._LAYOUTS, route._LENGTHS, route._SNAPS):
        kept.clear()
    cold = episode_digest("exit_switch", 3, 60)
    episode_digest("exit_switch", 4, 60)  # other episodes fill the shared caches
    assert episode_digest("exit_switch", 3, 60) == cold
