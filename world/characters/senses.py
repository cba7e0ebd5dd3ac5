"""Turning what the world shows into what characters know: sight of the player, sounds, hits.

`look` runs for the characters deciding this tick, vectorised over all of them; the
event readers run once per tick over the events recorded since the last tick.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from world.characters import friendly
from world.characters.alertness import ALERT_LEVELS, ALERTED, IN_COMBAT, decayed, sight_gain
from world.characters.mind import Mind, Point3
from world.characters.perception import NEAR_SENSE, SILENCED_FACTOR, STOREY_GAP, hearers
from world.sim.actors import PLAYER_ID
from world.sim.clock import TICKS_PER_SECOND
from world.sim.events import Event

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem
    from world.sim.actors import Actor

HEARD_LEVEL = ALERT_LEVELS[ALERTED].threshold + 0.05
# Up to this many (shot, listener) pairs a batch of gunfire is measured in plain Python;
# beyond it one array pass costs less.
SMALL_BATCH = 160
# Batches of gunfire remembered per listeners' array; past this many, start afresh.
BATCH_MEMO = 256


def set_meter(sys: CharactersSystem, mind: Mind, value: float) -> None:
    """Set a mind's alertness meter, recording a change of level as an event."""
    if mind.set_meter(value):
        after = mind.rank
        sys.world.emit("alertness_changed", mind.id, detail=ALERT_LEVELS[after].name,
                       amount=float(after))
        if after == IN_COMBAT and mind.sees:
            sys.world.emit("player_spotted", mind.id, mind.target or PLAYER_ID,
                           detail="character")


def _cos_half(view_angle_deg: float) -> float:
    # All-round sight has no cone: every direction passes.
    return -1.0 if view_angle_deg >= 360.0 else math.cos(math.radians(view_angle_deg) / 2.0)


def _glances(sys: CharactersSystem, pairs: list[tuple[Actor, Mind]],
             seen: list[bool], fraction: list[float]) -> None:
    # Range, floor and view cone in plain Python (a tick has a handful of observers, and
    # a few float operations each cost less than building and combining numpy arrays),
    # then one wall test for every observer with the player in its cone. An observer
    # whose eye and scene are as at its last look sees what it saw then.
    world = sys.world
    player = world.player
    px, py, pz = player.x, player.y, player.z
    # All a glance depends on besides the observer: where the player stands (the area
    # sets the light) and which doors block sight.
    scene = (px, py, pz, player.area, player.storey, world.doors_system.version)
    light = world.level.area(player.area).light if player.area else 1.0
    scale = sys.tuning.sight * light
    near2 = NEAR_SENSE * NEAR_SENSE
    cos_of = sys.cos_half
    fresh: list[tuple[int, Mind, tuple, tuple[float, float, float, float]]] = []
    for i, (a, mind) in enumerate(pairs):
        eye = (scene, a.x, a.y, a.z, a.facing)
        memo = mind.glance
        if memo is not None and memo[0] == eye:
            seen[i] = memo[1]
            fraction[i] = memo[2]
            continue
        if abs(a.y - py) > STOREY_GAP:
            mind.glance = (eye, False, 1.0)
            continue
        dx, dz = px - a.x, pz - a.z
        d2 = dx * dx + dz * dz
        t = a.template
        reach = t.view_range * scale
        if d2 > reach * reach and d2 > near2:
            mind.glance = (eye, False, 1.0)
            continue
        dist = math.sqrt(d2)
        frac = fraction[i] = min(1.0, dist / reach) if reach > 0 else 1.0
        if d2 > near2:
            cos_half = cos_of.get(t.view_angle_deg)
            if cos_half is None:
                cos_half = cos_of[t.view_angle_deg] = _cos_half(t.view_angle_deg)
            cos_to = (math.cos(a.facing) * dx + math.sin(a.facing) * dz) / max(dist, 1e-9)
            if cos_to < cos_half or dist > reach:
                mind.glance = (eye, False, frac)
                continue
        fresh.append((i, mind, eye, (px, pz, a.x, a.z)))
    if fresh:
        clear = world.sight.segments_clear([f[3] for f in fresh], player.storey)
        for (i, mind, eye, _), ok in zip(fresh, clear, strict=True):
            seen[i] = ok
            mind.glance = (eye, ok, fraction[i])


