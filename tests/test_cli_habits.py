"""Command-line habits (36): the core install's export, --version, levels, doctor, pipes."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from harness import doctor_cmd
from harness.cli import BROKEN_PIPE_STATUS, COMMANDS, build_parser, main
from harness.core.protocol import PROTOCOL_VERSION
from harness.core.version import package_version
from harness.episode.runner import new_run_dir, run_name
from tests.shared import (
    MATCH_IDS,
    ROOT,
    SHIPPED_IDS,
    SHIPPED_LEVELS,
    TEST_AGENTS,
    python_agent,
    shipped,
)
from world.actions.combat import FIGHT_EXTRA_S, SHOOT_DEFAULT_S
from world.actions.timing import ROUTE_EXTRA_S, ROUTE_FLOOR_S, ROUTE_SLACK
from world.actions.walking import USE_EXTRA_S
from world.face import TEMPLATES, catalog, level_solids, mission_files
from world.observe.view import MAX_DOORS, MAX_OBJECTS


def harness_process(*argv: str, env_extra: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness.cli", *argv], cwd=ROOT,
                          env={**os.environ, **env_extra}, capture_output=True, text=True,
                          timeout=60)


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


def test_version_names_the_package_and_the_protocol(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == (
        f"harness {package_version()} (protocol version {PROTOCOL_VERSION})\n")


def test_levels_lists_what_the_files_hold(capsys):
    assert main(["levels", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [row["id"] for row in listing["levels"]] == SHIPPED_IDS
    outpost = next(row for row in listing["levels"] if row["id"] == "outpost")
    level = shipped("outpost")
    assert outpost == {"id": "outpost", "title": level.title,
                       "categories": list(level.categories),
                       "difficulties": [d.id for d in level.difficulties]}
    assert [row["id"] for row in listing["doom"]] == [
        f"doom:{path.stem}" for path in mission_files()]
    assert all(row["difficulties"] for row in listing["doom"])
    assert [row["id"] for row in listing["matches"]] == MATCH_IDS
    assert [t["name"] for t in listing["templates"]] == list(TEMPLATES)
    assert main(["levels"]) == 0
    text = capsys.readouterr().out
    assert f"Shipped levels ({len(SHIPPED_IDS)}" in text
    assert "doom:t01_e1m1_exit" in text and "harness templates" in text
    assert f"Match levels ({len(MATCH_IDS)}" in text and "duel_yard" in text


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_help_shows_defaults_and_an_example(name):
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    text = sub.choices[name].format_help()
    assert f"example:\n  harness {name}" in text
    options = [a for a in sub.choices[name]._actions if a.option_strings
               and a.default not in (None, False, True, argparse.SUPPRESS, [])]
    for action in options:  # each default is stated, by the help text or the formatter
        assert "default" in sub.choices[name]._get_formatter()._expand_help(action)


def test_help_says_where_runs_go_and_what_a_bare_eval_plays():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert "parent directory of run directories (default: runs)" in " ".join(
        sub.choices["run"].format_help().split())
    episodes = 10 * sum(len(json.loads((SHIPPED_LEVELS / f"{i}.json").read_text(
        encoding="utf-8"))["difficulties"]) for i in SHIPPED_IDS)
    assert f"{episodes} episodes, written under ./eval" in " ".join(
        sub.choices["eval"].format_help().split())


def test_a_closed_pipe_ends_quietly():
    # The reader is gone before the first write (as `| head -1` is, once it has its line),
    # so every run meets the closed pipe, however the processes are scheduled.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, "-m", "harness.cli", "templates", "--json"],
                                cwd=ROOT, stdout=write_end, stderr=subprocess.PIPE, text=True,
                                timeout=60)
    finally:
        os.close(write_end)
    assert result.stderr == ""
    assert result.returncode == BROKEN_PIPE_STATUS == 141


def test_doctor_reports_each_piece_on_one_line(capsys, monkeypatch):
    assert main(["doctor", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    names = [f["name"] for f in report["findings"]]
    for wanted in ("python", "bubblewrap", "agent sandbox", "chromium", "cgroups v2",
                   "reference agent", "extra rl", "extra doom", "extra ray", "extra test"):
        assert wanted in names
    assert report["missing"] == [f["name"] for f in report["findings"] if not f["ok"]]
    # Nothing on PATH: bubblewrap and Chromium are reported missing, and it still exits 0.
    monkeypatch.setattr(doctor_cmd.shutil, "which", lambda name: None)
    assert main(["doctor"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(names) + 2  # a heading, a line each, a summary
    assert any(line.startswith("--  bubblewrap") and "apt-get install bubblewrap" in line
               for line in lines)
    assert any(line.startswith("--  chromium") for line in lines)
    assert "missing: bubblewrap" in lines[-1]


def test_doctor_reads_the_extras_from_the_requirements():
    lines = ["numpy>=1.26", 'gymnasium>=1.0; extra == "rl"', "vizdoom>=1.3.2; extra == 'doom'",
             'scipy>=1.11 ; extra == "doom"']
    assert doctor_cmd.extras(lines) == {"rl": ["gymnasium"], "doom": ["vizdoom", "scipy"]}
    finding = doctor_cmd.check_extra("doom", ["no-such-distribution-xyz"])
    assert not finding.ok and "pip install -e '.[doom]'" in finding.detail


def test_run_folder_names_are_portable(tmp_path):
    name = run_name("doom:t01_e1m1_exit", "nor?mal", 0, "20260101T000000", "abc123")
    assert name == "doom_t01_e1m1_exit-nor_mal-s0-20260101T000000-abc123"
    made = new_run_dir(tmp_path, SimpleNamespace(id="doom:t04_defend_the_center"), "normal", 3)
    assert made.parent == tmp_path and made.is_dir()
    assert made.name.startswith("doom_t04_defend_the_center-normal-s3-")
    assert re.fullmatch(r"[A-Za-z0-9_.-]+", made.name)


def test_readme_lists_every_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [name for name in COMMANDS if f"| `harness {name}" not in readme]
    assert missing == []
    assert "| `harness --version` |" in readme


def test_protocol_states_the_caps_and_limits_the_code_has():
    # PROTOCOL.md's facts are prose: this keeps its figures equal to the constants.
    text = " ".join((ROOT / "PROTOCOL.md").read_text(encoding="utf-8").split())
    assert f"holds the {MAX_OBJECTS} nearest known objects" in text
    assert f"{MAX_DOORS} in all unless the current area alone has more" in text
    assert f"walking time times {ROUTE_SLACK:g}, plus {ROUTE_EXTRA_S:g} s" in text
    assert f"at least {ROUTE_FLOOR_S:g} s" in text
    assert f"{USE_EXTRA_S:g} s more to press use" in text
    assert f"{FIGHT_EXTRA_S:g} s more to fire for `attack`" in text
    assert f"`shoot_object` runs {SHOOT_DEFAULT_S:g} s" in text
    assert f"No action runs longer than {catalog().time_cap_s:g} game seconds" in text
    assert "health 85%" in text and "fractions from 0 to 1" in text


def test_a_broken_pipe_elsewhere_is_not_hidden(monkeypatch, capsys):
    # Standard output is fine: a broken pipe from anything else still surfaces.
    def broken(args):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("harness.levels.templates_cmd.run", broken)
    with pytest.raises(BrokenPipeError):
        main(["templates"])


def test_doctor_reads_pyproject_in_a_tree_never_installed(monkeypatch):
    def absent(name):
        raise doctor_cmd.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(doctor_cmd.metadata, "distribution", absent)
    wanted, lines = doctor_cmd.requirements()
    assert wanted == ">=3.11"
    found = doctor_cmd.extras(lines)
    assert found["rl"] == ["gymnasium", "pettingzoo", "numba"]
    assert found["doom"] == ["vizdoom", "scipy"]


def test_a_run_directory_named_the_old_way_is_still_resumed_and_replayed(tmp_path, capsys):
    # Before portable names a Doom run's directory held a `:`; resume and replay find runs
    # by what they hold, so such a directory is still reused and verified.
    out = tmp_path / "suite"
    crash = python_agent(TEST_AGENTS / "crash_agent.py")
    args = ["eval", "--levels", "blue_door", "--difficulties", "easy", "--seeds", "1",
            "--out", str(out), "--agent", crash]
    assert main(args) == 0
    run_dir = Path(json.loads((out / "results.json").read_text())["episodes"][0]["run_dir"])
    old_style = run_dir.with_name(f"doom:{run_dir.name}")
    run_dir.rename(old_style)
    assert main(args) == 0
    again = json.loads((out / "results.json").read_text())["episodes"][0]
    assert again["run_dir"] == str(old_style)
    assert main(["replay", str(old_style)]) == 0
    assert "verified" in capsys.readouterr().out
