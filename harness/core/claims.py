"""What a record claims beside the world's states: usage totals, the hello, the start point.

Replay re-derives the world's claims by playing the actions again (harness.episode.replay).
The claims here come from the agent's own lines or from where the episode began, and
are re-derived from what the record holds: the usage totals from the turns' actions,
the hello from the hello line the agent sent (kept whole in the header), the start
point from the snapshot the header carries. `UNVERIFIED` lists, once, the fields no
replay can re-derive; `harness replay` names them and PROTOCOL.md's "What a record
proves" table is built from the same list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from harness.core.protocol import USAGE_FIELDS, Parsed, parse_agent_line

# Record fields that replay takes on the record's word, and why it cannot do better.
UNVERIFIED: dict[str, str] = {
    "isolation": "how the agent process was run (sandbox, memory cap, network); nothing "
                 "in the turns shows it, so a page shows it as the record's claim",
    "agent_command": "the command line the harness ran; the turns do not show who answered",
    "agent_argv": "the argument vector the command became; as for agent_command",
    "harness_version": "the version string the harness wrote",
    "settings": "the timeouts and bounds in force (replay reads max_invalid_in_a_row "
                "only to judge a protocol_error ending)",
    "level_source": "the file or name the level was read from (its content hash is checked)",
    "wall_s": "wall-clock times (wall_s, agent_wall_s, harness_ms) are measurements, "
              "not simulation",
    "pace": "the turn pacing's counts (messages held, overruns): wall-clock measurements "
            "like wall_s",
    "stderr_dropped_bytes": "bytes of the agent's stderr log dropped by the cap",
    "agent_error": "the plain-words account of the agent's fault (its outcome is re-derived)",
    "observation": "of each turn's observation, only `view` is re-derived; the text view, "
                   "the time left and the warnings are the record's word",
    "raw_action": "the agent's raw line (clipped); the parsed `action` is what replay plays",
    "result": "of each action's result only `path` is re-derived; the events and the rest "
              "follow from the state, whose hash is checked",
}


def add_usage(sums: dict[str, float], usage: Any) -> None:
    """Add one decision's self-reported usage (any shape; only numbers count) to sums."""
    if not isinstance(usage, Mapping):
        return
    for name, value in usage.items():
        if isinstance(value, int | float):
            sums[name] = sums.get(name, 0) + value
            sums[name + "_reported"] = sums.get(name + "_reported", 0) + 1


def usage_totals(sums: Mapping[str, float], decisions: int) -> dict[str, Any]:
    """The end line's usage block from the sums; a figure no decision reported stays null."""
    out: dict[str, Any] = {"self_reported": True}
    for name in USAGE_FIELDS:
        out[name] = round(sums[name], 6) if name in sums else None
        out[name + "_decisions"] = int(sums.get(name + "_reported", 0))
    out["decisions"] = decisions
    return out


def rederived_usage(turns: Iterable[Mapping[str, Any]], decisions: int) -> dict[str, Any]:
    """The usage block the turns' recorded actions support, summed in turn order."""
    sums: dict[str, float] = {}
    for turn in turns:
        action = turn.get("action")
        if isinstance(action, Mapping):
            add_usage(sums, action.get("usage"))
    return usage_totals(sums, decisions)


def hello_problem(header: Mapping[str, Any]) -> str | None:
    """Why the header's hello is not the one its hello line gives, or None when it is.

    A header holding a hello must hold the line it came from: replay parses that line
    again, so the hello (the agent's name on every page and comparison) cannot be edited.
    """
    hello, line = header.get("hello"), header.get("hello_line")
    if line is None:
        if hello is None:
            return None
        return "the header's hello has no hello line to back it"
    if not isinstance(line, str):
        return "the header's hello line is not text"
    parsed = parse_agent_line(line, "hello")
    derived = parsed.message if isinstance(parsed, Parsed) else None
    if derived != hello:
        return "the header's hello differs from the one its hello line gives"
    return None


def start_point(header: Mapping[str, Any]) -> dict[str, Any] | None:
    """Where a record began when not at the level's start: the snapshot's moment, else None.

    A run that began from a snapshot proves what happened from there on, not a full
    episode: its results row and page say so, and no suite figure counts it.
    """
    origin = header.get("origin")
    if not isinstance(origin, Mapping):
        return None
    steps = origin.get("steps")
    return {"tick": origin.get("tick"), "steps": len(steps) if isinstance(steps, list) else 0,
            "reason": origin.get("reason", "")}


def start_words(start: Mapping[str, Any] | None) -> str:
    """A sentence about a start point ("" for a full episode)."""
    if start is None:
        return ""
    return (f"began from a snapshot at tick {start['tick']} (after {start['steps']} steps), "
            "not at the level's start: not a full episode")
