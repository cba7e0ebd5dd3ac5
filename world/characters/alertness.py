"""How alert a character is: one ordered table of levels over a continuous meter.

Each character (and each camera) carries a meter in [0, 1]. Seeing the player fills it
at a rate set by the difficulty's reaction time; gunfire heard lifts it to at least
"alerted"; being hit sets it to the top. When nothing has been perceived for a level's
hold time the meter drains at that level's rate, so a guard who lost the player
searches for a while, stays wary a while longer, and then goes back to routine.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AlertLevel:
    """One alertness level.

    Attributes:
        name: Name shown to the agent.
        threshold: Meter value from which this level holds.
        hold_s: Seconds without any stimulus before the meter starts to drain.
        decay_per_s: How fast the meter drains at this level once the hold has passed.
        meaning: What a character at this level does, in plain words.
    """

    name: str
    threshold: float
    hold_s: float
    decay_per_s: float
    meaning: str


# Ordered from calm to fighting; the index is the level's rank.
ALERT_LEVELS: tuple[AlertLevel, ...] = (
    AlertLevel("unaware", 0.0, 0.0, 0.05, "goes about its routine"),
    AlertLevel("suspicious", 0.2, 2.0, 0.08, "stops and looks toward what it noticed"),
    AlertLevel("alerted", 0.55, 4.0, 0.06, "knows something is wrong: investigates, searches"),
    AlertLevel("in_combat", 0.999, 6.0, 0.15, "fights: takes a firing position and shoots"),
)
LEVEL_NAMES: tuple[str, ...] = tuple(level.name for level in ALERT_LEVELS)
RANK: dict[str, int] = {name: i for i, name in enumerate(LEVEL_NAMES)}
UNAWARE, SUSPICIOUS, ALERTED, IN_COMBAT = range(len(ALERT_LEVELS))
# (rank, threshold) pairs read once: `rank_of` runs at every change of any meter.
_RANKED_THRESHOLDS: tuple[tuple[int, float], ...] = tuple(
    (i, level.threshold) for i, level in enumerate(ALERT_LEVELS)
)

# Sight fills the meter faster close up: at the edge of the view range it takes this many
# times the reaction time to reach "in combat".
FAR_SIGHT_SLOWDOWN = 3.0


def rank_of(meter: float) -> int:
    """The rank of the highest level whose threshold the meter reaches.

    Args:
        meter: A meter value in [0, 1].

    Returns:
        An index into `ALERT_LEVELS`.
    """
    rank = 0
    for i, threshold in _RANKED_THRESHOLDS:
        if meter >= threshold:
            rank = i
    return rank


def sight_gain(dt: float, reaction_s: float, distance_fraction: float) -> float:
    """How much the meter rises after seeing the player for `dt` seconds.

    Args:
        dt: Seconds the player was in view (one decision interval).
        reaction_s: The difficulty's reaction time, seconds from first sight to acting.
        distance_fraction: Distance over effective view range, 0 (touching) to 1 (edge).

    Returns:
        The rise of the meter (may exceed what is left to fill; callers clamp).
    """
    slowdown = 1.0 + (FAR_SIGHT_SLOWDOWN - 1.0) * min(1.0, max(0.0, distance_fraction))
    return dt / max(reaction_s * slowdown, 1e-3)


def decayed(meter: float, idle_s: float, dt: float) -> float:
    """The meter after `dt` seconds without a stimulus, `idle_s` seconds since the last.

    Args:
        meter: The current meter value.
        idle_s: Seconds since the last stimulus (sight, sound or hit).
        dt: Seconds elapsed since the meter was last updated.

    Returns:
        The drained meter, never below 0.
    """
    level = ALERT_LEVELS[rank_of(meter)]
    if idle_s < level.hold_s:
        return meter
    return max(0.0, meter - level.decay_per_s * dt)
