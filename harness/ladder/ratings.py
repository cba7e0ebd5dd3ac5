"""Ratings with uncertainty over verified matches: openskill's Plackett-Luce model.

Every agent starts at openskill's prior (mu 25, sigma 25/3). Matches are rated one
after another in a stable order (seed, level, difficulty, then the record's SHA-256),
so the same records give the same ratings wherever they lie, and a round robin is
taken round by round (seed by seed) rather than one level after another, which would
weigh the last level most. In each match every team
is one openskill team of the distinct agents on it, ranked by its result's score
(world.match.judge's RESULT_SCORES: won above draw above lost; teams with the same
result tie). The board ranks agents by the lower end of their 95% interval
(mu - 1.96 sigma), so an agent seen in few matches does not top it on luck.

openskill is an optional extra (`ladder`), imported only when ratings are fitted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from harness.compare.results import Z95, AgentKey
from harness.core.level_refs import UsageError
from harness.ladder.records import Rated
from world.face import MATCH_RESULT_SCORES

EXTRA = "pip install 'mission-harness[ladder]'"
# A side's result -> the tally it adds to, declared once for the board and the JSON.
TALLIES = {"won": "wins", "draw": "draws", "lost": "losses"}
SCORES: dict[str, float] = {str(k): v for k, v in MATCH_RESULT_SCORES.items()}


@dataclass
class Entry:
    """One agent's place on the board."""

    agent: AgentKey
    mu: float
    sigma: float
    matches: int = 0
    tally: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TALLIES.values(), 0))

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the rating."""
        return self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma

    def to_dict(self, rank: int) -> dict[str, Any]:
        """Plain data for ladder.json."""
        low, high = self.interval
        return {"rank": rank, "agent": {"label": self.agent.label, "name": self.agent.name,
                                        "version": self.agent.version,
                                        "model": self.agent.model,
                                        "command": self.agent.command},
                "mu": round(self.mu, 4), "sigma": round(self.sigma, 4),
                "interval95": [round(low, 4), round(high, 4)],
                "matches": self.matches, **self.tally}


def _model() -> Any:
    try:
        # Imported only when ratings are fitted (start-up cost; openskill is an optional extra).
        from openskill.models import PlackettLuce
    except ImportError:
        raise UsageError(f"ratings need openskill, an optional extra: {EXTRA}") from None
    return PlackettLuce()


def fit(matches: Iterable[Rated]) -> list[Entry]:
    """Rate every agent over the matches; return the board, best first.

    Raises:
        UsageError: openskill is not installed (the message names the extra).
    """
    model = _model()
    ratings: dict[AgentKey, Any] = {}
    entries: dict[AgentKey, Entry] = {}
    for match in sorted(matches, key=lambda m: (m.seed, m.level, m.difficulty, m.digest)):
        teams = [[ratings.setdefault(a, model.rating()) for a in side.agents]
                 for side in match.sides]
        ranks = [1.0 - SCORES[side.result] for side in match.sides]
        updated = model.rate(teams, ranks=ranks)
        for side, team in zip(match.sides, updated, strict=True):
            for agent, rating in zip(side.agents, team, strict=True):
                ratings[agent] = rating
                entry = entries.setdefault(agent, Entry(agent, rating.mu, rating.sigma))
                entry.matches += 1
                entry.tally[TALLIES[side.result]] += 1
    for agent, entry in entries.items():
        entry.mu, entry.sigma = float(ratings[agent].mu), float(ratings[agent].sigma)
    return sorted(entries.values(), key=lambda e: (-e.interval[0], -e.mu, e.agent))
