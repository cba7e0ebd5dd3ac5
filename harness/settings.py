"""The settings of one run, with the defaults PROTOCOL.md documents."""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass
from typing import Any


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
    """

    hello_timeout_s: float = 60.0
    decision_timeout_s: float = 120.0
    episode_timeout_s: float = 3600.0
    max_invalid_in_a_row: int = 5
    max_line_bytes: int = 1 << 20
    stderr_cap_bytes: int = 8 << 20
    grace_s: float = 2.0
    env_passthrough: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON data, for the record header."""
        data = dataclasses.asdict(self)
        data["env_passthrough"] = list(self.env_passthrough)
        return data


def add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options every command that plays an agent shares (run, eval)."""
    defaults = RunSettings()
    parser.add_argument("--agent", required=True, help="agent command line (any executable)")
    parser.add_argument("--hello-timeout", type=float, default=defaults.hello_timeout_s,
                        help="wall seconds to wait for hello (default %(default)s)")
    parser.add_argument("--decision-timeout", type=float, default=defaults.decision_timeout_s,
                        help="wall seconds per decision (default %(default)s)")
    parser.add_argument("--episode-timeout", type=float, default=defaults.episode_timeout_s,
                        help="wall seconds for the whole episode (default %(default)s)")
    parser.add_argument("--max-invalid", type=int, default=defaults.max_invalid_in_a_row,
                        help="invalid actions in a row that end the episode (default %(default)s)")
    parser.add_argument("--pass-env", action="append", default=[], metavar="NAME",
                        help="pass this environment variable to the agent (repeatable)")


def settings_from_arguments(args: argparse.Namespace) -> RunSettings:
    """The run settings the shared agent options ask for."""
    return RunSettings(
        hello_timeout_s=args.hello_timeout,
        decision_timeout_s=args.decision_timeout,
        episode_timeout_s=args.episode_timeout,
        max_invalid_in_a_row=args.max_invalid,
        env_passthrough=tuple(args.pass_env),
    )
