"""The current goal of the player and the walkable distance closed toward it.

Choosing the goal costs nothing but a scan of the objectives, so it runs every tick;
the navigation-mesh lengths are measured only when progress is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from world.objectives.base import TODO, Point3, WorldView, position
from world.objectives.outcome import ObjectiveState
from world.objectives.route import PLACE_AREA, PLACE_OBJECTIVE, Place, RouteMeter, area_anchor
from world.objectives.score import EXIT_GOAL


def choose_goal(
    states: Sequence[ObjectiveState], ready: dict[str, bool], world: WorldView
) -> tuple[str, Point3] | None:
    """The current goal and its place, or None.

    Args:
        states: Objective states in chain order.
        ready: Objective id -> whether its predecessors are done.
        world: The world now.

    Returns:
        (objective id or "exit", point) for the first open counted objective that is
        ready and has a fixed place; else the exit area when every counted objective
        is satisfied; else None.
    """
    for s in states:
        if s.counts and s.status == TODO and not s.standing and ready[s.objective.id]:
            place = s.verifier.target(world)
            if place is not None:
                return (s.objective.id, place)
    exit_area = world.level.exit_area
    if exit_area is not None and all(s.satisfied for s in states if s.counts):
        return (EXIT_GOAL, area_anchor(world.level, exit_area.area))
    return None


def _place(goal: str, world: WorldView) -> Place:
    # What the player must have located for progress toward the goal to count.
    exit_area = world.level.exit_area
    if goal == EXIT_GOAL and exit_area is not None:
        return (PLACE_AREA, exit_area.area)
    return (PLACE_OBJECTIVE, goal)


class GoalTracker:
    """Follows the current goal and measures progress toward it from when it began."""

    def __init__(self) -> None:
        """Start with no goal."""
        self.key: tuple[str, Point3] | None = None
        self.meter: RouteMeter | None = None

    @property
    def name(self) -> str | None:
        """The goal's name: an objective id, "exit", or None."""
        return None if self.key is None else self.key[0]

    def update(self, key: tuple[str, Point3] | None, world: WorldView) -> None:
        """Switch goals when the choice changes, measuring from where the player stands.

        Args:
            key: The goal chosen this tick (see `choose_goal`).
            world: The world now.
        """
        if key == self.key:
            return
        self.key = key
        self.meter = None if key is None else RouteMeter(
            key[1], position(world.player), _place(key[0], world))

    def progress(self, world: WorldView) -> float:
        """The fraction of the walkable distance to the goal closed; 0 without a goal."""
        if self.meter is None:
            return 0.0
        return self.meter.progress(world, position(world.player))
