"""The `harness` command line: one subcommand per module, registered in one table."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from harness import stopping

# Subcommand name -> (module that defines `add_arguments(parser)` and `run(args) -> int`, help);
# `package.module:name` names a module the world's face offers.
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("harness.check_cmd", "Validate level files and report their size."),
    "navmesh-bench": ("world.face:navmesh_bench", "Run pathfinding scenarios on a mesh."),
    "run": ("harness.run_cmd", "Play one episode with an agent and write its record."),
    "replay": ("harness.replay_cmd", "Re-simulate a record and compare state hashes."),
    "page": ("harness.page_cmd", "Render run pages from records (one run or a directory)."),
    "eval": ("harness.eval_cmd", "Play a suite of levels, difficulties and seeds; tabulate it."),
    "compare": ("harness.compare_cmd", "Put several agents' suites side by side."),
    "export": ("harness.export_cmd", "Write a level, or a run's level and path, as a 3D model."),
    "generate": ("harness.generate_cmd", "Write a level generated from a template and a seed."),
    "templates": ("harness.templates_cmd", "List the mission templates and their parameters."),
    "annotate": ("harness.annotate_cmd", "Write a record's instruction pyramid as JSON."),
    "quiz": ("harness.quiz_cmd", "Build, check and ask the offline track's questions."),
}


def _command_module(ref: str) -> Any:
    module_name, _, attribute = ref.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every registered subcommand."""
    parser = argparse.ArgumentParser(prog="harness", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        module = _command_module(module_name)
        command = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status.

    SIGINT and SIGTERM stop any command without a traceback, with status 130 or 143.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    with stopping.installed():
        try:
            args = build_parser().parse_args(words)
            return int(args._run(args))
        except stopping.Interrupted as stop:
            name = f"harness {words[0]}" if words else "harness"
            print(f"{name}: interrupted by {stop.name}", file=sys.stderr)
            return stop.exit_status


if __name__ == "__main__":
    sys.exit(main())
