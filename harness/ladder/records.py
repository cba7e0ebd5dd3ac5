"""The match records a ladder counts: found under folders, each verified before it counts.

A record counts only when its replay re-derives every player's standing (the results
used are the replayed ones, never the record's claims) and, unless the caller accepts
unsealed records, when this harness's seal on it verifies: replay proves what the world
did, the seal proves who played (the agents named in the header). A record that fails
either is listed as refused, with the reason, and never counted.

Each counted match carries two digests: the whole file's (one file copied into two
folders counts once) and its `facts`, a digest of harness-written fields only, from
which the ratings' orders are drawn: an agent writes part of its record (its notes, its
usage, its raw lines, its hello), and nothing it writes may steer how it is rated.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.compare.results import AgentKey, agent_key, safe_text
from harness.core.record import RecordError, record_text
from harness.core.seal import seal_problem
from harness.match.replay import MatchRecordError, replay_match
from harness.match.runner import MATCH_RECORD
from world.face import MATCH_RESULT_SCORES

RESULTS = frozenset(MATCH_RESULT_SCORES)

# Folders a tournament moves unusable runs to; their records are never counted.
SET_ASIDE = "set_aside"
REASON_CHARS = 600  # characters kept of a refusal's reason
# The fields of each kind of match line that the harness alone writes (the `facts`
# digest): no agent's notes, usage, raw line, hello or timing; the level, the key drawn
# from the secret, every state hash (each re-derived by replay), the outcome. A `turn`'s
# player, turn and tick are the schedule's; `stepped` is left out though replay checks
# it, as it is the agent's choice in its own words.
HARNESS_FIELDS: dict[str, tuple[str, ...]] = {
    "header": ("level", "level_hash", "difficulty", "seed", "key", "players", "teams"),
    "turn": ("player", "turn", "tick", "state_hash", "played"),
    "retire": ("player", "tick", "outcome", "forfeit"),
    "end": ("over", "game_ticks", "final_state_hash"),
}


@dataclass(frozen=True)
class Side:
    """One team of a match as the ladder counts it: its agents and its replayed result."""

    agents: tuple[AgentKey, ...]
    result: str


@dataclass(frozen=True)
class Rated:
    """A verified match: where it is, what was played, and each side's result."""

    path: str
    digest: str
    level: str
    difficulty: str
    seed: int
    sides: tuple[Side, ...]
    facts: str = ""  # the digest of harness-written fields (`facts`); "" means `digest`

    @property
    def order_key(self) -> str:
        """What the ratings' shuffles are drawn from for this match (never agent-written)."""
        return self.facts or self.digest


@dataclass(frozen=True)
class Refused:
    """A record that is not counted, and why (in one line)."""

    path: str
    reason: str

    def __post_init__(self) -> None:
        # The reason may quote a stranger's record: fit for a terminal, a table and a page.
        object.__setattr__(self, "reason", safe_text(self.reason, REASON_CHARS))


def match_records(paths: Iterable[Path]) -> list[Path]:
    """Every match record under the given folders (or the files themselves), in a stable order.

    Records under a tournament's `set_aside/` folder are left out.
    """
    found: dict[Path, None] = {}
    for path in paths:
        if path.is_file():
            found[path.resolve()] = None
        elif path.is_dir():
            for record in sorted(path.rglob(MATCH_RECORD)):
                if SET_ASIDE not in record.relative_to(path).parts:
                    found[record.resolve()] = None
    return list(found)


def verify(record: Path, accept_unsealed: bool = False) -> Rated | Refused:
    """A record's verified match, or why it is refused."""
    where = str(record)
    try:
        report = replay_match(record)
        header = read_header(record)
        data = record.read_bytes()
        digest = facts(record_text(record))
    except (MatchRecordError, RecordError, OSError, ValueError) as exc:
        return Refused(where, str(exc))
    if not report.verified:
        return Refused(where, f"does not replay: {report.divergence}")
    if not accept_unsealed and (unsealed := seal_problem(record)) is not None:
        return Refused(where, f"not sealed by this harness, so who played is only the "
                              f"header's word ({unsealed})")
    try:
        sides = _sides(header, report.standings)
    except (KeyError, TypeError, ValueError) as exc:
        return Refused(where, f"not a usable match record: {exc}")
    if isinstance(sides, str):
        return Refused(where, sides)
    return Rated(where, hashlib.sha256(data).hexdigest(), str(header["level"]),
                 str(header["difficulty"]), int(header["seed"]), sides, digest)


def facts(text: str) -> str:
    """The SHA-256 digest of a match record's harness-written fields (`HARNESS_FIELDS`).

    Lines of other kinds, and every other field, are left out: what an agent wrote
    into its record leaves the digest unchanged.
    """
    picked = []
    for raw in text.splitlines():
        if not raw.strip():
            continue
        line = json.loads(raw)
        fields = HARNESS_FIELDS.get(str(line.get("kind"))) if isinstance(line, dict) else None
        if fields is not None:
            picked.append([line["kind"], *(line.get(f) for f in fields)])
    canonical = json.dumps(picked, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def read_header(record: Path) -> dict[str, Any]:
    """The header line of a match record (raises ValueError when the first line is not one)."""
    first = record_text(record).split("\n", 1)[0]
    header = json.loads(first)
    if not isinstance(header, dict) or header.get("kind") != "header":
        raise ValueError(f"{record}: the first line is not a header")
    return header


def _sides(header: dict[str, Any], standings: list[dict[str, Any]]
           ) -> tuple[Side, ...] | str:
    """Each team's agents and result from the replayed standings, or why it cannot be rated."""
    agents = header["agents"]
    teams: dict[str, tuple[list[AgentKey], str]] = {}
    for row in standings:
        seat = agents[row["player"]]
        key = agent_key(seat.get("hello"), str(seat["command"]))
        members, _ = teams.setdefault(str(row["team"]), ([], str(row["result"])))
        if key not in members:
            members.append(key)
    unjudged = sorted(t for t, (_, result) in teams.items() if result not in RESULTS)
    if unjudged:
        return f"team {unjudged[0]!r} has no result (won, draw or lost)"
    if len(teams) < 2:
        return "one team only (a cooperative match): no one to rate against"
    owners: dict[AgentKey, str] = {}
    for team, (members, _) in teams.items():
        for key in members:
            if owners.setdefault(key, team) != team:
                return f"agent {key.label!r} played on two sides: it cannot be rated against " \
                       "itself"
    return tuple(Side(tuple(sorted(members)), result)
                 for _, (members, result) in sorted(teams.items()))
