"""The settings of one run, with the defaults PROTOCOL.md documents."""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.agent.pacing import Pace
from harness.agent.sandbox import bubblewrap_problem

# Most episodes `harness eval --jobs` plays at once; more only thrashes the machine.
MAX_JOBS = 64
# Bounds of --agent-memory-mb: below 64 MiB no interpreter starts; 1 TiB is no limit at all.
MIN_AGENT_MEMORY_MB, MAX_AGENT_MEMORY_MB = 64, 1 << 20


@dataclass(frozen=True)
class RunSettings:
    """Wall-clock limits and channel limits for one episode.

    The defaults suit LLM agents: a minute to load a model and say hello, two minutes
    per decision, an hour for the whole episode.

    Attributes:
        hello_timeout_s: Wall seconds from start to hello.
        decision_timeout_s: Wall seconds from an observation to its action.
        episode_timeout_s: Wall seconds for the whole episode, hello included.
        max_invalid_in_a_row: Invalid actions in a row that end the episode.
        max_line_bytes: Longest line accepted from the agent.
        stderr_cap_bytes: Bytes of the agent's stderr kept in its log.
        grace_s: Seconds the agent gets to exit after the summary, and after SIGTERM.
        env_passthrough: Environment variable names passed on to the agent.
        agent_memory_mb: The agent's address-space limit in MiB (0 for none).
        require_sandbox: Refuse to play when bubblewrap cannot sandbox the agent.
        agent_network: Let the agent use the host's network (False needs the sandbox).
        agent_disk_mb: Size in MiB of its working folder and of its /tmp (0: unbounded).
        agent_max_processes: Its processes running at once (0 for no limit).
        agent_cpu_s: CPU seconds of each of its processes (0 for no limit).
        turn_pace_ms_per_tick: Wall milliseconds per game tick of an action before the
            next observation may go out, counted from the action's line (0: no pace;
            harness.agent.pacing).
        turn_floor_ms: Wall milliseconds every turn lasts at least, the same way (0: none).
    """

    hello_timeout_s: float = 60.0
    decision_timeout_s: float = 120.0
    episode_timeout_s: float = 3600.0
    max_invalid_in_a_row: int = 5
    max_line_bytes: int = 1 << 20
    stderr_cap_bytes: int = 8 << 20
    grace_s: float = 2.0
    env_passthrough: tuple[str, ...] = ()
    agent_memory_mb: int = 2048
    require_sandbox: bool = False
    agent_network: bool = True
    agent_disk_mb: int = 512
    agent_max_processes: int = 128
    agent_cpu_s: int = 0
    turn_pace_ms_per_tick: float = 0.0
    turn_floor_ms: float = 0.0

    def sandbox_limits(self) -> dict[str, int]:
        """The agent's limits beyond memory, as `harness.agent.sandbox.plan` takes them."""
        return {"disk_limit_mb": self.agent_disk_mb, "max_processes": self.agent_max_processes,
                "cpu_s": self.agent_cpu_s}

    @property
    def pace(self) -> Pace:
        """The turn pace these settings ask for."""
        return Pace(self.turn_pace_ms_per_tick, self.turn_floor_ms)

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON data, for the record header."""
        data = dataclasses.asdict(self)
        data["env_passthrough"] = list(self.env_passthrough)
        # Unpaced runs state no pace, so their settings read as those written before
        # pacing existed (a suite's earlier runs are still its own on resume).
        for name in _PACE_FIELDS:
            if not data[name]:
                del data[name]
        return data


_PACE_FIELDS = ("turn_pace_ms_per_tick", "turn_floor_ms")


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {text!r}")
    return value


def _milliseconds(text: str, most: float) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0 <= value <= most:
        raise argparse.ArgumentTypeError(
            f"must be a number of milliseconds from 0 (no pacing) to {most:g}, got {text!r}")
    return value


def pace_per_tick(text: str) -> float:
    """An argparse type: wall milliseconds per game tick, from 0 (none) to 1000.

    1000 ms a tick already plays 30 times slower than real time; more is a typo.
    """
    return _milliseconds(text, 1000)


def pace_floor(text: str) -> float:
    """An argparse type: wall milliseconds a turn lasts at least, from 0 (none) to 60000."""
    return _milliseconds(text, 60000)


def _whole(text: str, allowed: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}") from None


def positive_int(text: str) -> int:
    """An argparse type: a whole number of 1 or more."""
    value = _whole(text, "a whole number of 1 or more")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of 1 or more, got {text!r}")
    return value


def seed_number(text: str) -> int:
    """An argparse type: a seed, a whole number of 0 or more."""
    value = _whole(text, "a whole number of 0 or more")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number of 0 or more, got {text!r}")
    return value


def jobs_number(text: str) -> int:
    """An argparse type: episodes at once, from 1 to MAX_JOBS."""
    allowed = f"a whole number from 1 to {MAX_JOBS}"
    value = _whole(text, allowed)
    if not 1 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
    return value


def cpu_share(text: str) -> float:
    """An argparse type: CPUs one episode reserves on a Ray worker, above 0 and at most 64."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0 < value <= 64:
        raise argparse.ArgumentTypeError(
            f"must be a number of CPUs above 0 and at most 64 (e.g. 0.5 or 2), got {text!r}")
    return value


