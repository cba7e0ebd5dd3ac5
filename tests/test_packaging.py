"""The project installs anywhere: the schemas and shipped levels travel in the wheel.

The slow test builds the wheel offline, installs it into a fresh virtual environment
that borrows the machine's dependencies, and plays, checks and replays a shipped level
from a directory that is not the checkout.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from harness.agent.sandbox import bubblewrap_problem
from harness.core.record import read_record
from harness.levels.check_cmd import level_files
from tests.level_factory import short_copy
from tests.shared import ROOT
from world.data_paths import LEVELS_DIR, SCHEMA_DIR

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
# What the wheel needs from the checkout (nothing else is copied, so nothing stale ships).
SOURCES = ("pyproject.toml", "README.md", "harness", "world", "schemas", "levels")


def test_listed_packages_are_the_code_packages_and_the_data_folders():
    code = sorted(".".join(p.parent.relative_to(ROOT).parts)
                  for top in ("harness", "world") for p in (ROOT / top).rglob("__init__.py"))
    mapped = SETUPTOOLS["package-dir"]
    data = sorted(name for name in mapped if name)
    assert sorted(SETUPTOOLS["packages"]) == sorted(code + data)
    assert {mapped[name] for name in data} == {"schemas", "levels"}


@pytest.mark.parametrize("package", ["world._data.schemas", "world._data.levels"])
def test_every_data_file_is_package_data(package):
    folder = ROOT / SETUPTOOLS["package-dir"][package]
    patterns = SETUPTOOLS["package-data"][package]
    files = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()]
    assert files, folder
    missed = [f for f in files if not any(fnmatch.fnmatchcase(f, pat) and
                                          f.count("/") == pat.count("/") for pat in patterns)]
    assert missed == [], f"not shipped in the wheel: {missed}"


def test_checkout_finds_its_own_data():
    assert SCHEMA_DIR == ROOT / "schemas"
    assert LEVELS_DIR == ROOT / "levels"
    assert (SCHEMA_DIR / "actions.json").is_file()


def test_check_takes_a_shipped_level_id(tmp_path):
    assert level_files(["outpost"]) == [LEVELS_DIR / "outpost.json"]
    # A file of that name where the command runs is the file, not the id.
    here = tmp_path / "outpost"
    here.write_text("{}", encoding="utf-8")
    assert level_files([str(here)]) == [here]
    assert level_files(["no_such_level"]) == [Path("no_such_level")]


# Lists a folder it is given and says what it saw in its first action's notes.
PEEK_AGENT = r"""#!/bin/sh
read -r start
printf '%s\n' '{"type":"hello","protocol_version":1,"name":"peek","version":"1"}'
seen=$(ls "$1" 2>&1 | tr -d '"\\' | tr '\n' ' ' | head -c 300)
while read -r line; do
    case "$line" in *'"type":"summary"'*) exit 0 ;; esac
    printf '{"type":"action","protocol_version":1,"action":"wait","arguments":{"seconds":30},'
    printf '"notes":"saw: %s"}\n' "$seen"
done
"""


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{argv} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.slow
@pytest.mark.timeout(600)  # a wheel build and a fresh virtual environment, beside another worker
def test_wheel_installs_and_plays_from_another_directory(tmp_path):
    pytest.importorskip("wheel", reason="building a wheel needs the 'wheel' package "
                        "(in the test extra: pip install -e '.[test]')")
    src = tmp_path / "src"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_NO_INDEX"] = "1"  # offline: the dependencies come from the machine's Python
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", ".",
          "-w", str(tmp_path / "dist"), "--quiet"], src, env)
    wheel = next((tmp_path / "dist").glob("mission_harness-*.whl"))

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
         tmp_path, env)
    python, harness = venv / "bin" / "python", venv / "bin" / "harness"
    # --force-reinstall: an editable install of the project in the machine's site-packages
    # (as the test command makes) would otherwise count as already satisfying the wheel.
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
          "--no-index", "--no-deps", "--force-reinstall", str(wheel)], tmp_path, env)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(src)  # nothing may come from the copy the wheel was built from
    where = json.loads(_run([str(python), "-c", (
        "import json, harness, world.data_paths as d, harness.agent.sandbox_fs as s;"
        "print(json.dumps([harness.__file__, str(d.SCHEMA_DIR), str(d.LEVELS_DIR),"
        " [str(p) for p in s.HIDDEN_DATA]]))")], elsewhere, env).stdout)
    site = Path(where[0]).parents[1]
    assert venv.resolve() in site.parents, f"imported from {where[0]}, not the wheel"
    assert Path(where[1]) == site / "world" / "_data" / "schemas"
    assert Path(where[2]) == site / "world" / "_data" / "levels"
    # The sandbox hides the installed packages, and with them the data inside `world`.
    assert {site / "harness", site / "world"} <= {Path(p) for p in where[3]}

    checked = _run([str(harness), "check", "outpost"], elsewhere, env)
    assert "outpost.json: ok:" in checked.stdout
    _run([str(harness), "run", "outpost", "--agent", str(ROOT / "agents" / "wait_agent.sh"),
          "--out", "runs"], elsewhere, env)
    records = list((elsewhere / "runs").glob("*/record.jsonl.gz"))
    assert len(records) == 1, records
    replayed = _run([str(harness), "replay", str(records[0])], elsewhere, env)
    assert replayed.stdout.startswith("verified:"), replayed.stdout

    # In the sandbox an agent looks for the installed levels and finds nothing there.
    if bubblewrap_problem() is None:
        peek = tmp_path / "peek" / "peek.sh"
        peek.parent.mkdir()
        peek.write_text(PEEK_AGENT, encoding="utf-8")
        peek.chmod(0o755)
        levels = site / "world" / "_data" / "levels"
        # Only its first turn matters: three decisions, not outpost's two minutes of game time.
        short = short_copy(tmp_path / "short", "outpost", 3)
        _run([str(harness), "run", str(short), "--agent", f"{peek} {levels}", "--out", "peeks",
              "--require-sandbox"], elsewhere, env)
        record = read_record(next((elsewhere / "peeks").glob("*/record.jsonl.gz")))
        notes = record.turns[0]["action"]["notes"]
        assert notes.startswith("saw:") and "outpost" not in notes, notes
