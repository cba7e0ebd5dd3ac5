"""The settings of one run, with the defaults PROTOCOL.md documents."""

from __future__ import annotations

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