def look(sys: CharactersSystem, pairs: list[tuple[Actor, Mind]]) -> None:
    """Hostiles deciding now look for the player; the meters rise or drain accordingly."""
    world = sys.world
    tick = world.tick
    player = world.player
    seen = [False] * len(pairs)
    fraction = [1.0] * len(pairs)
    if player.alive and pairs:
        _glances(sys, pairs, seen, fraction)
    reaction_s = sys.tuning.reaction_s
    where = player.position
    for i, (_, mind) in enumerate(pairs):
        dt = (tick - mind.last_update) / TICKS_PER_SECOND
        mind.last_update = tick
        mind.sees = seen[i]
        if mind.sees:
            mind.target = PLAYER_ID
            mind.last_known = where
            mind.last_stimulus = tick
            if mind.meter < 1.0:  # a full meter stays full: sight only adds
                set_meter(sys, mind, mind.meter + sight_gain(dt, reaction_s, fraction[i]))
        elif mind.meter > 0.0:
            idle = (tick - mind.last_stimulus) / TICKS_PER_SECOND
            set_meter(sys, mind, decayed(mind.meter, idle, dt))


def calm(sys: CharactersSystem, mind: Mind) -> None:
    """A friendly's alertness drains once nothing has disturbed it for a while."""
    tick = sys.world.tick
    dt = (tick - mind.last_update) / TICKS_PER_SECOND
    mind.last_update = tick
    if mind.meter > 0.0:
        idle = (tick - mind.last_stimulus) / TICKS_PER_SECOND
        set_meter(sys, mind, decayed(mind.meter, idle, dt))


