"""The arena template (40): match levels generated from a seed, checked, played, replayed.

Generated arenas pass the checker's match rules for either side size; a match on one
plays through `harness match` and replays from its record (the level built again from
its name); its id is drawn from the match's secret, never the public digest of its name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.cli import main
from harness.match.replay import replay_match
from harness.match.runner import MATCH_RECORD
from tests.shared import TEST_AGENTS, python_agent
from world.face import TEMPLATES, check_data, generate, parse_name
from world.generate.registry import level_id

WAITER = python_agent(TEST_AGENTS / "brief_wait_agent.py", "3")


@pytest.mark.parametrize("name", ["arena@0", "arena@1", "arena@7?rooms=3",
                                  "arena@2?players_per_side=2",
                                  "arena@9?players_per_side=2&rooms=12"])
def test_generated_arenas_pass_the_checker_as_match_levels(name: str) -> None:
    made = generate(name)
    report = check_data(made.data, f"{made.data['id']}.json")
    assert report.problems == ()
    match = made.data["match"]
    side = made.params["players_per_side"]
    assert len(match["starts"]) == 2 * side
    # The sides start in different rooms, and the gate is neither.
    homes = {s["area"] for s in match["starts"]}
    assert len(homes) == 2 and match["exit"] not in homes


def test_a_match_on_a_generated_arena_plays_replays_and_keeps_its_name_secret(
        tmp_path: Path) -> None:
    name = "arena@4"
    assert main(["match", name, "--agent", WAITER, "--agent", WAITER,
                 "--out", str(tmp_path)]) == 0
    (record,) = tmp_path.rglob(MATCH_RECORD)
    report = replay_match(record.parent)
    assert report.verified, report.divergence
    # The id the agents were given is drawn from the match's secret.
    assert level_id(parse_name(name, TEMPLATES)) not in record.parent.name
    assert generate(name).data["id"] == level_id(parse_name(name, TEMPLATES))
