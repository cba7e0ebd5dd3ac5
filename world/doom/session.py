"""One Doom episode behind the harness's `Game` face: view, act, status and state hash.

The session starts the engine for a mission (world/doom/mission.py), derives the
sectors, their ways out and the route grid from the engine's map, and runs each macro
action tic by tic (world/doom/actions.py). Game time is reported in the harness's ticks
(30 a second) from Doom's tics (35 a second). Positions are [x, height, y] so that, as
in the shipped world, x and z span the ground and y is up; angles keep Doom's sense.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from typing import Any

from world.actions.catalog import catalog, reflex_on
from world.actions.timing import explicit
from world.doom.actions import EXECUTORS
from world.doom.controls import Play
from world.doom.engine import TICS_PER_SECOND, Engine, EngineSpec, Thing
from world.doom.geometry import HEADROOM, STEP_UP, MapGeometry
from world.doom.known import (
    AIM_HEIGHT,
    LETTERS,
    EpisodeIds,
    Knowledge,
    Sighting,
    describe,
    eye_and_heights,
)
from world.doom.layout import DoorSpot, Layout, Way
from world.doom.mission import DoomLevel
from world.doom.polygons import sector_of_sides
from world.doom.returnfire import ReturnFire
from world.doom.route import Planner
from world.doom.verdict import Facts, Judge
from world.doom.view import build_plan, build_view
from world.errors import UnknownIdError
from world.observe.status import GameStatus
from world.sim.clock import TICKS_PER_SECOND
from world.turn import Stepping

# Tics between looks at the things: pickups taken and return fire every 4, what the
# player knows every 8, on the same tics, so the engine's list is read once for them all.
PICKUP_EVERY = 4
KNOW_EVERY = 8
PICKUP_REACH = 100.0  # a pickup gone this close to the player (a walk's 4 tics) was taken
HURT = 10.0  # health lost in one action that interrupts it (acid floors drain less often)
USE_NEAR = 128.0  # a door whose middle is this near may be the one a use press reaches


class DoomSession(Stepping):
    """One Doom episode as the harness drives it (the `Game` protocol)."""

    def __init__(self, level: DoomLevel, difficulty: str, seed: int) -> None:
        self.level, self.difficulty, self.seed = level, difficulty, seed
        budget_tics = int(level.budgets.max_game_seconds * TICS_PER_SECOND)
        self.engine = Engine(EngineSpec(level.scenario, level.iwad, level.map,
                                        level.skill(difficulty), budget_tics + 350), seed)
        self.start_tic = self.engine.snap.tic
        self.geo = MapGeometry(self.engine.sector_lines)
        self.planner = Planner(self.geo)
        self.layout = Layout(level)
        self.way_list = self.layout.ways
        self.doors = self.layout.doors
        # Ids follow perception (handed out as the view first shows each thing); the
        # record's map numbers everything in the map's order with its own numbering.
        self.ids = EpisodeIds()
        self._map_ids = EpisodeIds()
        self.switches = self.layout.switches
        self.known = Knowledge(self.layout, tuple(t for t, _ in self.switches))
        snap = self.engine.snap
        monsters = sum(1 for t in snap.things if t.category == "Monster")
        self.facts = Facts(self.start_tic, budget_tics + 350 + self.start_tic, monsters, {})
        self.judge = Judge(level, difficulty, self.facts)
        self._prev = snap  # the snapshot a tic before, to tell which way doors move
        self._border_pairs: dict[tuple[int, int], tuple[tuple[int, int], ...]] | None = None
        self.known.update(snap)
        self.judge.update(snap, 0)
        self._plan = build_plan(self, self._map_ids)  # of the start, as the header wants

    # --- the Game protocol -------------------------------------------------------------
    @property
    def tick(self) -> int:
        """Game time in the harness's ticks (30 a second)."""
        return self.ticks_at(self.engine.snap.tic)

    def ticks_at(self, tic: int) -> int:
        """The harness's tick (30 a second) of an engine tic (35 a second)."""
        return (tic - self.start_tic) * TICKS_PER_SECOND // TICS_PER_SECOND

    def view(self) -> dict[str, Any]:
        """The structured view now (what the player knows)."""
        self.known.update(self.engine.snap)
        return build_view(self)

    def plan(self) -> dict[str, Any]:
        """The map a record carries, in the map's own ids (the start's things)."""
        return copy.deepcopy(self._plan)

    def ids_given(self) -> dict[str, str]:
        """Every episode id handed out so far and the map's id of the same thing.

        A thing the map does not draw (a way that is a door's, a monster spawned later)
        is left out.
        """
        out = {}
        for ep in self.ids.handed_out(tuple(LETTERS)):
            group, key = self.ids.lookup(ep) or ("", 0)
            mapped = self._map_ids.peek(group, key)
            if mapped is not None:
                out[ep] = mapped
        return out

    def way(self, ep: str) -> Way:
        """The way out an episode id names (checked known by `act`)."""
        found = self.ids.lookup(ep)
        assert found is not None and found[0] == "way"
        return self.way_list[found[1]]

    def status(self) -> GameStatus:
        """The mission status now."""
        j = self.judge
        objectives = tuple({"index": n, "status": i.status, "counts": i.counts,
                            "text": i.objective.text,
                            "tick": None if i.tick is None else i.tick}
                           for n, i in enumerate(j.items, 1))
        return GameStatus(j.ending is not None, j.success, j.failure(), j.score(),
                          j.progress(), objectives, j.stages())

    def state_hash(self) -> str:
        """A digest of position, health, armour, ammunition, kills, things and heights."""
        snap = self.engine.snap
        data = [snap.tic, sorted(snap.counters.items()), snap.floors, snap.ceilings,
                [(t.id, round(t.x, 3), round(t.y, 3)) for t in snap.things]]
        return hashlib.sha256(json.dumps(data).encode()).hexdigest()

    def act(self, action: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Execute one macro action given in episode ids."""
        args = dict(arguments)
        for name, groups in (("exit_id", ("way",)), ("object_id", ("object", "door")),
                             ("character_id", ("character",))):
            if name in args:
                self._check_id(name.removesuffix("_id"), args[name], groups)
        limit = explicit(float(args.get("time_limit_s") or catalog().time_cap_s))
        limit_tics = round(limit.seconds * TICS_PER_SECOND)
        before = self.engine.snap
        statuses = [i.status for i in self.judge.items]
        start_tick = self.tick

        def interrupt() -> str | None:
            snap = self.engine.snap
            self.judge.update(snap, self.tick)
            if snap.tic % KNOW_EVERY == 0:
                self.known.update(snap)
            if snap.dead:
                return "dead"
            if snap.finished or self.judge.ending is not None:
                return "stage"
            if [i.status for i in self.judge.items] != statuses:
                return "objective"
            if snap.counters["HEALTH"] <= before.counters["HEALTH"] - HURT and action != "attack":
                return "damage"
            return None

        # The reflex rule (PROTOCOL.md, "What the player does by reflex"), as in the world.
        reflex = ReturnFire(self.sees_things) if reflex_on(action, args) else None
        play = Play(self._advance, interrupt, limit_tics, reflex=reflex,
                    may_use=self.use_is_safe, footing=self.footing)
        play.last = before
        reason, sentence, _ = EXECUTORS[action](self, play, args)
        self.known.update(self.engine.snap)
        after = self.engine.snap
        return {
            "action": action, "args": dict(arguments), "end_reason": reason,
            "ticks": self.tick - start_tick, "distance_moved": round(play.moved, 2),
            "events": [], "adjusted_target": None, "adjusted_by": 0.0,
            "door": self.door_block(args["object_id"]) if reason == "door_closed" else None,
            "detail": sentence.replace("{area}", self.area_id_at(after.xy) or "another area"),
            "capped": limit.capped, "time_limit_ticks": limit.ticks,
            "path": [[round(x), round(self._floor(x, y)), round(y)] for x, y in play.path],
            "changes": _changes(before.counters, after.counters),
        }

    # --- helpers for actions and views -------------------------------------------------
    def _advance(self, *controls: Any) -> Any:
        self._prev = self.engine.snap
        snap = self.engine.step(*controls)
        self._note_pickups(snap)
        return snap

    def _note_pickups(self, snap: Any) -> None:
        # A pickup that vanishes next to the player was taken by it (the pickups verifier).
        # Looked at every few tics (reading the things costs), so "next to" is wider.
        if snap.tic % PICKUP_EVERY and not snap.finished:
            return
        present = {t.id for t in snap.things}
        for t in getattr(self, "_last_things", ()):
            words = describe(t)
            if t.id not in present and math.dist((t.x, t.y), snap.xy) < PICKUP_REACH \
                    and words is not None and words.group == "object":
                self.facts.pickups[words.kind] = self.facts.pickups.get(words.kind, 0) + 1
        self._last_things = snap.things

    def _check_id(self, kind: str, ep: str, groups: tuple[str, ...]) -> None:
        found = self.ids.lookup(ep)
        known = self._known_ids(groups)
        if found is None or found[0] not in groups or ep not in known:
            raise UnknownIdError(kind, ep, known)

    def _known_ids(self, groups: tuple[str, ...]) -> list[str]:
        out = []
        if "way" in groups:
            here = self.layout.area_at(*self.engine.snap.xy)
            out += [self.ids.peek("way", w.index) for w in self.way_list
                    if self.leads_out(w, here)]
        for sighting in self.known.things.values():
            if sighting.group in groups:
                out.append(self.ids.peek(sighting.group, sighting.thing.id))
        if "door" in groups:
            out += [self.ids.peek("door", d.index) for d in self.doors
                    if self.known.knows_door(d)]
        # Only ids already shown: a thing known but never listed has none yet.
        return sorted((e for e in out if e is not None), key=lambda e: (e[0], int(e[1:])))

    def leads_out(self, way: Way, area: int | None) -> bool:
        """Whether a way leads out of an area (a teleport only from its start).

        A secret door the player has not found is a wall, no way out.
        """
        if way.door is not None and self.known.hidden(self.doors[way.door]):
            return False
        if not (area == way.areas[0] or (area == way.areas[1] and not way.one_way)):
            return False
        return way.kind != "open" or self._climbable(way, area)

    def _climbable(self, way: Way, area: int) -> bool:
        # An open border is a way out only where the floor beyond is at most a step up
        # with headroom, at the live heights: a ledge above the player (seen as such) is
        # a way down from there, not up from here.
        other = way.areas[1] if way.areas[0] == area else way.areas[0]
        pairs = self._borders().get((area, other), ())
        snap = self.engine.snap
        floors, ceilings = snap.floors, snap.ceilings
        return not pairs or any(
            floors[b] - floors[a] <= STEP_UP and ceilings[b] - max(floors[a], floors[b])
            >= HEADROOM for a, b in pairs)

    def _borders(self) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
        # Per (area, area beyond), the sectors either side of the two-sided lines between.
        if self._border_pairs is None:
            rooms = self.layout.rooms
            front, back = sector_of_sides(rooms.map)
            found: dict[tuple[int, int], set[tuple[int, int]]] = {}
            for a, b in zip(front.tolist(), back.tolist(), strict=True):
                if a < 0 or b < 0 or a == b:
                    continue
                aa, ab = rooms.sector_area[a], rooms.sector_area[b]
                if aa >= 0 and ab >= 0 and aa != ab:
                    found.setdefault((aa, ab), set()).add((a, b))
                    found.setdefault((ab, aa), set()).add((b, a))
            self._border_pairs = {k: tuple(sorted(v)) for k, v in found.items()}
        return self._border_pairs

    def inside(self, way: Way, area: int) -> tuple[float, float]:
        """A point just inside an area past a way's middle."""
        return self.layout.inside(way, area)

    def area_id_at(self, xy: tuple[float, float]) -> str | None:
        """The episode id of the area at a point."""
        area = self.layout.area_at(*xy)
        return None if area is None else self.ids.of("area", area)

    def _floor(self, x: float, y: float) -> float:
        sector = self.layout.rooms.sector_at(x, y)
        return self.engine.snap.floors[sector] if sector is not None else 0.0

    def spot_of(self, ep: str) -> tuple[float, float] | None:
        """Where a known thing is (or was last seen); None once seen gone."""
        found = self.ids.lookup(ep)
        if found is not None and found[0] == "door":
            return self.doors[found[1]].point
        if found is None or found[1] not in self.known.things:
            return None
        thing = self.known.things[found[1]].thing
        return (thing.x, thing.y)

    def door_of(self, ep: str) -> DoorSpot | None:
        """The door an episode id names, or None when it names something else."""
        found = self.ids.lookup(ep)
        return self.doors[found[1]] if found is not None and found[0] == "door" else None

    def door_block(self, ep: str) -> dict[str, Any]:
        """A door that did not open: its state and the switch that opens it, once seen."""
        found = self.ids.lookup(ep)
        if found is None:
            raise KeyError(f"no door is known by the id {ep!r}")
        door = self.doors[found[1]]
        return {"door": ep, "state": "locked" if door.key else "closed", "key": None,
                "key_area": None, "panel": self.panel_of(door)}

    def door_state(self, door: DoorSpot) -> str:
        """A door as the player sees it move: open, opening, closing, closed or locked.

        Doom's doors rise and fall a couple of units a tic; the last tic tells which way.
        """
        now, before = self.engine.snap, self._prev
        gap = now.ceilings[door.sector] - now.floors[door.sector]
        was = before.ceilings[door.sector] - before.floors[door.sector] if before.ceilings \
            else gap
        if gap < was:
            return "closing"
        if gap > was and gap < HEADROOM:
            return "opening"
        if gap >= HEADROOM:
            return "open"
        return "locked" if door.key and gap <= 0 else "closed"

    def footing(self, point: tuple[float, float]) -> bool:
        """Whether the player may step to a point: box fits, no step up or drop, no harm."""
        grid, snap = self.layout.navgrid, self.engine.snap
        sector = self.layout.rooms.sector_at(*point)
        if sector is None:
            return False
        cell = grid.cell_of(*point)
        floor, ceiling = snap.floors[sector], snap.ceilings[sector]
        return not grid.wall[cell] and not grid.hurt[cell] and ceiling - floor >= HEADROOM \
            and abs(floor - snap.counters["POSITION_Z"]) <= STEP_UP

    def use_is_safe(self) -> bool:
        """Whether a use press now leaves every door in reach as it is meant to go.

        Using a door that is opening or standing open sends it shut again (Doom's doors
        reverse on use), so a walk that presses use on its way presses only while no
        known door near is open or opening; a closing one is reopened by the press. A
        door the player does not know (a secret one not found) is not looked at.
        """
        xy = self.engine.snap.xy
        return all(self.door_state(d) in ("closed", "locked", "closing") for d in self.doors
                   if math.dist(d.point, xy) <= USE_NEAR and self.known.knows_door(d))

    def panel_of(self, door: DoorSpot) -> str | None:
        """The id of a switch the player has seen that moves a door, or None."""
        for (thing, _), moves in zip(self.switches, self.layout.switch_moves, strict=True):
            if door.sector in moves and thing.id in self.known.things:
                return self.ids.thing(thing, "object")
        return None

    def switch_face(self, ep: str) -> tuple[float, float] | None:
        """For a switch, the middle of its wall (to face when pressing use); else None."""
        found = self.ids.lookup(ep)
        for thing, wall in self.switches:
            if found is not None and thing.id == found[1]:
                return wall
        return None

    def sighting(self, ep: str) -> Sighting | None:
        """A known thing as the player last perceived it; None once seen gone."""
        found = self.ids.lookup(ep)
        return None if found is None else self.known.things.get(found[1])

    def live_monster(self, ep: str) -> Thing | None:
        """A known monster as it is now while it is alive; None once down or gone."""
        found = self.ids.lookup(ep)
        if found is None:
            return None
        for t in self.engine.snap.things:
            if t.id == found[1] and t.category == "Monster":
                return t
        return None

    def sees(self, point: tuple[float, float], z: float | None = None) -> bool:
        """Whether a sight line from the player's eye reaches a point (at a body's middle)."""
        snap = self.engine.snap
        eye, live = eye_and_heights(snap)
        height = self._floor(*point) if z is None else z
        return self.layout.sight.visible(eye, (point[0], point[1], height + AIM_HEIGHT), live)

    def sees_things(self, things: list[Thing]) -> list[bool]:
        """Per thing, whether a sight line from the player's eye reaches its middle."""
        if not things:
            return []
        eye, live = eye_and_heights(self.engine.snap)
        targets = [(t.x, t.y, t.z + AIM_HEIGHT) for t in things]
        return self.layout.sight.visible_many(eye, targets, live).tolist()

    def close(self) -> None:
        """Stop the engine."""
        self.engine.close()


def _changes(before: dict[str, float], after: dict[str, float]) -> list[str]:
    lines = []
    for name, word in (("HEALTH", "health"), ("ARMOR", "armour")):
        delta = after[name] - before[name]
        if delta:
            lines.append(f"you {'lost' if delta < 0 else 'gained'} {abs(delta):.0f} {word}")
    for name, word in (("KILLCOUNT", "monsters killed"), ("ITEMCOUNT", "items picked up"),
                       ("SECRETCOUNT", "secrets found")):
        delta = after[name] - before[name]
        if delta > 0:
            lines.append(f"{delta:.0f} {word}")
    return lines