def bot_look(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """A bot looks for the nearest opponent it can see (another bot or the player)."""
    tick = sys.world.tick
    t = actor.template
    dt = (tick - mind.last_update) / TICKS_PER_SECOND
    mind.last_update = tick
    cos_half = -1.0 if t.view_angle_deg >= 360 else math.cos(math.radians(t.view_angle_deg) / 2)
    target = sys.bots.nearest_visible(sys, actor, t.view_range * sys.tuning.sight, cos_half)
    mind.sees = target is not None
    if target is not None:
        mind.target = target
        mind.last_known = sys.world.actor(target).position
        mind.last_stimulus = tick
        set_meter(sys, mind, 1.0)
    elif mind.meter > 0.0:
        idle = (tick - mind.last_stimulus) / TICKS_PER_SECOND
        set_meter(sys, mind, decayed(mind.meter, idle, dt))


# ---- events -------------------------------------------------------------------------
def hear(sys: CharactersSystem, shots: list[Event]) -> None:
    """Everyone in earshot of this tick's shots reacts to the last shot each one heard."""
    world = sys.world
    chars, player = world.characters, world.player
    sources = []
    for event in shots:
        shooter = chars.get(event.subject) or (player if event.subject == PLAYER_ID else None)
        if shooter is None:
            continue
        # A hostile who hears its own side shooting at the player comes to the fight.
        toward = player.position if event.other == PLAYER_ID or shooter.is_player else (
            shooter.position)
        sources.append((shooter, toward, 1.0 if event.amount else 0.0))
    if not sources:
        return
    minds, actors, ranges = sys.listening()
    if not minds:
        return
    if len(sources) * len(minds) <= SMALL_BATCH:
        heard = _last_heard_each(actors, ranges, sources)
    else:
        heard = _last_heard_bulk(sys, sources)
    tick = world.tick
    for i, k in heard:
        mind = minds[i]
        mind.last_stimulus = tick
        if mind.hostile:
            if mind.sees and mind.rank == IN_COMBAT:
                continue
            mind.last_known = sources[k][1]
            if mind.meter < HEARD_LEVEL:
                set_meter(sys, mind, HEARD_LEVEL)
            continue
        if mind.meter < HEARD_LEVEL:
            set_meter(sys, mind, HEARD_LEVEL)
        friendly.frighten(sys, chars[mind.id], mind, sources[k][0].position)


def _last_heard_each(actors: list[Actor], ranges: list[float],
                     sources: list[tuple[Actor, Point3, float]]) -> list[tuple[int, int]]:
    # A few shots and listeners: plain Python, the same arithmetic as `hearers`. Each
    # listener's last shot heard is found by walking the batch from its end.
    last: dict[int, int] = {}
    for k in range(len(sources) - 1, -1, -1):
        shooter, _, silenced = sources[k]
        sx, sy, sz = shooter.x, shooter.y, shooter.z
        factor = SILENCED_FACTOR if silenced > 0 else 1.0
        for i, a in enumerate(actors):
            if a is shooter or i in last:
                continue  # nobody startles at its own shot; a later shot was heard
            dx, dy, dz = a.x - sx, a.y - sy, a.z - sz
            reach = ranges[i] * factor
            if dx * dx + dy * dy + dz * dz <= reach * reach:
                last[i] = k
    return sorted(last.items())


def _last_heard_bulk(sys: CharactersSystem,
                     sources: list[tuple[Actor, Point3, float]]) -> list[tuple[int, int]]:
    # Many shots or listeners: one array pass, then each listener's last shot heard.
    # The answer depends only on the shots (who fired from where, silenced or not) and
    # the listeners' array, so while nobody moves a batch fired again (gunmen standing
    # and firing on the same beat) is answered from memory.
    _, ears = sys.listeners()
    if sys.earshot[0] is not ears:
        sys.earshot = (ears, {}, {})
    keys = tuple([(s.id, s.x, s.y, s.z, q) for s, _, q in sources])
    batches = sys.earshot[2]
    found = batches.get(keys)
    if found is None:
        found = _last_heard_of(sys, _earshot(sys, keys))
        if len(batches) >= BATCH_MEMO:
            batches.clear()  # a bound on memory: the answers stay the same either way
        batches[keys] = found
    return found


def _last_heard_of(sys: CharactersSystem, heard: np.ndarray) -> list[tuple[int, int]]:
    # (listener, last shot heard) from a (shots, listeners) matrix of who hears what.
    who = np.flatnonzero(heard.any(axis=0))
    if not len(who):
        return []
    # The last shot each listener heard: the first from the end of the batch.
    last = (len(heard) - 1 - np.argmax(heard[::-1, who], axis=0)).tolist()
    return list(zip(who.tolist(), last, strict=True))


def _earshot(sys: CharactersSystem, keys: tuple[tuple, ...]) -> np.ndarray:
    # Who hears each source, as rows of a (shots, listeners) matrix. A row depends only
    # on the shooter and where everyone stands, so while the listeners' array is the
    # same (nobody moved, went down or came back) a shooter's row is reused: a fight
    # of standing gunmen asks the same rows again and again.
    ears, rows = sys.earshot[0], sys.earshot[1]
    missing = list(dict.fromkeys(k for k in keys if k not in rows))
    if missing and ears is not None:  # (the caller has built the listeners' array)
        fresh = hearers(ears, np.array([k[1:] for k in missing]))
        index = sys.listener_index()
        for key, row in zip(missing, fresh, strict=True):
            i = index.get(key[0])
            if i is not None:
                row[i] = False  # nobody startles at its own shot
            rows[key] = row
    return np.array([rows[k] for k in keys])


def _hit(sys: CharactersSystem, event: Event) -> None:
    mind = sys.minds.get(event.subject)
    if mind is None or event.other is None:
        return
    world = sys.world
    source = world.characters.get(event.other) or (
        world.player if event.other == PLAYER_ID else None)
    if source is None:
        return
    actor = world.characters[mind.id]
    if not mind.hostile:
        friendly.frighten(sys, actor, mind, source.position)
        return
    mind.last_known = source.position
    mind.last_stimulus = world.tick
    if sys.is_bot(mind.id) or source.is_player:
        mind.target = source.id
    set_meter(sys, mind, 1.0)


def _down(sys: CharactersSystem, event: Event) -> None:
    sys.lives += 1
    world = sys.world
    victim = world.characters.get(event.subject) or (
        world.player if event.subject == PLAYER_ID else None)
    if victim is None:
        return
    if victim.side == "friendly":
        world.emit("friendly_killed", victim.id, event.other)
    sys.bots.on_down(sys, victim, event.other)


def _respawned(sys: CharactersSystem, event: Event) -> None:
    sys.lives += 1


def _used(sys: CharactersSystem, event: Event) -> None:
    mind = sys.minds.get(event.other or "")
    if mind is not None and event.subject == PLAYER_ID:
        friendly.used_by_player(sys, sys.world.characters[mind.id], mind)


def _broken(sys: CharactersSystem, event: Event) -> None:
    sys.alarms.on_broken(sys.world, event.subject, event.other)


def read_events(sys: CharactersSystem, events: list[Event]) -> None:
    """React to the events recorded since the last tick: hits, downs, uses, breakage."""
    for event in events:
        handler = EVENT_HANDLERS.get(event.kind)
        if handler is not None:
            handler(sys, event)


# One handler per event kind the characters react to (shots are heard in batches, `hear`).
EVENT_HANDLERS = {
    "damage_taken": _hit,
    "actor_down": _down,
    "character_respawned": _respawned,
    "object_used": _used,
    "object_broken": _broken,
}
