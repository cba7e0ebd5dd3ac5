"""Suites sharing an --out, atomic results, level paths as folder names, resume that
sets aside instead of deleting."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.record import record_text
from harness.suite import files as suite_files
from harness.suite.files import folder_name, suite_lock, write_atomically
from harness.suite.plan import Episode
from harness.suite.report import write_results
from tests.proc_scan import wait_gone
from tests.shared import ROOT, TEST_AGENTS, python_agent, shipped_path

KILLER = TEST_AGENTS / "worker_killer_agent.py"
CRASH = python_agent(TEST_AGENTS / "protocol_agent.py", "crash", "0")


def test_a_second_suite_on_the_same_out_is_refused_naming_the_first(tmp_path, capsys) -> None:
    out = tmp_path / "suite"
    mark = f"mark-{uuid.uuid4().hex}"
    first = subprocess.Popen(
        [sys.executable, "-m", "harness.cli", "eval", "--levels", "blue_door",
         "--difficulties", "easy", "--seeds", "1", "--out", str(out),
         "--agent", f"{sys.executable} {KILLER} 0 {mark}"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not list(out.rglob("record.jsonl.gz")) and time.monotonic() < deadline:
            assert first.poll() is None, first.communicate()
            time.sleep(0.1)
        (record,) = out.rglob("record.jsonl.gz")
        identity = (out / "suite.json").read_bytes()
        # Another agent even: the lock is checked before anything in the folder is read.
        assert main(["eval", "--levels", "blue_door", "--difficulties", "easy", "--seeds",
                     "1", "--out", str(out), "--agent", CRASH]) == 2
        err = capsys.readouterr().err
        assert f"--out {out} is in use by another suite (pid {first.pid})" in err
        assert (out / "suite.json").read_bytes() == identity
        assert list(out.rglob("record.jsonl.gz")) == [record] and not (out / "set_aside").exists()
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=30)
    assert first.returncode == 143
    assert wait_gone(mark) == []
    with suite_lock(out):  # the kernel released the lock with its holder
        pass


def test_a_lock_held_in_this_process_is_refused_too(tmp_path) -> None:
    with suite_lock(tmp_path), pytest.raises(suite_files.SuiteLockedError,
                                             match=f"pid {os.getpid()}"), suite_lock(tmp_path):
        pass


def test_results_files_are_replaced_whole_or_not_at_all(tmp_path, monkeypatch) -> None:
    rows = [{"level": "l", "difficulty": "d", "seed": 0, "outcome": "completed",
             "success": True, "score": 1.0, "decisions": 3, "game_time_s": 1.0,
             "invalid_actions": 0}]
    write_results(tmp_path, {"agent": "a"}, rows)
    before = (tmp_path / "results.json").read_bytes()

    def fail(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(suite_files.os, "replace", fail)
    with pytest.raises(OSError, match="No space"):
        write_results(tmp_path, {"agent": "b"}, rows * 2)
    assert (tmp_path / "results.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json", "results.md"]


def test_a_write_that_fails_midway_leaves_the_old_file_and_no_temporary(tmp_path) -> None:
    target = tmp_path / "suite.json"
    write_atomically(target, "old\n")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(target, "new " + "x" * 100_000 + "\ud800")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["suite.json"]


HOSTILE_REFS = ["../x/level.json", "/abs/level.json", "a/../../b.json", "..", "../../..",
                "levels/outpost.json", "Outpost", "x y.json", ".", "/", "-rf", "a" * 300]


@pytest.mark.parametrize("ref", HOSTILE_REFS)
def test_every_level_reference_names_a_folder_inside_out(tmp_path, ref) -> None:
    episodes = (tmp_path / "out" / "episodes").resolve()
    folder = Episode(ref, "easy", 0).folder(tmp_path / "out").resolve()
    assert folder.is_relative_to(episodes)
    assert folder.parent.parent.parent == episodes  # one component for the level
    assert len(folder_name(ref)) <= 60


def test_level_names_stay_readable_and_distinct() -> None:
    assert folder_name("outpost") == "outpost"
    names = {folder_name(ref) for ref in HOSTILE_REFS}
    assert len(names) == len(HOSTILE_REFS)
    assert folder_name("../x/level.json").startswith("level-")


@pytest.mark.timeout(240)
def test_levels_given_as_paths_keep_run_directories_under_out(tmp_path, monkeypatch) -> None:
    for where in ("x", "abs"):
        (tmp_path / where).mkdir()
        shutil.copy(shipped_path("blue_door"), tmp_path / where / "blue_door.json")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    refs = f"../x/blue_door.json,{tmp_path / 'abs' / 'blue_door.json'}"
    assert main(["eval", "--levels", refs, "--difficulties", "easy", "--seeds", "1",
                 "--out", "out", "--agent", CRASH]) == 0
    rows = json.loads((work / "out" / "results.json").read_text())["episodes"]
    assert [r["level"] for r in rows] == refs.split(",")
    run_dirs = {Path(r["run_dir"]).resolve() for r in rows}
    assert len(run_dirs) == 2  # same file name, two folders
    for run_dir in run_dirs:
        assert run_dir.is_relative_to((work / "out" / "episodes").resolve())
    for where in ("x", "abs"):
        assert [p.name for p in (tmp_path / where).iterdir()] == ["blue_door.json"]
    assert [p.name for p in tmp_path.iterdir() if p.name not in ("x", "abs", "work")] == []


@pytest.mark.timeout(240)
def test_resume_sets_aside_and_names_every_run_it_cannot_reuse(tmp_path, capsys) -> None:
    out = tmp_path / "suite"
    args = ["eval", "--levels", "blue_door", "--difficulties", "easy", "--seeds", "3",
            "--out", str(out), "--agent", CRASH]
    assert main(args) == 0
    rows = json.loads((out / "results.json").read_text())["episodes"]
    records = [Path(r["run_dir"], "record.jsonl.gz") for r in rows]
    lines = record_text(records[0]).splitlines()
    records[0].write_text("\n".join(lines[:-1]) + "\n")  # no end line
    end = json.loads(record_text(records[1]).splitlines()[-1])
    end["summary"]["outcome"] = "interrupted"  # stopped by a signal
    text = record_text(records[1]).splitlines()
    records[1].write_text("\n".join([*text[:-1], json.dumps(end)]) + "\n")
    tampered = [r.read_bytes() for r in records[:2]]
    capsys.readouterr()

    assert main(args) == 0
    err = capsys.readouterr().err
    again = json.loads((out / "results.json").read_text())["episodes"]
    assert again[2]["run_dir"] == rows[2]["run_dir"]  # the good run is kept as it was
    for index, why in ((0, "interrupted run (no end line)"),
                       (1, "interrupted run (stopped by a signal)")):
        old = Path(rows[index]["run_dir"])
        kept = out / "set_aside" / "blue_door" / "easy" / f"s{index}" / old.name
        assert f"set aside {old} as {kept}: {why}" in err
        assert (kept / "record.jsonl.gz").read_bytes() == tampered[index]  # moved, not lost
        assert again[index]["run_dir"] != rows[index]["run_dir"]
    assert len(list(out.rglob("record.jsonl.gz"))) == 5


def test_a_full_disk_gives_a_plain_message_and_no_half_files(tmp_path, monkeypatch,
                                                             capsys) -> None:
    def full(*_args):
        raise OSError(28, "No space left on device", "suite.json")

    monkeypatch.setattr(suite_files.os, "replace", full)
    out = tmp_path / "suite"
    assert main(["eval", "--levels", "blue_door", "--difficulties", "easy", "--seeds", "1",
                 "--out", str(out), "--agent", CRASH]) == 2
    err = capsys.readouterr().err
    assert f"harness eval: cannot write in --out {out}: No space left on device" in err
    assert "Traceback" not in err
    # No temporary file left: the lock, and the suite's secret made before anything else.
    assert sorted(p.name for p in out.iterdir()) == [".lock", "secret"]
