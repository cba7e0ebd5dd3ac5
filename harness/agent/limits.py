"""The limits on an agent as a whole: declared once, with the flag that sets each.

The warden (`harness.agent.sandbox_shim`) enforces what it can see (the process count) and
reports, from evidence the agent cannot forge, which limit ended it; `harness.episode.outcome`
turns that report into the `resource_limit` ending; PROTOCOL.md's table of limits is
generated from here (`harness.docgen.protocol`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Limit:
    """One limit: its name in the warden's report, its flag, its unit and what it bounds."""

    name: str
    flag: str
    unit: str
    bounds: str
    enforced_by: str


LIMITS: dict[str, Limit] = {
    limit.name: limit
    for limit in (
        Limit("memory", "--agent-memory-mb", "MiB",
              "the resident memory of all its processes together plus what its working "
              "folder, /tmp and /dev/shm hold; also the address space of each process",
              "the warden sums them every 0.1 s (0.5 s without bubblewrap) and kills all; "
              "RLIMIT_AS fails a larger allocation in one process at once (that crash is "
              "`agent_crashed`: nothing the agent cannot forge tells it from another)"),
        Limit("processes", "--agent-max-processes", "processes",
              "its processes and their threads running at once, double-forked ones "
              "included (each thread takes a pid of the host's)",
              "the warden counts them every 0.1 s (0.5 s without bubblewrap) and kills all"),
        Limit("disk", "--agent-disk-mb", "MiB",
              "its working folder and its /tmp, each a tmpfs of that size (held in memory)",
              "bubblewrap's --size: a write past it fails with ENOSPC"),
        Limit("cpu_time", "--agent-cpu-s", "s", "CPU time of each of its processes",
              "RLIMIT_CPU: SIGXCPU, then SIGKILL a second later"),
    )
}


@dataclass(frozen=True)
class LimitHit:
    """A limit that ended the agent: its name, its value and what the warden saw."""

    name: str
    value: int
    detail: str

    def message(self) -> str:
        """Plain words naming the limit and its flag."""
        limit = LIMITS[self.name]
        return (f"went past its limit of {self.value} {limit.unit} ({limit.bounds}, "
                f"{limit.flag}): it {self.detail}")


def parse_report(data: bytes, values: dict[str, int]) -> LimitHit | None:
    """The limit named in the warden's report, or None (no limit, or no report)."""
    try:
        report: Any = json.loads(data.decode("utf-8").splitlines()[0])
        limit = report["limit"]
        if limit is None:
            return None
        name, detail = str(limit["name"]), str(limit["detail"])[:200]
    except (ValueError, IndexError, KeyError, TypeError):
        return None
    if name not in LIMITS:
        return None
    return LimitHit(name, values.get(name, 0), detail)

