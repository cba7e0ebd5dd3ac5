"""Security cameras: a fixed view cone that raises its alarm when it keeps the player in view.

A camera fills an alertness meter like a guard (same reaction time, same darkness rule)
and raises its alarm when the meter is full. A camera shot to pieces sees nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.characters.alertness import decayed, sight_gain
from world.characters.perception import NEAR_SENSE, STOREY_GAP
from world.characters.tuning import THINK_DT, THINK_TICKS, Tuning
from world.sim.clock import seconds_to_ticks

if TYPE_CHECKING:
    from world.sim.world import World

# A camera that lost the player forgets it after this long.
CAMERA_HOLD_S = 2.0
# A camera whose level leaves its cone out watches this wide and this far (before the
# difficulty's sight multiplier); the observation shows the same figures.
DEFAULT_VIEW_ANGLE_DEG = 90.0
DEFAULT_VIEW_RANGE = 1000.0


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
            CameraState(o.id, o.alarm, world.level.area(o.place.area).storey) for o in specs
        ]
        # Per camera: x, z, height, cosine and sine of its heading, cosine of half its
        # view angle, view range (difficulty applied).
        self.eyes: list[tuple[float, float, float, float, float, float, float]] = []
        for o in specs:
            facing = math.radians(o.facing_deg)
            angle = o.view_angle_deg or DEFAULT_VIEW_ANGLE_DEG
            self.eyes.append((
                float(o.place.at[0]), float(o.place.at[1]), float(world.level.area_y(o.place.area)),
                math.cos(facing), math.sin(facing),
                -1.0 if angle >= 360.0 else math.cos(math.radians(angle) / 2.0),
                (o.view_range or DEFAULT_VIEW_RANGE) * tuning.sight,
            ))

    def _sightings(self, world: World) -> list[float | None]:
        # Per camera, the player's distance over its range when it sees the player, else
        # None. Range, floor and cone in plain Python (a level has a handful of cameras),
        # then one wall test for the cameras with the player in their cone.
        found: list[float | None] = [None] * len(self.states)
        player = world.player
        if not player.alive:
            return found
        px, py, pz = player.x, player.y, player.z
        light = world.level.area(player.area).light if player.area else 1.0
        looking: list[tuple[int, float]] = []
        for i, (x, z, y, cos_f, sin_f, cos_half, view) in enumerate(self.eyes):
            if abs(y - py) > STOREY_GAP:
                continue
            dx, dz = px - x, pz - z
            dist = math.hypot(dx, dz)
            reach = view * light
            if dist > reach and dist > NEAR_SENSE:
                continue
            if dist > NEAR_SENSE and (cos_f * dx + sin_f * dz) / max(dist, 1e-9) < cos_half:
                continue
            if world.objects[self.states[i].id].broken:
                continue
            looking.append((i, min(1.0, dist / reach) if reach > 0 else 1.0))
        if looking:
            clear = world.sight.segments_clear(
                [(px, pz, self.eyes[i][0], self.eyes[i][1]) for i, _ in looking],
                player.storey)
            for (i, fraction), ok in zip(looking, clear, strict=True):
                if ok:
                    found[i] = fraction
        return found

    def update(self, world: World) -> None:
        """Look for the player every few ticks; raise alarms; let meters drain."""
        if not self.states or world.tick % THINK_TICKS != 0:
            return
        hold = seconds_to_ticks(CAMERA_HOLD_S)
        for cam, fraction in zip(self.states, self._sightings(world), strict=True):
            if fraction is not None:
                cam.last_seen = world.tick
                cam.meter = min(1.0, cam.meter + sight_gain(THINK_DT, self.tuning.reaction_s,
                                                            fraction))
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
