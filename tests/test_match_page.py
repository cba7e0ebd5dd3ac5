"""The match page (40): every player's path, notes and usage side by side, the standings
and each player's own view of a chosen decision, drawn from the match record alone."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from harness.cli import main
from harness.match.page import read_match
from harness.pz import match_env
from harness.pz.parallel import CHOICES
from tests.shared import MATCH_LEVELS, SHIPPED_AGENTS, TEST_SECRET, python_agent

WALK = [i for i, c in enumerate(CHOICES) if c.action == "go_to_area"]


def _policy(mask: np.ndarray) -> int:
    # Walk through the first way out the mask allows, else the first allowed choice.
    allowed = np.flatnonzero(mask)
    walks = [i for i in WALK if mask[i]]
    return walks[0] if walks else int(allowed[0])


@pytest.fixture(scope="module")
def match_dir(tmp_path_factory) -> Path:
    """A mixed match on a copy of duel_yard whose level file is deleted afterwards."""
    tmp = tmp_path_factory.mktemp("match_page")
    level = json.loads((MATCH_LEVELS / "duel_yard.json").read_text(encoding="utf-8"))
    level["id"] = "duel_yard_copy_gone"
    path = tmp / "duel_yard_copy_gone.json"
    path.write_text(json.dumps(level), encoding="utf-8")
    env = match_env(level=str(path), secret=TEST_SECRET, record_dir=tmp / "runs",
                    processes={"p2": python_agent(SHIPPED_AGENTS / "random_agent.py")})
    _, infos = env.reset(seed=1)
    while env.agents:
        _, _, _, _, infos = env.step({a: _policy(infos[a]["action_mask"]) for a in env.agents})
    env.close()
    path.unlink()
    assert env.run_dir is not None
    return env.run_dir


def _player_block(page: str, pid: str) -> str:
    start = page.index(f'id="player-{pid}"')
    nxt = page.find('class="player" id="player-', start + 1)
    return page[start: nxt if nxt > 0 else len(page)]


def test_the_match_page_shows_every_players_path_and_the_standings(match_dir: Path) -> None:
    assert main(["page", str(match_dir)]) == 0
    page = (match_dir / "index.html").read_text(encoding="utf-8")
    end = read_match(match_dir / "match.jsonl.gz").end
    assert end is not None
    for row in end["standings"]:  # every standing, as the judge wrote it
        assert re.search(rf'<tr data-player="{row["player"]}"><td>{row["player"]}</td>'
                         rf'<td>{row["team"]}</td><td>{row["result"]}</td>', page)
    overview = page[page.index('id="all-paths"'): page.index('id="players"')]
    for pid in ("p1", "p2"):  # the map of all paths, each player's route in its colour
        assert f'class="seg {pid}"' in overview
    for pid in ("p1", "p2"):
        block = _player_block(page, pid)
        assert 'class="seg"' in block, f"{pid}'s path is not drawn"  # drawn without the level
        # Its own view of the chosen decision: the agent's text, which names its player.
        assert f"Match: you are {pid}," in block
        assert f"you are {'p2' if pid == 'p1' else 'p1'}," not in block
    # The agent process's notes appear in its own column, the policy's column has none.
    assert "random pick among the options" in _player_block(page, "p2")
    assert "No notes." in _player_block(page, "p1")


def test_a_chosen_decision_shows_each_players_view_as_of_then(match_dir: Path) -> None:
    assert main(["page", str(match_dir), "--turn", "0"]) == 0
    page = (match_dir / "index.html").read_text(encoding="utf-8")
    assert "Its own view at decision 0 (p1 deciding at tick 0)" in page
    assert "It had not been asked yet." in _player_block(page, "p2")
    assert "its turn 0, observed at tick 0" in _player_block(page, "p1")


def test_a_broken_match_record_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    (tmp_path / "match.jsonl.gz").write_bytes(b"not gzip")
    assert main(["page", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("harness page: ") and "\n" not in err
