"""The stages figure: how far through the mission's stages the player came, 0..1.

A companion to the score that ranks episodes which did not complete. The score's partial
credit pays for where the player stands at the end (route progress from the final
position) and for harm dealt, so an agent that wanders and lives to the time limit can
rank above one that went for the targets and fell on the way. `stages` counts only what
the player reached or did, from the world's state, and never drops:

- The stages are the work items of the score (the counted objectives that are not
  passive, in chain order), each with its level weight, and the exit where the level
  has one (weight: the mean counted weight). Passive objectives (standing conditions,
  survive beside other work) are no stage: time alone holds them.
- A done item is 1. An open or failed item scores
  ``APPROACH_SHARE * reach + (1 - APPROACH_SHARE) * steps`` when it has a place, and
  ``steps`` when it has none. `steps` is the share of the objective's own discrete
  steps done (targets down, frags, secrets found, points passed, escorted characters
  arrived, the object's health shot away; `Verifier.steps`), never harm dealt to a
  character that is still standing. `reach` is the furthest room reached toward the
  item's place while the item was ready: ``1 - best / start`` over the rooms the player
  entered, with `best` the shortest walkable length (doors open) from a room's interior
  point to the place and `start` the same from the room the player stood in when the
  item became ready (or its place moved). A failed item keeps what was reached and done
  before it failed, as the score does. It is measured per room, not per step, so
  pacing inside a room earns nothing, and it is the best room ever reached, so a walk
  back does not undo it and wandering scores only the rooms it happens to enter. The
  exit is an item with a place and no steps, ready once every counted objective is
  satisfied.
- ``stages = sum(w_i * q_i) / sum(w_i)``; 1 when the mission completed.

Everything is judged from the world (the room the player stands in, the objectives'
states), never from what the agent says, so a replay re-derives it.
"""

from __future__ import annotations

from collections.abc import Sequence

from world.objectives.base import DONE, FAILED, Point3, WorldView, clamp01
from world.objectives.outcome import ObjectiveState
from world.objectives.route import area_anchor, path_length
from world.objectives.score import EXIT_GOAL, mean_counted_weight, work_items

# Share of an open item with a place earned by reaching it; the act is the rest.
APPROACH_SHARE = 0.5


class ReachMeter:
    """The furthest room reached toward one place, from the room the meter began in."""

    def __init__(self, goal: Point3) -> None:
        """Remember the place; the first room visited is where the meter begins.

        Args:
            goal: The place to reach.
        """
        self.goal = goal
        self.start: float | None = None
        self.best: float | None = None
        self._lengths: dict[str, float | None] = {}

    def visit(self, world: WorldView, area: str) -> None:
        """Note that the player stands in `area`."""
        if area not in self._lengths:
            self._lengths[area] = path_length(world, area_anchor(world.level, area), self.goal)
            if len(self._lengths) == 1:
                self.start = self._lengths[area]
        length = self._lengths[area]
        if length is not None and (self.best is None or length < self.best):
            self.best = length

    @property
    def reach(self) -> float:
        """``1 - best / start`` clamped to 0..1; 0 with no route from the first room."""
        if not self.start or self.best is None:
            return 0.0
        return clamp01(1.0 - self.best / self.start)


class StageMeter:
    """Follows every ready work item's place (and the exit) room by room."""

    def __init__(self) -> None:
        """No item measured yet."""
        self.meters: dict[str, ReachMeter] = {}
        self._last: tuple | None = None

    def update(self, world: WorldView, states: Sequence[ObjectiveState],
               ready: dict[str, bool]) -> None:
        """Note the player's room for every open, ready item that has a place.

        Args:
            world: The world now.
            states: Every objective's state, in chain order.
            ready: Objective id -> whether its predecessors are done.
        """
        places = self._places(world, states, ready)
        area = world.player.area
        key = (area, places)
        if key == self._last:
            return  # same room, same places: nothing new to measure
        self._last = key
        for name, place in places:
            meter = self.meters.get(name)
            if meter is None or meter.goal != place:
                meter = self.meters[name] = ReachMeter(place)
            meter.visit(world, area)

    @staticmethod
    def _places(world: WorldView, states: Sequence[ObjectiveState],
                ready: dict[str, bool]) -> tuple[tuple[str, Point3], ...]:
        has_exit = world.level.exit_area is not None
        places = []
        for s in work_items(states, has_exit):
            if s.status == DONE or s.status == FAILED or not ready[s.objective.id]:
                continue
            place = s.verifier.target(world)
            if place is not None:
                places.append((s.objective.id, place))
        exit_area = world.level.exit_area
        if exit_area is not None and all(s.satisfied for s in states if s.counts):
            places.append((EXIT_GOAL, area_anchor(world.level, exit_area.area)))
        return tuple(places)

    def figure(self, world: WorldView, states: Sequence[ObjectiveState],
               success: bool, work: Sequence[ObjectiveState] | None = None) -> float:
        """The stages figure now, as the module documentation defines it.

        Args:
            world: The world now.
            states: Every objective's state.
            success: Whether the mission completed.
            work: `work_items(states, has_exit)`, when the caller has it.

        Returns:
            0..1.
        """
        if success:
            return 1.0
        has_exit = world.level.exit_area is not None
        if work is None:
            work = work_items(states, has_exit)
        items = [(s.objective.weight, self._item(s, world)) for s in work]
        if has_exit:
            weight = mean_counted_weight([s for s in states if s.counts])
            items.append((weight, self._approach(EXIT_GOAL, 0.0)))
        total = sum(w for w, _ in items)
        return clamp01(sum(w * q for w, q in items) / total) if total > 0 else 0.0

    def _item(self, s: ObjectiveState, world: WorldView) -> float:
        if s.status == DONE:
            return 1.0
        # A failed item keeps what was reached and done before it failed (a survive its
        # time lived), as the score does: the failure is reported beside the figure.
        return self._approach(s.objective.id, clamp01(s.verifier.steps(world)))

    def _approach(self, name: str, steps: float) -> float:
        meter = self.meters.get(name)
        if meter is None:
            return steps
        return APPROACH_SHARE * meter.reach + (1.0 - APPROACH_SHARE) * steps
