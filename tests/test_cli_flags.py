"""Bad command-line values are usage errors (exit 2) that name the flag and what is allowed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from harness.cli import build_parser, main
from harness.episode.settings import settings_from_arguments
from tests.shared import ROOT


def usage_error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(list(argv))
    assert exited.value.code == 2
    return capsys.readouterr().err


RUN = ("run", "outpost", "--agent", "true")
EVAL = ("eval", "--agent", "true")


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        ((*RUN, "--seed", "-1"), "argument --seed: must be a whole number of 0 or more, got '-1'"),
        ((*RUN, "--seed", "x"), "argument --seed: must be a whole number of 0 or more, got 'x'"),
        ((*RUN, "--hello-timeout", "0"), "argument --hello-timeout: must be a number of seconds"),
        ((*RUN, "--decision-timeout", "-2"), "argument --decision-timeout: must be a number"),
        ((*RUN, "--episode-timeout", "nan"), "argument --episode-timeout: must be a number"),
        ((*RUN, "--episode-timeout", "inf"), "argument --episode-timeout: must be a number"),
        ((*RUN, "--max-invalid", "0"), "argument --max-invalid: must be a whole number of 1"),
        ((*RUN, "--max-invalid", "-3"), "argument --max-invalid: must be a whole number of 1"),
        ((*EVAL, "--seeds", "0"), "argument --seeds: must be a whole number of 1 or more"),
        ((*EVAL, "--jobs", "0"), "argument --jobs: must be a whole number from 1 to 64, got '0'"),
        ((*EVAL, "--jobs", "65"), "argument --jobs: must be a whole number from 1 to 64"),
        ((*EVAL, "--hello-timeout", "-1"), "argument --hello-timeout: must be a number"),
        ((*EVAL, "--levels", "outpost,outpost"), "argument --levels: names outpost more than"),
        ((*EVAL, "--difficulties", "easy,hard,easy"), "argument --difficulties: names easy more"),
        ((*EVAL, "--levels", ""), "argument --levels: must be 'all' or comma-separated ids"),
        ((*EVAL, "--levels", "outpost,"), "argument --levels: must be 'all' or comma-separated"),
        ((*EVAL, "--difficulties", ","), "argument --difficulties: must be 'all' or comma-sep"),
        ((*RUN, "--agent-memory-mb", "10"),
         "argument --agent-memory-mb: must be a whole number of MiB from 64 to 1048576, or 0 "
         "for no limit, got '10'"),
        ((*EVAL, "--agent-memory-mb", "-1"), "argument --agent-memory-mb: must be a whole number"),
        ((*RUN, "--agent-memory-mb", "2g"), "argument --agent-memory-mb: must be a whole number"),
        ((*RUN, "--agent-max-processes", "-1"),
         "argument --agent-max-processes: must be a whole number from 1 to 1048576, or 0 for "
         "no limit, got '-1'"),
        ((*EVAL, "--agent-disk-mb", "1e9"), "argument --agent-disk-mb: must be a whole number"),
        ((*RUN, "--agent-cpu-s", "9999999"), "argument --agent-cpu-s: must be a whole number"),
    ],
)
def test_bad_flag_is_a_usage_error(capsys, argv, fragment):
    err = usage_error(capsys, *argv)
    assert fragment in err, err


def test_good_flags_still_parse():
    args = build_parser().parse_args(
        [*EVAL, "--seeds", "3", "--jobs", "64", "--levels", "outpost,exit_switch",
         "--difficulties", "all", "--episode-timeout", "0.5", "--max-invalid", "1",
         "--agent-memory-mb", "0", "--require-sandbox", "--no-agent-network"])
    assert (args.seeds, args.jobs, args.episode_timeout, args.max_invalid) == (3, 64, 0.5, 1)
    assert (args.agent_memory_mb, args.require_sandbox, args.agent_network) == (0, True, False)
    defaults = build_parser().parse_args(list(RUN))
    assert (defaults.agent_memory_mb, defaults.require_sandbox, defaults.agent_network) == (
        2048, False, True)
    limits = build_parser().parse_args([*RUN, "--agent-max-processes", "8", "--agent-disk-mb",
                                        "0", "--agent-cpu-s", "30"])
    assert settings_from_arguments(limits).sandbox_limits() == {
        "disk_limit_mb": 0, "max_processes": 8, "cpu_s": 30}


@pytest.mark.parametrize("command", [RUN, EVAL])
def test_out_that_is_a_file(tmp_path, capsys, command):
    blocker = tmp_path / "taken"
    blocker.write_text("", encoding="utf-8")
    assert main([*command, "--out", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert err == f"harness {command[0]}: --out {blocker}: {blocker} is a file, not a folder\n"


def test_out_below_a_file(tmp_path, capsys):
    blocker = tmp_path / "taken"
    blocker.write_text("", encoding="utf-8")
    assert main([*RUN, "--out", str(blocker / "runs")]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write in a read-only folder")
@pytest.mark.parametrize("command", [RUN, EVAL])
def test_out_in_a_read_only_folder(tmp_path, capsys, command):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        assert main([*command, "--out", str(folder / "out")]) == 2
    finally:
        folder.chmod(0o755)
    err = capsys.readouterr().err
    assert err.startswith(f"harness {command[0]}: --out {folder / 'out'}: cannot write in")
    assert err.count("\n") == 1


# One error main returns in the quick subset; argparse's own exit (the other two, which
# test_bad_flag_is_a_usage_error checks in-process) through a real process in the whole suite.
@pytest.mark.parametrize(("argv", "fragment"), [
    ((*EVAL, "--out", "{blocker}"), "is a file, not a folder"),
    pytest.param((*RUN, "--seed", "-5"), "argument --seed: must be a whole number of 0 or more",
                 marks=pytest.mark.slow),
    pytest.param((*EVAL, "--jobs", "1000"), "argument --jobs: must be a whole number from 1 to 64",
                 marks=pytest.mark.slow),
])
def test_usage_errors_exit_2_from_the_command_line(tmp_path, argv, fragment):
    blocker = tmp_path / "taken"
    blocker.write_text("", encoding="utf-8")
    argv = [arg.format(blocker=blocker) for arg in argv]
    result = subprocess.run([sys.executable, "-m", "harness.cli", *argv], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [RUN, EVAL])
def test_out_where_nothing_can_be_written(tmp_path, capsys, monkeypatch, command):
    # Stands in for a read-only folder, which the tests cannot make when run as root.
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("harness.episode.settings.tempfile.TemporaryFile", refuse)
    out = tmp_path / "out"
    assert main([*command, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    expected = f"--out {out}: cannot write in {tmp_path}: Permission denied"
    assert err == f"harness {command[0]}: {expected}\n"
    assert not out.exists()