def memory_mb(text: str) -> int:
    """An argparse type: MiB of address space for the agent, or 0 for no limit."""
    allowed = (f"a whole number of MiB from {MIN_AGENT_MEMORY_MB} to {MAX_AGENT_MEMORY_MB}, "
               "or 0 for no limit")
    value = _whole(text, allowed)
    if value != 0 and not MIN_AGENT_MEMORY_MB <= value <= MAX_AGENT_MEMORY_MB:
        raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
    return value


def limit_or_zero(text: str) -> int:
    """An argparse type: a limit from 1 to 2**20, or 0 for none."""
    allowed = "a whole number from 1 to 1048576, or 0 for no limit"
    value = _whole(text, allowed)
    if not 0 <= value <= 1 << 20:
        raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
    return value


def id_list(text: str) -> str:
    """An argparse type: 'all' or comma-separated ids, none empty and none twice."""
    if text == "all":
        return text
    ids = [s.strip() for s in text.split(",")]
    if not ids or any(not i for i in ids):
        raise argparse.ArgumentTypeError(f"must be 'all' or comma-separated ids with none "
                                         f"empty, got {text!r}")
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise argparse.ArgumentTypeError(f"names {', '.join(twice)} more than once")
    return text


def out_problem(out: str | Path) -> str | None:
    """Why an output folder cannot be used (a file is in the way, nowhere to write), or None.

    Nothing is created: the nearest existing folder on the way is probed with a temporary file.
    """
    out = Path(out)
    probe = out
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        return f"--out {out}: {probe} is a file, not a folder"
    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as exc:
        return f"--out {out}: cannot write in {probe}: {exc.strerror or exc}"
    return None


def add_turn_limits(parser: argparse.ArgumentParser) -> None:
    """Declare the decision and episode timeouts and the invalid-action limit."""
    defaults = RunSettings()
    parser.add_argument("--decision-timeout", type=positive_seconds,
                        default=defaults.decision_timeout_s,
                        help="wall seconds per decision (default %(default)s)")
    parser.add_argument("--episode-timeout", type=positive_seconds,
                        default=defaults.episode_timeout_s,
                        help="wall seconds for the whole episode (default %(default)s)")
    parser.add_argument("--max-invalid", type=positive_int, default=defaults.max_invalid_in_a_row,
                        help="invalid actions in a row that end the episode (default %(default)s)")


