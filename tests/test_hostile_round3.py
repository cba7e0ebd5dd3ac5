"""A third hostile round: what an outsider's agent or file could still do, and that it fails.

Each test is one attack found by agents written from PROTOCOL.md alone (or files made by
a stranger), kept cheap: the file attacks need no sandbox; the agent attacks run the real
launcher inside bubblewrap on the fake game, and are skipped where it cannot run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from harness.agent.sandbox import bubblewrap_problem
from harness.agent.sandbox_fs import MountPlan
from harness.compare.results import CompareError, load_episodes
from harness.core.keys import parse_secret, secret_files
from harness.core.record import RecordError, read_record
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.level_factory import short_copy
from tests.runner_fakes import FakeGame
from tests.shared import SHIPPED_AGENTS, TEST_AGENTS

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, episode_timeout_s=60,
                   grace_s=0.2, env_passthrough=())
needs_bwrap = pytest.mark.skipif(bubblewrap_problem() is not None,
                                 reason=f"no agent sandbox here: {bubblewrap_problem()}")
BIG_INT = "9" * 5000  # past Python's 4300-digit limit: json.loads raises ValueError


def settings(**changes: object) -> RunSettings:
    return RunSettings(**{**FAST.to_dict(), **changes})


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("turn", [
    '{"kind":"turn","turn":' + BIG_INT + '}',
    '{"kind":"turn","turn":NaN}',
    '{"kind":"turn","tick":Infinity}',
], ids=["huge_int", "nan", "infinity"])
def test_a_record_line_with_a_huge_integer_or_nan_is_refused_in_one_line(
    tmp_path: Path, turn: str
) -> None:
    # Before: ValueError escaped read_record, a traceback in replay (exit 1, "diverged"),
    # page, annotate, export, dataset and quiz build.
    header = json.dumps({"kind": "header", "schema_version": 1})
    path = write_lines(tmp_path / "record.jsonl", [header, turn, '{"kind":"end"}'])
    with pytest.raises(RecordError, match=r"record.jsonl:2: not a record line"):
        read_record(path)


@pytest.mark.parametrize(("line", "said"), [
    ('{"kind":"header","schema_version":1,"start":"x"}', "header field 'start' is not an object"),
    ('{"kind":"header","schema_version":1,"hello":[]}', "header field 'hello' is not an object"),
    ('{"kind":"turn","turn":0,"observation":"x"}', "turn field 'observation' is not an object"),
    ('{"kind":"turn","turn":"x"}', "turn field 'turn' is not a whole number"),
])
def test_a_record_line_of_the_wrong_shape_is_refused_once_for_every_reader(
    tmp_path: Path, line: str, said: str
) -> None:
    # Before: page, annotate, quiz build and export each crashed with a traceback.
    header = '{"kind":"header","schema_version":1}'
    lines = [line] if '"header"' in line else [header, line]
    with pytest.raises(RecordError, match=said):
        read_record(write_lines(tmp_path / "record.jsonl", lines))


def test_results_with_a_huge_integer_are_refused_by_compare(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    results.write_text('{"suite": {"agent": "x"}, "episodes": [], "n": ' + BIG_INT + "}",
                       encoding="utf-8")
    with pytest.raises(CompareError, match="not readable as JSON"):
        load_episodes([results])


def test_a_record_naming_a_difficulty_its_level_lacks_is_unusable_not_a_crash(
    tmp_path: Path,
) -> None:
    level = short_copy(tmp_path / "level", "outpost", 2)
    summary = run(str(level), f"sh {SHIPPED_AGENTS / 'wait_agent.sh'}", out_dir=tmp_path / "runs",
                  settings=FAST, game_factory=FakeGame)
    record = read_record(summary["run_dir"])
    lines = [json.dumps({**record.header, "difficulty": "nightmare"}),
             *(json.dumps(t) for t in record.turns), json.dumps(record.end)]
    path = write_lines(tmp_path / "record.jsonl", lines)
    with pytest.raises(RecordError, match="difficulty 'nightmare' is not one of its level's"):
        replay(path, game_factory=FakeGame)


def test_a_program_in_tmp_or_beside_the_seal_key_is_bound_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: /tmp was bound whole over the agent's private /tmp (the host's /tmp shown,
    # its disk counted as the agent's memory), and a key folder beside the agent was shown.
    program = Path("/tmp/hostile_round3_probe.py")
    args = MountPlan(tmp_path / "work", ()).build([sys.executable, str(program)])
    assert "/tmp" not in [args[i + 1] for i, a in enumerate(args) if a == "--ro-bind"]
    folder = tmp_path / "bench"
    (folder / "state").mkdir(parents=True)
    (folder / "agent.py").write_text("pass\n", encoding="utf-8")
    monkeypatch.setenv("XDG_STATE_HOME", str(folder / "state"))
    args = MountPlan(tmp_path / "work", ()).build([sys.executable, str(folder / "agent.py")])
    bound = [args[i + 1] for i, a in enumerate(args) if a == "--ro-bind"]
    assert str(folder) not in bound and str(folder / "agent.py") in bound


def test_the_sandbox_root_and_dev_are_read_only_and_dev_shm_is_bounded(tmp_path: Path) -> None:
    args = MountPlan(tmp_path / "work", (), 64).build([sys.executable])
    assert args[-2:] == ["--remount-ro", "/"]
    shm = args.index("/dev/shm")
    assert args[shm - 3:shm + 3] == ["--size", str(64 << 20), "--tmpfs", "/dev/shm",
                                     "--remount-ro", "/dev"]


def agent(*args: str) -> str:
    return f"{sys.executable} {TEST_AGENTS / 'hostile_round3_agent.py'} {' '.join(args)}"


@needs_bwrap
def test_threads_count_against_the_process_limit(tmp_path: Path) -> None:
    # Before: 300 threads in one process passed a limit of 8; each takes a host pid, so
    # a few tens of thousands exhaust kernel.pid_max for the whole machine.
    summary = run("outpost", agent("threads", "60"), out_dir=tmp_path,
                  settings=settings(agent_max_processes=8), game_factory=FakeGame)
    assert summary["outcome"] == "resource_limit"
    assert summary["agent_error"]["kind"] == "processes_limit"


@needs_bwrap
@pytest.mark.parametrize("where", ["/dev/shm/hold", "/hold", "/etc/hold"])
def test_files_outside_its_counted_folders_cannot_hold_memory(tmp_path: Path, where: str) -> None:
    # Before: 300 MiB held in /dev/shm or the sandbox's root tmpfs under a 128 MiB limit.
    summary = run("outpost", agent("file", where, "200"), out_dir=tmp_path,
                  settings=settings(agent_memory_mb=128), game_factory=FakeGame)
    log = Path(summary["stderr_log"]).read_text(encoding="utf-8")
    if where.startswith("/dev/shm"):  # a tmpfs of its own, counted as its memory
        assert summary["outcome"] == "resource_limit"
        assert summary["agent_error"]["kind"] == "memory_limit"
    else:  # the root's tmpfs is read-only
        assert "HELD" not in log and "REFUSED 30" in log


@needs_bwrap
def test_memfd_and_system_v_memory_are_refused(tmp_path: Path) -> None:
    # Before: 300 MiB in a memfd and 384 MiB in detached System V segments were held
    # under a 128 MiB limit: memory in no process's resident set and in no counted tmpfs.
    summary = run("outpost", agent("memfd"), out_dir=tmp_path, settings=FAST,
                  game_factory=FakeGame)
    log = Path(summary["stderr_log"]).read_text(encoding="utf-8")
    assert "REFUSED 1" in log and "SHM REFUSED 1" in log and "HELD" not in log


def test_a_secret_file_beside_the_agent_is_never_shown_with_its_folder(tmp_path: Path) -> None:
    # Before: `--secret FILE` with the agent's program in the same folder bound the folder
    # whole, the secret with it; so did a suite's secret or a reference cache kept there.
    folder = tmp_path / "bench"
    folder.mkdir()
    (folder / "agent.py").write_text("pass\n", encoding="utf-8")
    secret = folder / "mysecret"
    secret.write_text("ab" * 16, encoding="utf-8")
    hidden = secret_files(str(secret))
    assert hidden == (secret,) and secret_files("ab" * 16) == () and secret_files(None) == ()
    args = MountPlan(tmp_path / "work", hidden).build([sys.executable, str(folder / "agent.py")])
    bound = [args[i + 1] for i, a in enumerate(args) if a == "--ro-bind"]
    assert str(folder) not in bound and str(folder / "agent.py") in bound


@needs_bwrap
def test_a_sandboxed_agent_cannot_read_the_secret_it_was_played_with(tmp_path: Path) -> None:
    folder = tmp_path / "bench"
    folder.mkdir()
    secret = folder / "mysecret"
    secret.write_text("cd" * 16, encoding="utf-8")
    probe = folder / "probe.py"
    probe.write_text(
        "import sys\n"
        f"try:\n    open({str(secret)!r}).read()\n    print('READ', file=sys.stderr)\n"
        "except OSError:\n    print('DENIED', file=sys.stderr)\n", encoding="utf-8")
    summary = run("outpost", f"{sys.executable} {probe}", out_dir=tmp_path / "runs",
                  settings=settings(require_sandbox=True), game_factory=FakeGame,
                  secret=parse_secret(str(secret)), hidden=secret_files(str(secret)))
    log = Path(summary["stderr_log"]).read_text(encoding="utf-8")
    assert "DENIED" in log and "READ" not in log
