"""Reference runs shared by the offline-track tests (exit_switch, seed 0, one per difficulty)."""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
from functools import cache
from pathlib import Path

from harness.core.keys import episode_key
from harness.core.level_refs import resolve
from harness.episode.live import EpisodeSpec, run_episode
from harness.episode.runner import new_run_dir
from harness.episode.settings import RunSettings
from tests.shared import ROOT
from tools.build_quiz import SECRET as QUIZ_SECRET

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)


@cache
def reference_run(difficulty: str = "normal") -> Path:
    """The run directory of the reference agent's exit_switch seed 0 (played once).

    The shipped questions were built from records played under the quiz set's fixed
    secret (tools/build_quiz.py): this run is played on the same episode key, so it is
    one of them.
    """
    out = Path(tempfile.mkdtemp(prefix="quiz-tests-"))
    atexit.register(shutil.rmtree, out, True)
    agent = f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}"
    found = resolve("exit_switch")
    run_dir = new_run_dir(out, found.level, difficulty, 0)
    key = episode_key(bytes.fromhex(QUIZ_SECRET), found.level.content_hash, difficulty, 0)
    run_episode(EpisodeSpec(found.level, found.source, difficulty, 0, agent, run_dir, FAST,
                            key=key))
    return run_dir
