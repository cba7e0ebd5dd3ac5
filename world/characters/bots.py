"""Arena bots: roam toward pickups, fight whoever they see, respawn, and count frags.

Bots are characters with the "roam" behaviour. Every bot is everyone's opponent,
the player's included; a bot that puts an opponent down scores a frag ("frag" event).
Downed bots with a respawn time come back at a spawn point chosen by the episode's
generator.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from world.characters import walker
from world.characters.mind import Mind
from world.characters.perception import NEAR_SENSE, STOREY_GAP
from world.sim.actors import PLAYER_ID
from world.sim.clock import seconds_to_ticks
from world.sim.items import PICKUPS

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem
    from world.sim.actors import Actor
    from world.sim.world import World

PICKUP_REACH = 60.0  # beyond the body radius
ROAM_CHOICES = 3  # a bot heads for one of the nearest few pickups, drawn at random
BOT_BEHAVIOUR = "roam"


class Bots:
    """Frag counts, pickups and respawns of arena bots."""

    def __init__(self, world: World) -> None:
        """Index the level's pickups and spawn points."""
        objects = world.level.objects
        self.pickups = sorted(o.id for o in objects if o.kind in PICKUPS and o.area is not None)
        self.spawn_points = sorted(o.id for o in objects if o.kind == "spawn_point")
        self.frags: dict[str, int] = {}

    # ---- routine ----------------------------------------------------------------------
    def roam(self, sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
        """Take pickups in reach, then head for another pickup."""
        world = sys.world
        mind.activity = "roaming"
        present = [(world.objects[p], *world.objects[p].spot) for p in self.pickups
                   if world.objects[p].present]
        reach = actor.radius + PICKUP_REACH
        for obj, ox, oz, on in present:
            if on == actor.storey and math.hypot(ox - actor.x, oz - actor.z) <= reach:
                world.items.take(actor, obj, auto=True)
        if mind.waypoints:
            return
        choices = sorted(
            (math.hypot(ox - actor.x, oz - actor.z), o.id)
            for o, ox, oz, on in present
            if on == actor.storey and math.hypot(ox - actor.x, oz - actor.z) > reach
        )[:ROAM_CHOICES]
        if choices:
            goal = walker.goal_of(world, *world.objects[
                choices[int(world.rng.integers(len(choices)))][1]].spot)
        elif self.spawn_points:
            place = world.level.object(self.spawn_points[int(world.rng.integers(
                len(self.spawn_points)))]).place
            goal = walker.goal_of(world, place.at[0], place.at[1],
                                  world.level.area(place.area).storey)
        else:
            return
        walker.plan(world, actor, mind, goal, force=True)

    # ---- opponents --------------------------------------------------------------------
    def nearest_visible(self, sys: CharactersSystem, actor: Actor, view_range: float,
                        cos_half: float) -> str | None:
        """The nearest opponent the bot sees (bots and the player), or None."""
        world = sys.world
        others = [a for a in sys.bot_opponents() if a is not actor]
        if not others:
            return None
        pos = np.array([(a.x, a.z, a.y) for a in others])
        dx, dz = pos[:, 0] - actor.x, pos[:, 1] - actor.z
        dist = np.hypot(dx, dz)
        cos_to = (math.cos(actor.facing) * dx + math.sin(actor.facing) * dz) / np.maximum(dist,
                                                                                          1e-9)
        mask = (np.abs(pos[:, 2] - actor.y) <= STOREY_GAP) & (
            ((cos_to >= cos_half) & (dist <= view_range)) | (dist <= NEAR_SENSE)
        )
        if not mask.any():
            return None
        idx = np.flatnonzero(mask)
        idx = idx[np.argsort(dist[idx], kind="stable")]
        clear = world.sight.visible_from(actor.position, pos[idx][:, :2], actor.storey)
        hits = idx[clear]
        return others[int(hits[0])].id if hits.size else None

    # ---- frags and respawns -----------------------------------------------------------
    def on_down(self, sys: CharactersSystem, victim: Actor, killer: str | None) -> None:
        """Count a frag when a bot or the player downs an opponent; schedule a respawn."""
        world = sys.world
        is_bot = sys.is_bot
        scorer = killer is not None and killer != victim.id and (
            killer == PLAYER_ID or is_bot(killer))
        if killer is not None and scorer and (victim.is_player or is_bot(victim.id)):
            self.frags[killer] = self.frags.get(killer, 0) + 1
            world.emit("frag", killer, victim.id, float(self.frags[killer]))
        mind = sys.minds.get(victim.id)
        template = victim.template
        if mind is not None and template is not None and template.respawn_s is not None:
            mind.respawn_at = world.tick + seconds_to_ticks(template.respawn_s)

    def respawn(self, sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
        """Bring a downed bot back at a spawn point with full health."""
        world = sys.world
        mind.respawn_at = None
        if self.spawn_points:
            place = world.level.object(self.spawn_points[int(world.rng.integers(
                len(self.spawn_points)))]).place
            x, z, storey = place.at[0], place.at[1], world.level.area(place.area).storey
        else:
            x, z, storey = mind.post[0], mind.post[2], mind.post_storey
        world.physics.place(actor, x, z, storey)
        actor.y = world.layout.storey_y[storey]
        actor.area = world.area_at(x, z, storey) or actor.area
        actor.alive = True
        actor.health = actor.max_health
        actor.armour = actor.template.armour
        actor.move_to = None
        world.physics.add_actor(actor)
        mind.clear_path()
        mind.target = None
        mind.sees = False
        mind.set_meter(0.0)
        world.emit("character_respawned", actor.id, detail=storey)

    def state_items(self) -> tuple:
        """Frag counts for the state hash."""
        return tuple(sorted(self.frags.items()))
