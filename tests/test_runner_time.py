"""The harness's own time is never the agent's (35): a world slow to observe does not use
up the agent's episode timeout, and the decision clock starts once the observation is in
the agent's pipe."""

from __future__ import annotations

import threading
import time

from harness.agent.streams import StdinWriter
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.level_factory import short_copy
from tests.runner_fakes import FakeGame
from tests.shared import SHIPPED_AGENTS


class SlowViewGame(FakeGame):
    """Building each observation takes half a second, as a crowded level can."""

    def view(self):
        time.sleep(0.5)
        return super().view()


def test_a_slow_world_does_not_spend_the_agents_episode_time(tmp_path) -> None:
    settings = RunSettings(hello_timeout_s=5, decision_timeout_s=5, episode_timeout_s=1.5,
                           grace_s=0.2)
    level = short_copy(tmp_path / "level", "outpost", 5)
    summary = run(str(level), str(SHIPPED_AGENTS / "wait_agent.sh"), out_dir=tmp_path,
                  settings=settings, game_factory=SlowViewGame)
    # Five turns cost the harness well over the 1.5 s the agent was given for all of them
    # (a shell agent answers at once).
    assert summary["outcome"] != "agent_timeout", summary["reason"]
    assert summary["decisions"] == 5


def test_the_writer_says_when_every_byte_is_in_the_pipe() -> None:
    import os

    read_end, write_end = os.pipe()
    stop = threading.Event()
    with os.fdopen(write_end, "wb") as stream:
        writer = StdinWriter(stream, 1 << 24, stop, 0.01)
        thread = threading.Thread(target=writer.run, daemon=True)
        thread.start()
        assert writer.wait_sent(0)  # nothing queued
        writer.send(b"x" * (1 << 20) + b"\n")  # far more than a pipe holds
        assert not writer.wait_sent(0.2)  # nobody reads: not sent
        with os.fdopen(read_end, "rb") as reader:
            reader.read(1 << 20)
            assert writer.wait_sent(5)
            stop.set()
            thread.join(5)
