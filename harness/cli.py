"""The `harness` command line: one subcommand per module, registered in one table."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import select
import signal
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from harness.core import stopping
from harness.core.protocol import PROTOCOL_VERSION
from harness.core.version import package_version

# A closed pipe (`harness templates --json | head -1`) ends the command as it ends `cat`:
# quietly, with the status a shell reports for a process stopped by SIGPIPE.
BROKEN_PIPE_STATUS = 128 + signal.SIGPIPE


@dataclass(frozen=True)
class Command:
    """A subcommand: the module with `add_arguments(parser)` and `run(args) -> int`.

    Attributes:
        module: `package.module`, or `package.module:name` for a module the world's face offers.
        help: One line for the command list and the top of its `--help`.
        example: One command line that works from a clone, shown at the end of its `--help`.
    """

    module: str
    help: str
    example: str


COMMANDS: dict[str, Command] = {
    "check": Command("harness.levels.check_cmd", "Validate level files and report their size.",
                     "harness check levels/ doom:t01_e1m1_exit"),
    "navmesh-bench": Command("world.face:navmesh_bench", "Run pathfinding scenarios on a mesh.",
                             "harness navmesh-bench tests/data/navmesh/arena.mesh "
                             "tests/data/navmesh/arena.scen"),
    "run": Command("harness.episode.run_cmd", "Play one episode with an agent and write its record "
                   "(in a new run directory under ./runs unless --out says otherwise).",
                   "harness run outpost --agent agents/wait_agent.sh"),
    "play": Command("harness.play.play_cmd", "Play a level yourself, in the terminal or (--web) "
                    "a browser; recorded like any agent, compared as a human.",
                    "harness play outpost --name ada --difficulty easy"),
    "match": Command("harness.match.cli", "Play one match of several agents in one world "
                     "(the multiplayer track) and write its record.",
                     "harness match duel_yard --agent agents/greedy_agent.py "
                     "--agent agents/random_agent.py"),
    "tournament": Command("harness.ladder.tournament_cmd", "Play a round robin of matches: "
                          "every pair of agents on every level and seed, seats swapped; "
                          "resumable.",
                          "harness tournament --agent agents/greedy_agent.py "
                          "--agent agents/random_agent.py --levels duel_yard --seeds 2 "
                          "--out tournament"),
    "ladder": Command("harness.ladder.ladder_cmd", "Rate agents over match records that "
                      "replay (openskill); write a leaderboard.",
                      "harness ladder tournament --out tournament"),
    "replay": Command("harness.replay_cmd",
                      "Re-simulate a record and compare state hashes.",
                      "harness replay runs/RUN_ID"),
    "page": Command("harness.page_cmd", "Render run pages from records (one run or a directory).",
                    "harness page runs"),
    "eval": Command("harness.suite.eval_cmd",
                    "Play a suite of levels, difficulties and seeds; tabulate it.",
                    "harness eval --agent agents/reference_agent.py --levels outpost --seeds 2 "
                    "--out eval"),
    "compare": Command("harness.compare.compare_cmd", "Put several agents' suites side by side.",
                       "harness compare eval_a eval_b --out comparison"),
    "export": Command("harness.levels.export_cmd",
                      "Write a level, or a run's level and path, as a 3D model.",
                      "harness export outpost --format obj"),
    "generate": Command("harness.levels.generate_cmd",
                        "Write a level generated from a template and a seed.",
                        "harness generate maze --seed 3"),
    "templates": Command("harness.levels.templates_cmd",
                         "List the mission templates and their parameters.",
                         "harness templates --json"),
    "levels": Command("harness.levels.levels_cmd",
                      "List the shipped levels, Doom missions and templates.",
                      "harness levels --json"),
    "doctor": Command("harness.doctor_cmd",
                      "Say what is installed and what is missing (sandbox, Chromium, extras).",
                      "harness doctor --json"),
    "annotate": Command("harness.offline.annotate_cmd",
                        "Write a record's instruction pyramid as JSON.",
                        "harness annotate runs/RUN_ID --out pyramid.json"),
    "quiz": Command("harness.offline.quiz_cmd",
                    "Build, check and ask the offline track's questions.",
                    "harness quiz build runs --out quiz.json.gz"),
    "tools": Command("harness.mcp.tools_cmd", "Print the action tools in a model API's dialect.",
                     "harness tools --format openai-strict"),
    "mcp": Command("harness.mcp.mcp_cmd",
                   "Serve one episode over MCP: the MCP client is the agent.",
                   "harness mcp outpost --difficulty easy"),
    "dataset": Command("harness.offline.dataset_cmd",
                       "Write fine-tuning rows (chat format) from finished runs, split by level.",
                       "harness dataset runs --format chat --out dataset"),
}


def _bare_eval() -> str:
    # Counted from the shipped levels, so the figure follows the levels folder.
    from harness.levels.levels_cmd import shipped_rows  # start-up cost: only to build this text

    rows, _ = shipped_rows()
    episodes = sum(len(r.difficulties) for r in rows) * 10
    return (f"With no --levels, --difficulties or --seeds it plays every shipped level "
            f"({len(rows)}) on each of its difficulties with seeds 0 to 9: {episodes} "
            "episodes, written under ./eval.")


# Notes worked out when the parser is built, added to a command's description.
NOTES: dict[str, Callable[[], str]] = {"eval": _bare_eval}


class DefaultsFormatter(argparse.HelpFormatter):
    """Help that shows each option's default, unless its help already speaks of one.

    Descriptions are wrapped line by line; an indented line (an example) is kept whole.
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line if line.startswith("  ") else
                         textwrap.fill(line, width, initial_indent=indent,
                                       subsequent_indent=indent)
                         for line in text.splitlines())

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if (not action.option_strings or "default" in text.lower()
                or action.default in (None, False, True, argparse.SUPPRESS, [])):
            return text
        return f"{text} (default: %(default)s)"


