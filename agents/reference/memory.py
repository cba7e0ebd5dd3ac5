"""What the agent remembers between turns: areas and their ways out, objects, doors, people.

The observation shows the neighbourhood of the moment; the memory keeps what was seen
before, so the agent can walk back to a key it passed or a way out it did not take.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

View = dict[str, Any]
Decision = tuple[str, dict[str, Any], str]

DOOR_ID = re.compile(r"\bd\d+\b")
OPENER = re.compile(r"(?:panel|key) (o\d+)")
VIEW_CAP = 12  # the view lists this many nearest objects (plus objective targets beyond)
TRIFLE = 3  # health or armour points a pickup gave under which its kind is not worth a walk
GAINED = re.compile(r"you gained (\d+) (health|armour)")


@dataclass
class AreaNote:
    """One area as last seen from inside it."""

    name: str
    storey: str
    ways: dict[str, dict[str, Any]] = field(default_factory=dict)
    spot: tuple[float, float, float] | None = None


@dataclass
class Memory:
    """Everything remembered across the turns of one episode."""

    areas: dict[str, AreaNote] = field(default_factory=dict)
    visited: set[str] = field(default_factory=set)
    objects: dict[str, dict[str, Any]] = field(default_factory=dict)
    doors: dict[str, dict[str, Any]] = field(default_factory=dict)
    people: dict[str, dict[str, Any]] = field(default_factory=dict)
    failures: Counter = field(default_factory=Counter)
    used: Counter = field(default_factory=Counter)
    view: View = field(default_factory=dict)
    last: dict[str, Any] | None = None
    last_decision: Decision | None = None
    error: dict[str, Any] | None = None
    turn: int = 0
    time_s: float = 0.0
    blocking_door: str | None = None
    escorted: set[str] = field(default_factory=set)
    downed: set[str] = field(default_factory=set)
    openers: dict[str, str] = field(default_factory=dict)
    looked_round: set[str] = field(default_factory=set)  # doors looked around for their opener
    draining: bool = False  # the last wait lost health with nobody in view
    trifles: set[str] = field(default_factory=set)  # names of pickups that gave next to nothing
    gains: dict[str, list[int]] = field(default_factory=dict)  # per pickup name, what each gave
    magazines: dict[str, int] = field(default_factory=dict)  # per gun, the most seen loaded
    windows: dict[str, dict[str, Any]] = field(default_factory=dict)  # seen, by id
    hold_owed: bool = False  # the last decision was a top-up that put off a hold
    regroup_until: float = -1.0  # game time a hold out of sight after a kill lasts until
    split_until: float = -1.0  # game time a watch beside a doorway for a lone gunman lasts until
    patched: set[str] = field(default_factory=set)  # medkits walked to before waking guards
    # reach_area objective index -> every objective's status when it was found waiting on
    # another (stood in, still to do): not walked back to until a status changes.
    waiting: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # fight.Sightings, made on first use: who stood off and shot at the last look. Kept on
    # the memory, not in a table keyed by its id, which a later memory may be given.
    sightings: Any = None
    notes: dict[str, str] = field(default_factory=dict)  # note id -> its words, once read
    wrong_codes: set[tuple[str, str]] = field(default_factory=set)  # (keypad, code) refused
    searching: bool = False  # exploring before the exit for notes unread (agents.reference.clues)
    opening_spot: tuple[float, float, float] | None = None  # a match's first hold (ambush.py)
    # gun id -> its row and the game time it was last seen lying there (agents.reference.pads)
    gun_spots: dict[str, tuple[dict[str, Any], float]] = field(default_factory=dict)
    # character id -> where the player stood when it last saw him, and his alertness then
    # (out of sight the view says "unknown"; agents.reference.firstshot)
    sighted_from: dict[str, tuple[tuple[float, float, float], str]] = field(default_factory=dict)
    # unaware hostile id -> where first seen standing, and those seen to walk from there,
    # noted once a turn from the first turn asked (agents.reference.backs)
    posts: dict[str, tuple[float, float]] = field(default_factory=dict)
    walkers: set[str] = field(default_factory=set)
    posts_turn: int = -1

    def update(self, observation: dict[str, Any]) -> None:
        """Fold one observation into the memory."""
        view = observation["view"]
        self.view = view
        self.turn = observation["turn"]
        self.time_s = observation["time_s"]
        self.last = observation["last_result"]
        self.error = observation["error"]
        if self.last is not None and self.last["action"] == "wait":
            self.draining = any(c.startswith("you lost") for c in self.last["changes"]) \
                and not any(r["seen"] == "now" and r["friendly"] is not True and not r["down"]
                            for r in view["characters"])
        if self.error and self.last_decision is not None:
            self.fail(self.last_decision, 3)
        self._weigh_pickup()
        for gun in view["player"]["carried"]:
            # A gun is picked up with its magazine full: the most seen in it is its size.
            if gun.get("loaded") is not None:
                self.magazines[gun["id"]] = max(self.magazines.get(gun["id"], 0), gun["loaded"])
        area = view["area"]
        if area is not None:
            note = self.areas.setdefault(area["id"], AreaNote(area["name"], area["storey"]))
            note.ways = {w["id"]: w for w in area["ways_out"]}
            note.spot = tuple(view["player"]["position"])
            self.visited.add(area["id"])
            for way in area["ways_out"]:
                if way["visited"]:
                    self.visited.add(way["to"])
        self._forget_taken(view["objects"])
        self._merge(self.objects, view["objects"])
        for row in view["objects"]:
            if row["kind"] == "weapon":
                self.gun_spots[row["id"]] = (row, self.time_s)
        self._merge(self.doors, view["doors"])
        self._merge(self.people, view["characters"])
        for row in view["characters"]:
            if row["seen"] == "now":
                (self.downed.add if row["down"] else self.downed.discard)(row["id"])
                self.sighted_from[row["id"]] = (self.position, row["alertness"])
        self.blocking_door = self._blocking_door()

    def _weigh_pickup(self) -> None:
        # A medkit or vest taken on its own and found to give a point or two (a bonus
        # trinket) is not worth a walk when hurt: others of its name are passed over.
        done, last = self.last_decision, self.last
        if done is None or last is None or done[0] != "go_to_object" \
                or last["end_reason"] != "arrived":
            return
        row = self.objects.get(done[1].get("object_id", ""))
        if row is None or row["kind"] not in ("medkit", "armour"):
            return
        what = "health" if row["kind"] == "medkit" else "armour"
        if self.view["player"][what] >= 1.0:
            return  # topped up to full: the gain says nothing of what it holds
        gains = [int(n) for n, kind in GAINED.findall(" ".join(last["changes"])) if kind == what]
        if not gains:
            return
        # The change is net of what the walk there cost (an acid floor, a stray shot), so
        # a name is judged by the best of at least two pickups.
        seen = self.gains.setdefault(row["name"], [])
        seen.append(max(gains))
        if len(seen) >= 2 and max(seen) < TRIFLE:
            self.trifles.add(row["name"])

    def _forget_taken(self, rows: list[dict[str, Any]]) -> None:
        # The view lists every remembered object up to a cap, nearest first: an object
        # missing from it yet nearer than the last one within the cap is gone (taken, used
        # up). Objective targets beyond the cap are listed after it, so the horizon is the
        # cap-th nearest, not the farthest row: a box of rounds between the two is kept.
        shown = {r["id"] for r in rows}
        nearest = sorted(r["distance"] for r in rows)
        horizon = math.inf if len(nearest) < VIEW_CAP else nearest[VIEW_CAP - 1]
        for oid in [o for o in self.objects if o not in shown]:
            if self.distance(self.objects[oid]["position"]) < horizon:
                del self.objects[oid]

    @staticmethod
    def _merge(into: dict[str, dict[str, Any]], rows: list[dict[str, Any]]) -> None:
        for row in rows:
            into[row["id"]] = row

    def _blocking_door(self) -> str | None:
        # The result of a walk names the door that stopped it; keep it while it is shut.
        if self.last and self.last["end_reason"] == "door_closed":
            found = DOOR_ID.search(self.last["detail"])
            if found:
                # What opens it (its panel or key) is named here even when the door's
                # own row is out of view; keep it for the turns spent fetching it.
                opener = OPENER.search(self.last["detail"])
                if opener:
                    self.openers[found.group(0)] = opener.group(1)
                return found.group(0)
        door = self.doors.get(self.blocking_door or "")
        if door is not None and door["state"] in ("locked", "closed"):
            return self.blocking_door
        return None

    # ---- small queries ---------------------------------------------------------------
    @property
    def here(self) -> str | None:
        """The current area's id, None between areas."""
        return self.view["area"]["id"] if self.view["area"] else None

    @property
    def position(self) -> tuple[float, float, float]:
        """The player's position."""
        return tuple(self.view["player"]["position"])

    def distance(self, point: list[float] | tuple[float, ...]) -> float:
        """Straight-line distance from the player to a point (height included)."""
        return math.dist(self.position, tuple(point))

    def fail(self, decision: Decision, weight: int = 1) -> None:
        """Count a decision that did not get anywhere, so it is not retried for ever."""
        self.failures[_key(decision)] += weight

    def failed(self, decision: Decision, limit: int = 3) -> bool:
        """Whether this decision has failed often enough to try something else."""
        return self.failures[_key(decision)] >= limit

    def hurried(self) -> bool:
        """Whether a countdown the view lists is running: no hold or detour is worth its time."""
        return any(h["kind"] == "countdown" for h in self.view["hazards"])

    def on_hazard(self) -> bool:
        """Whether the player stands inside a floor hazard the view lists (it drains health)."""
        x, _, z = self.position
        return any(h["extent"] and _inside(x, z, h["extent"]) for h in self.view["hazards"])

    def carried(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Carried items, optionally only of one kind."""
        items = self.view["player"]["carried"]
        return [c for c in items if kind is None or c["kind"] == kind]

    def holds(self, item_id: str) -> bool:
        """Whether the player carries this item."""
        return any(c["id"] == item_id for c in self.view["player"]["carried"])


def _inside(x: float, z: float, ring: list[list[float]]) -> bool:
    # Even-odd rule: a ray toward +x crosses the outline an odd number of times.
    odd = False
    for (ax, az), (bx, bz) in zip(ring, ring[1:] + ring[:1], strict=True):
        if (az > z) != (bz > z) and x < ax + (z - az) * (bx - ax) / (bz - az):
            odd = not odd
    return odd


def _key(decision: Decision) -> tuple[str, str]:
    action, args = decision[0], decision[1]
    ident = next((str(args[k]) for k in ("object_id", "character_id", "exit_id", "item_id")
                  if k in args), None)
    if ident is None and "x" in args:
        ident = f"{round(args['x'] / 50)}:{round(args['z'] / 50)}"
    return action, ident or ""
