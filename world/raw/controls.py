"""The raw-control track's controller: one tick of input turned into the player's intent.

The controls are declared once (`CONTROLS`), each a small set of values; the Raw
environment's `MultiDiscrete` space, docs/rl.md's table and the intent all follow
from it. Firing aims like a classic shooter's auto-aim: at the nearest character not
down within `AIM_CONE_DEG` of the facing and in the line of sight, else at a point
straight ahead (a shot at nothing). Use presses on the door, object or character
within reach that lies nearest the facing (within `USE_CONE_DEG`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

from world.sim.intent import PlayerIntent
from world.sim.world import World

AIM_CONE_DEG = 6.0
USE_CONE_DEG = 60.0
TURN_DEG_PER_TICK = (-10.0, -3.0, 0.0, 3.0, 10.0)


@dataclass(frozen=True)
class Control:
    """One controller input: its values (index = the action component) and meaning."""

    name: str
    values: tuple[str, ...]
    summary: str


CONTROLS: MappingProxyType[str, Control] = MappingProxyType({c.name: c for c in (
    Control("move", ("back", "none", "forward"), "Walk along the facing at the player's speed."),
    Control("strafe", ("right", "none", "left"),
            "Side-step at right angles to the facing (left is +90 degrees, counter-clockwise)."),
    Control("turn", tuple(f"{d:+g}" for d in TURN_DEG_PER_TICK),
            "Turn by this many degrees each tick (positive is counter-clockwise)."),
    Control("fire", ("no", "yes"), f"Fire the weapon in hand (auto-aim within "
            f"{AIM_CONE_DEG:g} degrees of the facing)."),
    Control("use", ("no", "yes"), f"Press use on the nearest thing in reach within "
            f"{USE_CONE_DEG:g} degrees of the facing."),
    Control("next_weapon", ("no", "yes"), "Take the next carried weapon in hand."),
)})
NVEC = tuple(len(c.values) for c in CONTROLS.values())


@dataclass(frozen=True)
class Input:
    """One tick of controller input, decoded from an action vector."""

    move: int
    strafe: int
    turn_deg: float
    fire: bool
    use: bool
    next_weapon: bool

    @classmethod
    def of(cls, action) -> Input:
        """Decode a `MultiDiscrete(NVEC)` action (checked against NVEC).

        Raises:
            ValueError: A vector of the wrong length or a value out of range, named.
        """
        values = [int(v) for v in action]
        if len(values) != len(NVEC):
            raise ValueError(f"action: expected {len(NVEC)} controls "
                             f"({', '.join(CONTROLS)}), got {len(values)}")
        for (name, control), v in zip(CONTROLS.items(), values, strict=True):
            if not 0 <= v < len(control.values):
                raise ValueError(f"action: control {name!r} is {v}; allowed 0.."
                                 f"{len(control.values) - 1} ({', '.join(control.values)})")
        move, strafe, turn, fire, use, nxt = values
        return cls(move - 1, 1 - strafe, TURN_DEG_PER_TICK[turn], bool(fire), bool(use),
                   bool(nxt))


def _bearing_off(world: World, x: float, z: float, facing: float) -> float:
    p = world.player
    off = math.atan2(z - p.z, x - p.x) - facing
    return abs((off + math.pi) % (2 * math.pi) - math.pi)


def aim_target(world: World, facing: float) -> str | None:
    """The character auto-aim picks, or None."""
    p = world.player
    cone = math.radians(AIM_CONE_DEG)
    best: tuple[float, str] | None = None
    for cid, actor in world.characters.items():
        if not actor.alive or actor.storey != p.storey:
            continue
        if _bearing_off(world, actor.x, actor.z, facing) > cone:
            continue
        if not world.sight.line_of_sight((p.x, p.z), (actor.x, actor.z), p.storey):
            continue
        d = math.hypot(actor.x - p.x, actor.z - p.z)
        if best is None or (d, cid) < best:
            best = (d, cid)
    return None if best is None else best[1]


# Slack of the quick test below: far above the rounding of any distance here.
_REACH_SLACK = 1.0


def _near_things(world: World) -> list[str]:
    """Things use could press on, less those plainly beyond reach, in `use_target`'s order.

    A quick test before the exact `distance_to`, which decides every other case: a thing
    on another storey is out of reach, a door is no nearer than its middle less half its
    length, an object or a character no nearer than its point.
    """
    p = world.player
    px, pz, storey = p.x, p.z, p.storey
    room = world.reach + _REACH_SLACK
    gates = world.layout.gate_reach  # (the middles and half lengths made once a world)
    near = []
    for gid in world.doors:
        gate_storey, x, z, half = gates[gid]
        r = room + half
        if gate_storey == storey and (x - px) ** 2 + (z - pz) ** 2 <= r * r:
            near.append(gid)
    for oid, obj in world.objects.items():
        if obj.present and obj.x is not None and obj.holder is None and obj.storey == storey:
            x, z, _ = obj.spot
            if (x - px) ** 2 + (z - pz) ** 2 <= room * room:
                near.append(oid)
    for cid, actor in world.characters.items():
        if actor.alive and actor.storey == storey and (
                (actor.x - px) ** 2 + (actor.z - pz) ** 2 <= room * room):
            near.append(cid)
    return near


def use_target(world: World, facing: float) -> str | None:
    """What use presses on: the thing in reach nearest the facing, or None."""
    p = world.player
    cone = math.radians(USE_CONE_DEG)
    best: tuple[float, str] | None = None
    for tid in _near_things(world):
        if world.distance_to(p, tid) > world.reach:
            continue
        # The point the world measures reach to (a door: its middle).
        x, z, _storey = world._target_point(tid)
        off = _bearing_off(world, x, z, facing)
        if off <= cone and (best is None or (off, tid) < best):
            best = (off, tid)
    return None if best is None else best[1]


def next_weapon(world: World) -> str | None:
    """The carried weapon after the one in hand (in the order taken), or None."""
    p = world.player
    weapons = [o for o in p.inventory if world.level.object(o).kind == "weapon"]
    if not weapons:
        return None
    if p.in_hand not in weapons:
        return weapons[0]
    nxt = weapons[(weapons.index(p.in_hand) + 1) % len(weapons)]
    return None if nxt == p.in_hand else nxt


def intent(world: World, control: Input) -> PlayerIntent:
    """The player's intent for one tick of this input."""
    p = world.player
    facing = p.facing + math.radians(control.turn_deg)
    move_to = None
    dx = control.move * math.cos(facing) + control.strafe * math.cos(facing + math.pi / 2)
    dz = control.move * math.sin(facing) + control.strafe * math.sin(facing + math.pi / 2)
    norm = math.hypot(dx, dz)
    if norm > 0:
        # A waypoint a second's walk away: the player walks at full speed all tick.
        move_to = (p.x + dx / norm * p.speed, p.z + dz / norm * p.speed)
    fire_at = None
    if control.fire:
        fire_at = aim_target(world, facing) or (
            p.x + 1000.0 * math.cos(facing), p.y, p.z + 1000.0 * math.sin(facing))
    return PlayerIntent(
        move_to=move_to, face=facing, fire_at=fire_at,
        use=use_target(world, facing) if control.use else None,
        equip=next_weapon(world) if control.next_weapon else None)
