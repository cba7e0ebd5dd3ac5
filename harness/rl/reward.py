"""Per-step rewards, each declared once by name, all potential-based on the mission report.

Every reward here is potential-based shaping (Ng, Harada and Russell 1999) on top of
the sparse reward "the final score when the episode ends": a step from s to s' that
does not end the episode pays ``gamma * phi(s') - phi(s)``, the step that ends it pays
``final score - phi(s)``. `phi` is a weighted sum of figures the objectives system
reports (the world's `MissionReport`): the score, the progress toward the current
goal and the share of counted objectives done; each reward declares its own. So the
return of an episode of T steps discounted by `gamma` telescopes to
``gamma**(T-1) * final score - phi(start)``: it depends on the final score and how soon
it came, never on the path, so neither going back and forth nor waiting pays
(`gamma` < 1 makes both cost). With the default ``gamma = 1`` the summed "score"
reward equals the final score minus the start's, the figure `harness run` reports.

During the episode the figures are the player's (`perceived_report`): walkable distance
counts only toward places the player has located, and nothing is paid for walking
before that, so no reward is a hot/cold signal for the unseen (issue 34). The step that
ends the episode reads the judge's own report, so it pays up to the final score.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import TypedDict

from world.face import MissionReport

# Weights of the dense terms of the "shaped" potential: small beside the score, so a
# shaped potential still ranks moments by their score first.
PROGRESS_WEIGHT = 0.1
COMPLETION_BONUS = 0.1


@dataclass(frozen=True)
class Figures:
    """The reported figures a reward is computed from, at one moment of an episode."""

    score: float
    progress: float
    done: int
    counted: int = 0

    @classmethod
    def of(cls, report: MissionReport) -> Figures:
        """The figures of a mission report."""
        counted = [o for o in report.objectives if o.counts]
        done = sum(1 for o in counted if o.status == "done")
        return cls(float(report.score), float(report.progress), done, len(counted))


Potential = Callable[[Figures], float]


def _score(f: Figures) -> float:
    return f.score


def _shaped(f: Figures) -> float:
    share = f.done / f.counted if f.counted else 0.0
    return f.score + PROGRESS_WEIGHT * f.progress + COMPLETION_BONUS * share


def _sparse(f: Figures) -> float:
    return 0.0


@dataclass(frozen=True)
class Reward:
    """One named reward: what it pays, its potential and the potential's largest value."""

    name: str
    summary: str
    potential: Potential
    top: float


REWARDS: MappingProxyType[str, Reward] = MappingProxyType({r.name: r for r in (
    Reward("score", "Potential: the episode's score (the default). With `gamma` 1 a step "
           "pays the change in the score and the summed reward of an episode equals its "
           "final score.", _score, 1.0),
    Reward("shaped", f"Potential: the score, plus {PROGRESS_WEIGHT:g} times the "
           "walkable-distance progress toward the current goal once the player has located "
           f"it, plus {COMPLETION_BONUS:g} times the share of counted objectives done. The "
           "dense terms are taken back by the step that ends the episode.", _shaped,
           1.0 + PROGRESS_WEIGHT + COMPLETION_BONUS),
    Reward("sparse", "Potential 0: the final score on the step that ends the episode, 0 "
           "before.", _sparse, 0.0),
)})


@dataclass(frozen=True)
class RewardSpec:
    """The chosen reward, its discount and its optional step penalty.

    Attributes:
        name: A key of `REWARDS`.
        gamma: The learner's discount, in (0, 1]: a step pays ``gamma * phi(s') - phi(s)``.
        step_penalty: Taken off every step past `penalty_after` steps (0: none).
        penalty_after: The step budget before the penalty applies.
    """

    name: str = "score"
    gamma: float = 1.0
    step_penalty: float = 0.0
    penalty_after: int = 0

    def __post_init__(self) -> None:
        if self.name not in REWARDS:
            raise ValueError(f"reward: unknown name {self.name!r}; allowed: "
                             f"{', '.join(REWARDS)}")
        if not 0.0 < self.gamma <= 1.0:
            raise ValueError(f"reward: gamma ({self.gamma}) must be in (0, 1]")
        if not (self.step_penalty >= 0 and self.penalty_after >= 0):
            raise ValueError(f"reward: step_penalty ({self.step_penalty}) and penalty_after "
                             f"({self.penalty_after}) must be 0 or more")

    def __call__(self, before: Figures, after: Figures, ended: bool, steps: int,
                 forfeit: int = 0) -> float:
        """The reward of the step that took `before` to `after`; `steps` counts it.

        `after` holds the judge's figures when `ended`. `forfeit` is how many steps of
        the budget an episode ended by refused actions gave up: each is charged the step
        penalty, so ending that way never costs less than playing on.
        """
        phi = REWARDS[self.name].potential
        value = after.score - phi(before) if ended else self.gamma * phi(after) - phi(before)
        if self.step_penalty:
            penalised = int(steps > self.penalty_after) + max(
                0, forfeit - max(0, self.penalty_after - steps))
            value -= self.step_penalty * penalised
        return float(value)

    def bounds(self) -> tuple[float, float]:
        """The least and the most a step that does not forfeit can pay."""
        top = REWARDS[self.name].top
        return (-top - self.step_penalty, max(1.0, self.gamma * top))


class RewardFields(TypedDict, total=False):
    """A reward given as a dict: any of `RewardSpec`'s fields, by name."""

    name: str
    gamma: float
    step_penalty: float
    penalty_after: int


# How an environment is told its reward: by name, as a spec, or as a dict of its fields.
RewardChoice = str | RewardSpec | RewardFields
_FIELDS = tuple(f.name for f in fields(RewardSpec))


def reward_spec(reward: RewardChoice) -> RewardSpec:
    """A reward given by name, as a spec, or as a dict of the spec's fields."""
    if isinstance(reward, RewardSpec):
        return reward
    if isinstance(reward, str):
        return RewardSpec(reward)
    if isinstance(reward, dict):
        unknown = set(reward) - set(_FIELDS)
        if unknown:
            raise ValueError(f"reward: unknown field(s) {sorted(unknown)}; allowed: "
                             f"{', '.join(_FIELDS)}")
        return RewardSpec(**reward)
    raise ValueError(f"reward: expected a name ({', '.join(REWARDS)}) or a dict, "
                     f"got {type(reward).__name__}")
