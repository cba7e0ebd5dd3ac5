"""Numbers that shape behaviour, and what the episode's difficulty makes of them."""

from __future__ import annotations

from dataclasses import dataclass

from world.level.model import Difficulty, Level
from world.sim.clock import TICKS_PER_SECOND

# Characters decide every THINK_TICKS ticks, each offset by its index, so a fifth of a
# second passes between looks and the work spreads evenly over the ticks.
THINK_TICKS = 6
THINK_DT = THINK_TICKS / TICKS_PER_SECOND

# How long a guard searches around the last known position before drifting back.
SEARCH_S = 8.0
# Radius of the search around the last known position.
SEARCH_RADIUS = 350.0
# Fighters close in until this fraction of their weapon's range (and at most FIGHT_RANGE).
RANGE_FRACTION = 0.6
FIGHT_RANGE = 1000.0
# Melee fighters close to this fraction of their reach (bodies touch well inside it).
MELEE_FRACTION = 0.8
# Followers keep within FOLLOW_NEAR of the player and start walking past FOLLOW_FAR.
FOLLOW_NEAR = 110.0
FOLLOW_FAR = 200.0
# Idle characters wander this far from their post, pausing between strolls.
IDLE_RADIUS = 250.0
IDLE_PAUSE_S = 4.0
# Frightened civilians keep running for this long after the last shot they heard.
FLEE_S = 10.0
FLEE_DISTANCE = 700.0


@dataclass(frozen=True)
class Tuning:
    """The difficulty's multipliers, as the characters use them.

    Attributes:
        difficulty: The difficulty id.
        rank: Position of the difficulty, easiest 0.
        reaction_s: Seconds from first sight to acting.
        sight: Multiplier on hostile and camera sight ranges.
        reinforcements: Multiplier on alarm and wave counts.
        accuracy: Multiplier on hostile chance to hit.
        damage: Multiplier on hostile damage.
        health: Multiplier on hostile health.
    """

    difficulty: str
    rank: int
    reaction_s: float
    sight: float
    reinforcements: float
    accuracy: float
    damage: float
    health: float

    @classmethod
    def of(cls, level: Level, difficulty: str) -> Tuning:
        """The tuning of one of the level's difficulties.

        Args:
            level: The level.
            difficulty: One of its difficulty ids.

        Returns:
            The tuning.
        """
        d: Difficulty = next(x for x in level.difficulties if x.id == difficulty)
        return cls(
            difficulty=d.id,
            rank=level.difficulty_rank(d.id),
            reaction_s=d.enemy_reaction_s,
            sight=d.enemy_sight,
            reinforcements=d.reinforcements,
            accuracy=d.enemy_accuracy,
            damage=d.enemy_damage,
            health=d.enemy_health,
        )

    def scaled_count(self, count: int) -> int:
        """A reinforcement or wave count after the difficulty's multiplier (at least 1)."""
        return max(1, round(count * self.reinforcements)) if count > 0 else 0
