"""An episode's limits, and the chain of subtasks a stepwise episode plays.

A plain episode has the level's budgets: the track's decisions, and the level's game
seconds on the world's clock (an episode started from a snapshot keeps that clock, so
its time left is what the moment had left). A stepwise episode plays its level's chain
of subtasks (objectives), each with a budget of its own counted from the moment it
began (`harness.episode.chain`). The start message carries the chain and the budgets
(`start.stepwise`) and the record's header the success states, so replay applies the
same limits and resets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, cast

from harness.core.messages import ChainOrder, StartMessageStepwise
from harness.core.tracks import TrackSpec
from harness.episode.snapshot import Snapshot
from world.face import Level, seconds_to_ticks, ticks_to_seconds

# The orders a chain can have: the level's `after` lists order every subtask after the
# one before it (causal), or some may be done in any order (thematic).
CHAIN_ORDERS = {
    "causal": "the level orders each subtask after the one before it",
    "thematic": "some subtasks may be done in any order; the chain follows the reference run",
}

# Why a level and difficulty may have no chain to play: reported as such, never as a
# chain passed or failed, nor as a harness error. Key -> (short label, sentence).
NO_CHAIN = {
    "no_work_objective": (
        "no work objective",
        "the level has no work objective at this difficulty (only standing conditions "
        "or survive), so there is nothing to chain"),
    "reference_did_none": (
        "reference did none",
        "the reference run did none of the level's work objectives at this difficulty, "
        "so there is no success state to chain from"),
}


@dataclass(frozen=True)
class Leg:
    """One subtask of a chain: its objective number and the budget it gets."""

    objective: int
    max_decisions: int
    max_game_seconds: float


@dataclass(frozen=True)
class ChainPlan:
    """A stepwise episode's chain: its subtasks in order and their success states.

    Attributes:
        order: A key of `CHAIN_ORDERS`.
        legs: The subtasks in order, each with its budget.
        states: The reference run's success state of each leg, in the same order.
    """

    order: str
    legs: tuple[Leg, ...]
    states: tuple[Snapshot, ...]

    def start_block(self, done: tuple[int, ...]) -> StartMessageStepwise:
        """The start message's `stepwise` object (`done`: subtasks done at the start)."""
        order = cast(ChainOrder, self.order)  # one of CHAIN_ORDERS, checked when planned
        return {"chain": [leg.objective for leg in self.legs], "order": order,
                "done": list(done),
                "subtasks": [{"subtask": leg.objective, "max_decisions": leg.max_decisions,
                              "max_game_seconds": leg.max_game_seconds} for leg in self.legs]}

    def budget_problem(self) -> str | None:
        """What differs when the legs' budgets are not `budget_rule` of the success states.

        Each success state is the reference run's moment after the turn that finished its
        subtask, so the decisions and game time between two of them are what the reference
        spent on the later one: a record's budgets are re-derived from its own header.
        """
        if len(self.legs) != len(self.states):
            return (f"the chain has {len(self.legs)} subtasks and {len(self.states)} "
                    "success states")
        turn, tick = 0, 0
        for leg, state in zip(self.legs, self.states, strict=True):
            at_turn = len(state.steps)  # one step per turn played before the moment
            want = budget_rule(at_turn - turn, ticks_to_seconds(state.tick - tick))
            if (leg.max_decisions, leg.max_game_seconds) != want:
                return (f"subtask {leg.objective}'s budget is {leg.max_decisions} decisions "
                        f"and {leg.max_game_seconds:g} s; its success states give "
                        f"{want[0]} and {want[1]:g} s")
            turn, tick = at_turn, state.tick
        return None

    @classmethod
    def from_record(cls, header: dict[str, Any]) -> ChainPlan | None:
        """The chain a record's header names (start.stepwise and success_states), or None."""
        block = (header.get("start") or {}).get("stepwise")
        if not isinstance(block, dict):
            return None
        legs = tuple(Leg(int(s["subtask"]), int(s["max_decisions"]),
                         float(s["max_game_seconds"])) for s in block["subtasks"])
        states = tuple(Snapshot.from_dict(d, f"header success state {i}")
                       for i, d in enumerate(header.get("success_states") or [], 1))
        return cls(str(block["order"]), legs, states)


@dataclass(frozen=True)
class Limits:
    """An episode's budgets: decisions it may take, and game time on the world's clock.

    Attributes:
        max_decisions: Decisions the episode may take.
        max_game_seconds: The world time (seconds since tick 0) it must stop at.
    """

    max_decisions: int
    max_game_seconds: float

    @property
    def max_ticks(self) -> int:
        """The world tick the episode must stop at."""
        return seconds_to_ticks(self.max_game_seconds)

    def seconds_left(self, tick: int) -> float:
        """Game seconds left at a tick."""
        return max(0.0, self.max_game_seconds - ticks_to_seconds(tick))


def episode_limits(level: Level, track: TrackSpec) -> Limits:
    """The level's limits on a track: its decisions, and its game seconds from tick 0."""
    return Limits(track.max_decisions(level), level.budgets.max_game_seconds)


def leg_limits(leg: Leg, decisions: int, tick: int) -> Limits:
    """The limits of a leg that starts after `decisions` decisions, at `tick`."""
    return Limits(decisions + leg.max_decisions,
                  ticks_to_seconds(tick + seconds_to_ticks(leg.max_game_seconds)))


def chain_order(level: Level, chain: tuple[str, ...]) -> str:
    """`causal` when the level orders each objective of the chain after the one before."""
    after = {o.id: set(o.after) for o in level.objectives}

    def waits_on(later: str, earlier: str, seen: frozenset[str] = frozenset()) -> bool:
        return earlier in after[later] or any(
            waits_on(mid, earlier, seen | {later}) for mid in after[later] if mid not in seen)

    causal = all(waits_on(b, a) for a, b in pairwise(chain))
    return "causal" if causal else "thematic"


def budget_rule(decisions: int, seconds: float) -> tuple[int, float]:
    """A subtask's budget from the reference run's cost of it: twice that, plus a floor."""
    return 2 * decisions + 5, float(math.ceil(2 * seconds + 20))
