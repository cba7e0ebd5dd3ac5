"""Command-line habits (36): the core install's export, --version, levels, doctor, pipes."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.shared import ROOT, shipped
from world.face import level_solids


def harness_process(*argv: str, cwd=ROOT, env_extra=None, shell_tail: str = ""):
    env = {**os.environ, **(env_extra or {})}
    command = [sys.executable, "-m", "harness.cli", *argv]
    if shell_tail:
        line = " ".join(f"'{w}'" for w in command) + f" | {shell_tail}; exit ${{PIPESTATUS[0]}}"
        return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=60)
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_export_works_without_scipy(tmp_path):
    # scipy comes only with the doom and test extras: a sitecustomize makes it unimportable.
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['scipy'] = None\n",
                                               encoding="utf-8")
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    check = subprocess.run([sys.executable, "-c", "import scipy"], env={**os.environ, **env},
                           capture_output=True, text=True, timeout=60)
    assert check.returncode != 0  # the wrapper works
    out = tmp_path / "outpost.glb"
    result = harness_process("export", "outpost", "--out", str(out), env_extra=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "1 stairs" in result.stdout
    assert out.read_bytes()[:4] == b"glTF"


def test_the_ramp_is_a_closed_outward_solid():
    ramps = [s.mesh for s in level_solids(shipped("outpost")) if s.kind == "stairs"]
    assert ramps
    for mesh in ramps:
        assert mesh.is_watertight and mesh.is_winding_consistent
        assert mesh.volume > 0
