"""The mission status as the world reports it to whoever drives an episode."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameStatus:
    """The mission as the world judges it now.

    Attributes:
        ended: Whether the mission is over (success or failure).
        success: True when it succeeded; False otherwise (also while running).
        failure: Why it failed, in plain words, or None.
        score: 0..1, from the objectives that count at this difficulty.
        progress: 0..1, the share of counting objectives done.
        objectives: One dict per objective: index, status, counts, text, tick.
        stages: 0..1, how far through the mission's stages the player came
            (`world.objectives.stages`); 1 on success.
    """

    ended: bool
    success: bool
    failure: str | None
    score: float
    progress: float
    objectives: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    stages: float = 0.0
