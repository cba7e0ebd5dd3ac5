"""Ratings with uncertainty over verified matches: openskill's Plackett-Luce model.

Every agent starts at openskill's prior (mu 25, sigma 25/3), with no drift between
matches (tau 0: a program's strength does not change). openskill rates matches one
after another, so one order of the same matches gives other ratings than another: taken
seed by seed, a round robin of 576 matches put the greedy baseline level with the random
one (22.0 against 21.6) although it won 148 of their 188 decided meetings. So the
matches are rated in `ORDERS` orders, each a shuffle drawn from a generator seeded by
the digests of the records' harness-written fields (`Rated.facts`: level, seed, key,
state hashes, outcome; never an agent's notes or usage, so no agent can steer the
orders; the same records give the same ratings wherever they lie), and each agent's
mu and sigma are the means over the orders, as Chatbot Arena averaged its Elo ratings
over shuffled orders. In each match every team
is one openskill team of the distinct agents on it, ranked by its result's score
(world.match.judge's RESULT_SCORES: won above draw above lost; teams with the same
result tie). The board ranks agents by the lower end of their 95% interval
(mu - 1.96 sigma), so an agent seen in few matches does not top it on luck.

openskill is an optional extra (`ladder`), imported only when ratings are fitted.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
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
# Orders the matches are rated in (their means are the ratings). On the 576-match round
# robin above, the mean mu moved by up to 0.5 between three shuffle seeds at 32 orders
# and by up to 0.3 at 128, against gaps of 8 between the agents; 64 take under a
# second there, far less than replaying the records.
ORDERS = 64


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
    # No drift (tau 0): an agent is a program whose strength does not change from one
    # match to the next, so its uncertainty should only shrink with the evidence.
    return PlackettLuce(tau=0.0)


def fit(matches: Iterable[Rated]) -> list[Entry]:
    """Rate every agent over the matches; return the board, best first.

    Raises:
        UsageError: openskill is not installed (the message names the extra).
    """
    model = _model()
    ordered = base_order(matches)
    entries: dict[AgentKey, Entry] = {}
    for match in ordered:
        for side in match.sides:
            for agent in side.agents:
                entry = entries.setdefault(agent, Entry(agent, 0.0, 0.0))
                entry.matches += 1
                entry.tally[TALLIES[side.result]] += 1
    rng = random.Random(order_seed(ordered))
    for _ in range(ORDERS):
        shuffled = list(ordered)
        rng.shuffle(shuffled)
        for agent, rating in _one_order(model, shuffled).items():
            entries[agent].mu += float(rating.mu) / ORDERS
            entries[agent].sigma += float(rating.sigma) / ORDERS
    return sorted(entries.values(), key=lambda e: (-e.interval[0], -e.mu, e.agent))


def base_order(matches: Iterable[Rated]) -> list[Rated]:
    """The matches in a stable order drawn from harness-written facts alone.

    Matches level on all of those (the same facts, agents and results) rate alike, so
    their order among themselves changes nothing.
    """
    return sorted(matches, key=lambda m: (
        m.seed, m.level, m.difficulty, m.order_key,
        tuple((side.agents, side.result) for side in m.sides)))


def order_seed(matches: Iterable[Rated]) -> bytes:
    """The seed of the shuffles: a digest of every match's harness-written facts."""
    return hashlib.sha256("".join(m.order_key for m in base_order(matches)).encode()).digest()


def _one_order(model: Any, matches: Sequence[Rated]) -> dict[AgentKey, Any]:
    """The ratings openskill gives after the matches taken one after another in this order."""
    ratings: dict[AgentKey, Any] = {}
    for match in matches:
        teams = [[ratings.setdefault(a, model.rating()) for a in side.agents]
                 for side in match.sides]
        ranks = [1.0 - SCORES[side.result] for side in match.sides]
        updated = model.rate(teams, ranks=ranks)
        for side, team in zip(match.sides, updated, strict=True):
            for agent, rating in zip(side.agents, team, strict=True):
                ratings[agent] = rating
    return ratings
