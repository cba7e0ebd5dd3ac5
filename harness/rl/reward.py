"""Per-step rewards, each declared once by name, all built on the mission report.

Every reward here is a difference of figures the objectives system reports
(the world's `MissionReport`): the score, the progress toward the current goal and the
number of counted objectives done. The default, "score", pays each step the change in
the episode's score, so an episode's summed reward telescopes to its final score, the
same figure `harness run` reports. A step penalty past a budget is optional.

During the episode the figures are the player's (`perceived_report`): walkable distance
counts only toward places the player has located, and nothing is paid for walking
before that, so no reward is a hot/cold signal for the unseen (issue 34). The step that
ends the episode reads the judge's own report, so it pays up to the final score.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from world.face import MissionReport

# Weights of the dense terms of the "shaped" reward: small beside the score, so a
# shaped return still ranks episodes by their score first.
PROGRESS_WEIGHT = 0.1
COMPLETION_BONUS = 0.1


@dataclass(frozen=True)
class Figures:
    """The reported figures a reward is computed from, at one moment of an episode."""

    score: float
    progress: float
    done: int

    @classmethod
    def of(cls, report: MissionReport) -> Figures:
        """The figures of a mission report."""
        done = sum(1 for o in report.objectives if o.counts and o.status == "done")
        return cls(float(report.score), float(report.progress), done)


RewardFn = Callable[[Figures, Figures, bool], float]


def _score(before: Figures, after: Figures, ended: bool) -> float:
    return after.score - before.score


def _shaped(before: Figures, after: Figures, ended: bool) -> float:
    return (after.score - before.score
            + PROGRESS_WEIGHT * (after.progress - before.progress)
            + COMPLETION_BONUS * (after.done - before.done))


def _sparse(before: Figures, after: Figures, ended: bool) -> float:
    return after.score if ended else 0.0


@dataclass(frozen=True)
class Reward:
    """One named reward: what it pays and its function."""

    name: str
    summary: str
    fn: RewardFn


REWARDS: MappingProxyType[str, Reward] = MappingProxyType({r.name: r for r in (
    Reward("score", "The change in the episode's score this step (the default): the "
           "summed reward of an episode equals its final score.", _score),
    Reward("shaped", f"`score`, plus {PROGRESS_WEIGHT:g} times the change in walkable-distance "
           "progress toward the current goal once the player has located it, plus "
           f"{COMPLETION_BONUS:g} for each counted objective newly done (less for one "
           "undone).", _shaped),
    Reward("sparse", "The final score on the step that ends the episode, 0 before.", _sparse),
)})


@dataclass(frozen=True)
class RewardSpec:
    """The chosen reward and its optional step penalty.

    Attributes:
        name: A key of `REWARDS`.
        step_penalty: Taken off every step past `penalty_after` steps (0: none).
        penalty_after: The step budget before the penalty applies.
    """

    name: str = "score"
    step_penalty: float = 0.0
    penalty_after: int = 0

    def __post_init__(self) -> None:
        if self.name not in REWARDS:
            raise ValueError(f"reward: unknown name {self.name!r}; allowed: "
                             f"{', '.join(REWARDS)}")
        if not (self.step_penalty >= 0 and self.penalty_after >= 0):
            raise ValueError(f"reward: step_penalty ({self.step_penalty}) and penalty_after "
                             f"({self.penalty_after}) must be 0 or more")

    def __call__(self, before: Figures, after: Figures, ended: bool, steps: int) -> float:
        """The reward of the step that took `before` to `after`; `steps` counts it."""
        value = REWARDS[self.name].fn(before, after, ended)
        if self.step_penalty and steps > self.penalty_after:
            value -= self.step_penalty
        return float(value)


def reward_spec(reward: str | RewardSpec | dict) -> RewardSpec:
    """A reward given by name, as a spec, or as a dict of the spec's fields."""
    if isinstance(reward, RewardSpec):
        return reward
    if isinstance(reward, str):
        return RewardSpec(reward)
    if isinstance(reward, dict):
        unknown = set(reward) - {"name", "step_penalty", "penalty_after"}
        if unknown:
            raise ValueError(f"reward: unknown field(s) {sorted(unknown)}; allowed: name, "
                             "step_penalty, penalty_after")
        return RewardSpec(**reward)
    raise ValueError(f"reward: expected a name ({', '.join(REWARDS)}) or a dict, "
                     f"got {type(reward).__name__}")