def add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options every command that plays an agent shares (run, eval)."""
    defaults = RunSettings()
    parser.add_argument("--agent", required=True, help="agent command line (any executable)")
    parser.add_argument("--hello-timeout", type=positive_seconds, default=defaults.hello_timeout_s,
                        help="wall seconds to wait for hello (default %(default)s)")
    add_turn_limits(parser)
    parser.add_argument("--pass-env", action="append", default=[], metavar="NAME",
                        help="pass this environment variable to the agent (repeatable)")
    parser.add_argument("--agent-memory-mb", type=memory_mb, default=defaults.agent_memory_mb,
                        help="the agent's address-space limit in MiB, 0 for none "
                             "(default %(default)s)")
    parser.add_argument("--agent-disk-mb", type=limit_or_zero, default=defaults.agent_disk_mb,
                        help="size in MiB of the agent's working folder and of its /tmp, each "
                             "held in memory, 0 for unbounded (default %(default)s)")
    parser.add_argument("--agent-max-processes", type=limit_or_zero,
                        default=defaults.agent_max_processes,
                        help="the agent's processes running at once, 0 for no limit "
                             "(default %(default)s)")
    parser.add_argument("--agent-cpu-s", type=limit_or_zero, default=defaults.agent_cpu_s,
                        help="CPU seconds of each of the agent's processes, 0 for no limit "
                             "(default %(default)s)")
    parser.add_argument("--require-sandbox", action="store_true",
                        help="refuse to play unless bubblewrap can sandbox the agent")
    parser.add_argument("--no-agent-network", dest="agent_network", action="store_false",
                        help="give the agent no network at all (needs the sandbox)")
    parser.add_argument("--turn-pace", type=pace_per_tick, metavar="MS_PER_TICK",
                        default=defaults.turn_pace_ms_per_tick,
                        help="hold each observation until this many wall milliseconds per game "
                             "tick of the action (plus --turn-floor) after the action's line, "
                             "so the agent's timing shows nothing of the unseen world; 0 for "
                             "none (default %(default)s; see PROTOCOL.md)")
    parser.add_argument("--turn-floor", type=pace_floor, metavar="MS",
                        default=defaults.turn_floor_ms,
                        help="wall milliseconds every turn lasts at least, counted the same "
                             "way; 0 for none (default %(default)s)")


def settings_from_arguments(args: argparse.Namespace) -> RunSettings:
    """The run settings the shared agent options ask for."""
    return RunSettings(
        hello_timeout_s=args.hello_timeout,
        decision_timeout_s=args.decision_timeout,
        episode_timeout_s=args.episode_timeout,
        max_invalid_in_a_row=args.max_invalid,
        env_passthrough=tuple(args.pass_env),
        agent_memory_mb=args.agent_memory_mb,
        agent_disk_mb=args.agent_disk_mb,
        agent_max_processes=args.agent_max_processes,
        agent_cpu_s=args.agent_cpu_s,
        require_sandbox=args.require_sandbox,
        agent_network=args.agent_network,
        turn_pace_ms_per_tick=args.turn_pace,
        turn_floor_ms=args.turn_floor,
    )


def sandbox_notice(settings: RunSettings) -> tuple[str | None, str | None]:
    """What to tell the operator about the agent's sandbox before playing.

    Returns:
        (error, warning): an error when the sandbox is required but unusable, a one-line
        warning when the agent will run without it; both None when it is sandboxed.
    """
    problem = bubblewrap_problem()
    if problem is None:
        return None, None
    if settings.require_sandbox:
        return f"--require-sandbox: the agent cannot be sandboxed: {problem}", None
    if not settings.agent_network:
        return f"--no-agent-network needs the agent sandbox: {problem}", None
    return None, (f"the agent is NOT sandboxed ({problem}): it runs in its own process "
                  "group with a scrubbed environment and can read what this user can")


def refuse_to_start(command: str, settings: RunSettings, out: str | Path) -> bool:
    """Say why `harness COMMAND` cannot start, or that the agent is not sandboxed.

    Returns:
        True when the command must stop with status 2 (an unusable --out, or a sandbox
        that is required but cannot be made); the reason is on standard error.
    """
    problem = out_problem(out)
    refused, warning = sandbox_notice(settings)
    if problem or refused:
        print(f"harness {command}: {problem or refused}", file=sys.stderr)
        return True
    if warning:
        print(f"harness {command}: {warning}", file=sys.stderr)
    return False
