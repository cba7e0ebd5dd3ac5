"""The speed script counts the processor time of child processes (39).

ViZDoom's engine and AsyncVectorEnv's workers run as processes of their own: a rate per
processor second of the measuring process alone would leave their work out.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.shared import ROOT

pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")


def _script():
    spec = importlib.util.spec_from_file_location("rl_speed", ROOT / "benchmarks" / "rl_speed.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_children_cpu_counts_a_busy_child() -> None:
    module = _script()
    before = module.children_cpu()
    child = subprocess.Popen([sys.executable, "-c",
                              "import time\nt = time.process_time()\n"
                              "while time.process_time() - t < 0.4: pass\n"
                              "time.sleep(30)"])
    try:
        deadline = time.monotonic() + 20
        used = 0.0
        while time.monotonic() < deadline:
            used = module.children_cpu() - before
            if used >= 0.3:
                break
            time.sleep(0.05)
        assert used >= 0.3
    finally:
        child.kill()
        child.wait()
