"""Security cameras: a fixed view cone that raises its alarm when it keeps the player in view.

A camera fills an alertness meter like a guard (same reaction time, same darkness rule)
and raises its alarm when the meter is full. A camera shot to pieces sees nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from world.characters.alertness import decayed, sight_gain
from world.characters.perception import Observers, cone_candidates
from world.characters.tuning import THINK_DT, THINK_TICKS, Tuning
from world.sim.clock import seconds_to_ticks

if TYPE_CHECKING:
    from world.sim.world import World

# A camera that lost the player forgets it after this long.
CAMERA_HOLD_S = 2.0


@dataclass(eq=False)
class CameraState:
    """One camera's runtime state.

    Attributes:
        id: The camera object's id.
        alarm: The alarm it raises, if any.
        storey: Storey it watches.
        meter: How sure it is that it sees the player, 0 to 1.
        last_seen: Tick it last saw the player.
        spotted: Whether it has raised its alarm for the current sighting.
    """

    id: str
    alarm: str | None
    storey: str
    meter: float = 0.0
    last_seen: int = -(10**9)
    spotted: bool = False

    def state_items(self) -> tuple:
        """The camera's state for the state hash."""
        return (self.id, round(self.meter, 6), self.last_seen, self.spotted)


class Cameras:
    """Every camera of a level, looked through together a few times a second."""

    def __init__(self, world: World, tuning: Tuning) -> None:
        """Index the level's placed cameras.

        Args:
            world: The world.
            tuning: The difficulty's tuning (sight range, reaction time).
        """
        specs = sorted(
            (o for o in world.level.objects if o.kind == "camera" and o.area is not None),
            key=lambda o: o.id,
        )
        self.tuning = tuning
        self.states = [
            CameraState(o.id, o.alarm, world.level.area(o.area).storey) for o in specs
        ]
        rows = [
            (o.at[0], o.at[1], world.level.area_y(o.area), math.radians(o.facing_deg),
             o.view_angle_deg or 90.0, (o.view_range or 1000.0) * tuning.sight, 0.0)
            for o in specs
        ]
        self.eyes = Observers.build(rows)
        self.points = np.array([o.at for o in specs], dtype=float).reshape(-1, 2)

    def update(self, world: World) -> None:
        """Look for the player every few ticks; raise alarms; let meters drain."""
        if not self.states or world.tick % THINK_TICKS != 0:
            return
        player = world.player
        seen = np.zeros(len(self.states), dtype=bool)
        fraction = np.ones(len(self.states))
        if player.alive:
            light = world.level.area(player.area).light if player.area else 1.0
            mask, fraction = cone_candidates(self.eyes, player.x, player.y, player.z, light)
            working = np.array([not world.objects[s.id].broken for s in self.states])
            mask &= working
            if mask.any():
                idx = np.flatnonzero(mask)
                clear = world.sight.visible_from(player.position, self.points[idx],
                                                 player.storey)
                seen[idx[clear]] = True
        hold = seconds_to_ticks(CAMERA_HOLD_S)
        for i, cam in enumerate(self.states):
            if seen[i]:
                cam.last_seen = world.tick
                cam.meter = min(1.0, cam.meter + sight_gain(THINK_DT, self.tuning.reaction_s,
                                                            float(fraction[i])))
                if cam.meter >= 1.0 and not cam.spotted:
                    cam.spotted = True
                    world.emit("player_spotted", cam.id, "player", detail="camera")
                    if cam.alarm is not None and not world.objects[cam.alarm].broken:
                        world.items.set_alarm(cam.alarm, True, cam.id)
            elif cam.meter > 0.0:
                cam.meter = decayed(cam.meter, CAMERA_HOLD_S + 1.0, THINK_DT) if (
                    world.tick - cam.last_seen > hold) else cam.meter
                if cam.meter <= 0.0:
                    cam.spotted = False

    def state_items(self) -> tuple:
        """Every camera's state for the state hash."""
        return tuple(c.state_items() for c in self.states)