def _command_module(ref: str) -> Any:
    module_name, _, attribute = ref.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


def _format_nested(parser: argparse.ArgumentParser) -> None:
    # A command's own subcommands (quiz build/check/run) show their defaults too.
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                child.formatter_class = DefaultsFormatter
                _format_nested(child)


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="harness", description=__doc__, formatter_class=DefaultsFormatter,
        epilog="Start with `harness levels`, then `harness run outpost --agent "
               "agents/wait_agent.sh` (runs go to ./runs); `harness doctor` says what is "
               "installed. `harness COMMAND --help` shows each command's defaults and an example.")
    parser.add_argument("--version", action="version",
                        version=f"harness {package_version()} (protocol version "
                                f"{PROTOCOL_VERSION})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, spec in COMMANDS.items():
        module = _command_module(spec.module)
        note = NOTES[name]() if name in NOTES else ""
        command = sub.add_parser(name, help=spec.help,
                                 description=f"{spec.help} {note}".strip(),
                                 epilog=f"example:\n  {spec.example}",
                                 formatter_class=DefaultsFormatter)
        module.add_arguments(command)
        _format_nested(command)
        command.set_defaults(_run=module.run)
    return parser


def _stdout_closed() -> bool:
    # Only a reader gone from standard output ends quietly: a broken pipe to an agent
    # (which the episode code handles) must never be mistaken for it and hidden.
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def _quiet_stdout() -> None:
    # The reader is gone: later writes (and the flush at exit) go nowhere instead of failing.
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status.

    SIGINT and SIGTERM stop any command without a traceback, with status 130 or 143; a
    closed standard output (a pipe into `head`) ends it quietly with status 141.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    with stopping.installed():
        try:
            args = build_parser().parse_args(words)
            status = int(args._run(args))
            sys.stdout.flush()  # here, so a closed pipe is met inside the try
            return status
        except BrokenPipeError:
            if not _stdout_closed():
                raise
            _quiet_stdout()
            return BROKEN_PIPE_STATUS
        except stopping.Interrupted as stop:
            name = f"harness {words[0]}" if words else "harness"
            print(f"{name}: interrupted by {stop.name}", file=sys.stderr)
            return stop.exit_status


if __name__ == "__main__":
    sys.exit(main())
