"""Reference runs shared by the offline-track tests (exit_switch, seed 0, one per difficulty)."""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
from functools import cache
from pathlib import Path

from harness.runner import run
from harness.settings import RunSettings
from tests.shared import ROOT

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)


@cache
def reference_run(difficulty: str = "normal") -> Path:
    """The run directory of the reference agent's exit_switch seed 0 (played once)."""
    out = Path(tempfile.mkdtemp(prefix="quiz-tests-"))
    atexit.register(shutil.rmtree, out, True)
    agent = f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}"
    summary = run("exit_switch", agent, difficulty=difficulty, seed=0, out_dir=out, settings=FAST)
    return Path(summary["run_dir"])
