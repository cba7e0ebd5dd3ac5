"""The wait-only baseline on the levels where waiting used to pay: it neither wins nor scores."""

from __future__ import annotations

import pytest

from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.shared import SHIPPED_AGENTS

WAIT_AGENT = str(SHIPPED_AGENTS / "wait_agent.sh")
FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)


@pytest.mark.parametrize("level", ["arena_frags", "hold_centre"])
def test_the_wait_agent_cannot_win_or_score(level, tmp_path) -> None:
    summary = run(level, WAIT_AGENT, difficulty="easy", seed=0, out_dir=tmp_path,
                  settings=FAST)
    assert summary["agent_error"] is None
    assert not summary["success"] and summary["outcome"] in ("failed", "truncated")
    assert summary["score"] == 0.0
    first, second = summary["objectives"][:2]
    if level == "arena_frags":
        # The player never fires (a wait that does not ask for return fire): the frags
        # objective, the only one counted at easy, earned nothing (score 0).
        assert first["status"] != "done" and not second["counts"]
    else:
        # A wait does not shoot back (PROTOCOL.md, "What the player does by reflex"): the
        # attackers are not held off, the player falls and survive fails.
        assert first["status"] == "failed" and second["status"] == "todo"
