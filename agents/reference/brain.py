"""The decision loop: remember, learn from the last result, then take the first useful step.

The steps are tried in a fixed order (stay alive, open the way, objectives in the order
the view lists them, the exit, exploration, roaming), each returning a decision or None.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from agents.reference.clues import search_before_exit, told_apart
from agents.reference.codes import learn_reads, read_notes
from agents.reference.cover import hold_after_kill, under_fire
from agents.reference.doors import open_way, spare_kit
from agents.reference.duels import gun_up, reload_then_hold
from agents.reference.fight import CLOSE_RANGE, fight, threats
from agents.reference.firstshot import first_shot
from agents.reference.holdout import short_look
from agents.reference.longgun import best_gun_up
from agents.reference.memory import Decision, Memory
from agents.reference.moves import (
    STEALTHY,
    enter_area,
    explore,
    look_around,
    upstairs_leg,
    use_thing,
    wander,
)
from agents.reference.people import open_work, targets_in_sight
from agents.reference.plans import PLANS
from agents.reference.regroup import hold_out_of_sight, room_before_door, step_out_of_sight
from agents.reference.reloads import top_up_calm
from agents.reference.rivals import match_step
from agents.reference.split import watch_slice
from agents.reference.stealth import STEALTH_LEG, WALKS, note_windows
from agents.reference.supplies import ARMOUR_DETOUR, AWARE, heal, hostile, ready_weapon, restock

LOW_HEALTH = 0.3  # below this, healing comes before any fight not at arm's length
TOP_UP_HEALTH = 0.8  # below this, heal while nobody is shooting
CAMERA_SHOT = 1500.0  # a working camera nearer than this is shot out before going on
CAMERA_SPOT = 150.0  # spots this far apart are tried apart for a refused camera shot
PEEK_RANGE = 400.0  # a door opening nearer than this is looked through before going on
PEEK_S = 0.6  # a little longer than a door takes to swing open
PEEK_AGAIN_S = 5.0  # a door seen opening again after this long is looked through again
CONE_MARGIN_DEG = 15.0  # a doorway this close to a camera's cone counts as watched
CONE_MARGIN_UNITS = 100.0
SAME_FLOOR = 150.0  # heights closer than this are one storey (storeys lie hundreds apart)
# End reason -> how much it counts against repeating the same decision.
SETBACKS: dict[str, int] = {"stuck": 2, "unreachable": 3, "refused": 3, "door_closed": 1,
                            "wrong_storey": 2, "out_of_ammo": 1, "target_gone": 1,
                            "no_known_route": 3}
UNREACHED_PICKUP = 3  # a pickup walked up to on another floor: as often as any gives up


class Brain:
    """One episode's player."""

    def __init__(self) -> None:
        self.mem = Memory()
        self.statuses: tuple[str, ...] = ()
        self.areas_seen = 0
        self.peeked: dict[str, float] = {}  # door id -> game time of the last look through

    def decide(self, observation: dict[str, Any], start: dict[str, Any]) -> Decision:
        """Choose the action for this observation."""
        mem = self.mem
        mem.update(observation)
        note_windows(mem)
        learn_reads(mem)
        self._learn()
        stealth = any(o["kind"] in STEALTHY and o["counts"] and o["status"] == "todo"
                      for o in mem.view["objectives"])
        # A match (the start's `match` block) has its own first step; a mission never does.
        rival = match_step(mem, start["match"]) if start.get("match") else None
        decision = rival or short_look(mem, upstairs_leg(mem, room_before_door(
            mem, spare_kit(mem, self._choose()), stealth)))
        mem.last_decision = decision
        return decision

    def _learn(self) -> None:
        mem = self.mem
        statuses = tuple(o["status"] for o in mem.view["objectives"])
        if statuses != self.statuses or len(mem.visited) != self.areas_seen:
            mem.failures.clear()  # the world changed: what failed before may work now
            self.statuses, self.areas_seen = statuses, len(mem.visited)
        last, done = mem.last, mem.last_decision
        if last is None or done is None:
            return
        if last["end_reason"] == "wrong_storey" and done[0] == "go_to_object":
            # A pickup found lying on a ledge above or below is not taken by walking up
            # to it again from here: the next walk would end the same way.
            mem.fail(done, UNREACHED_PICKUP)
        elif last["end_reason"] in SETBACKS:
            mem.fail(done, SETBACKS[last["end_reason"]])
        elif done[0] == "go_to" and last["distance_moved"] < 30:
            mem.fail(done)  # "arrived" without moving: already there, and it did not help
        elif done[0] == "go_to_object" and done[1]["object_id"] in mem.doors \
                and last["distance_moved"] < 1:
            # Standing at a door already open: asking again changes nothing, and the way
            # through it is tried otherwise (a walk past it) instead of for ever.
            mem.fail(done)
        if done[0] == "turn_and_use" and "pressed use on" in last["detail"]:
            for cid in _ids(last["detail"], "c"):
                mem.escorted.add(cid)
            if not _ids(last["detail"], "c") and _ids(done[2], "c"):
                # Meant for a person, the press landed on a door or a thing in line with
                # him: pressing again from here lands there again.
                mem.fail(done)
        if done[0] == "attack" and "down" in last["detail"]:
            mem.downed.add(done[1]["character_id"])
        if done[0] == "go_to_object" and last["end_reason"] == "arrived":
            used = done[1]["object_id"]
            mem.used[used] += 1
            if mem.blocking_door and mem.openers.get(mem.blocking_door) == used:
                # The panel is pressed or the key taken: the way is worth trying again.
                del mem.openers[mem.blocking_door]
                mem.blocking_door = None

    def _choose(self) -> Decision:
        mem = self.mem
        counted = [o for o in mem.view["objectives"] if o["counts"] and o["status"] == "todo"]
        stealth = any(o["kind"] in STEALTHY for o in counted)
        tactics: list[Callable[[], Decision | None]] = [
            lambda: self._peek(stealth),
            lambda: self._cameras_first(stealth),
            lambda: step_out_of_sight(mem, stealth),
            lambda: reload_then_hold(mem, stealth),
            lambda: gun_up(mem),
            lambda: best_gun_up(mem),
            lambda: top_up_calm(mem),
            lambda: hold_out_of_sight(mem),
            lambda: watch_slice(mem),
            lambda: self._stay_alive(stealth),
            lambda: self._blind_cameras(),
        ]
        errands: list[Callable[[], Decision | None]] = [
            lambda: read_notes(mem),
            lambda: _quiet(open_way(mem), stealth),
            lambda: self._after_gadget(),
            lambda: targets_in_sight(mem, counted),
            *[(lambda o=o: PLANS[o["kind"]](mem, told_apart(mem, o)))
              for o in counted if o["kind"] in PLANS],
            lambda: _quiet(search_before_exit(mem), stealth),
            lambda: _quiet(self._exit(), stealth),
            lambda: _quiet(explore(mem), stealth),
            lambda: restock(mem),
            lambda: wander(mem),
            lambda: look_around(mem),
        ]
        for step in tactics:
            decision = step()
            if decision is not None:
                return decision
        for step in errands:
            decision = step()
            if decision is not None:
                # An errand's walk that would wake a gunman up close becomes the first
                # shot at him (firstshot.py); the tactics' own walks are left as chosen.
                return first_shot(mem, decision, stealth)
        return ("wait", {"seconds": 1.0}, "nothing useful to do; waiting")

    def _stay_alive(self, stealth: bool) -> Decision | None:
        mem = self.mem
        rows = threats(mem, stealth)
        if not rows:
            # A player one hit from down survives no ambush: a known medkit comes first.
            low = mem.view["player"]["health"] < LOW_HEALTH
            step = (heal(mem, LOW_HEALTH) if low else None) or hold_after_kill(mem, stealth)
            if step is not None:
                return step
        if rows and mem.view["player"]["health"] < TOP_UP_HEALTH \
                and not any(r["alertness"] in AWARE for r in rows):
            # Nobody is after the player yet: a hurt player patches up before waking a
            # gunman, since the duel it would start is lost more often than won.
            step = heal(mem, TOP_UP_HEALTH)
            if step is not None:
                return step
        near = [r for r in rows if r["distance"] < CLOSE_RANGE]
        if near or under_fire(mem, rows):
            # Turning away from a close gunman to walk to a medkit only gives him free
            # shots, and a walk under a far one's fire stops at every hit; finishing the
            # fight first loses less health.
            return fight(mem, stealth) or heal(mem, LOW_HEALTH)
        calm = not threats(mem, stealth) and not mem.hurried()
        return (heal(mem, LOW_HEALTH) or fight(mem, stealth)
                or (heal(mem, TOP_UP_HEALTH) or self._armour_up() if calm else None))

    def _cameras_first(self, stealth: bool) -> Decision | None:
        # While an alarm must not sound, a camera in reach ends the mission the moment it
        # has watched the player a while: shooting it out comes before topping up or
        # fetching rounds (whose walks may cross its view), and yields only to a gunman
        # close enough that turning away would cost more than the camera's look, or to
        # a gunman already after the player: a long shot at a camera under his fire
        # empties the magazine for his next duel.
        if not stealth:
            return _calm_camera_shot(self.mem, self._blind_cameras)
        if any(r["distance"] < CLOSE_RANGE or (r["alertness"] in AWARE
                                                              and r["armed"] is not False)
                              for r in threats(self.mem, stealth)):
            return None
        return self._blind_cameras()

    def _blind_cameras(self) -> Decision | None:
        # A camera raises its storey's alarm once it has watched the player for a moment,
        # and the alarm brings soldiers; one quiet shot from outside its view is cheaper.
        mem = self.mem
        # Shots do not pass floors: a camera on another storey waits until it is reached.
        floor = mem.view["player"]["position"][1]
        cameras = sorted((o for o in mem.view["objects"] if o["kind"] == "camera"
                          and o["state"] != "broken" and o["distance"] < CAMERA_SHOT
                          and abs(o["position"][1] - floor) < SAME_FLOOR),
                         key=lambda o: (o["distance"], o["id"]))
        x, _, z = mem.position
        for camera in cameras:
            shot: Decision = ("shoot_object", {"object_id": camera["id"], "time_limit_s": 3.0},
                              f"shooting out camera {camera['id']} before it sees me")
            # A shot refused for want of a clear line (a door still swinging, a frame in
            # the way) is worth one more try from each new spot the player stands on.
            spot = ("camera_from", camera["id"], round(x / CAMERA_SPOT), round(z / CAMERA_SPOT))
            if not mem.failed(shot, 1) or mem.failures[spot] == 0:
                step = ready_weapon(mem)
                if step is None:
                    mem.failures[spot] += 1
                return step or shot
            step = _doorway_shot(mem, camera)
            if step is not None:
                return step
        return None

    def _peek(self, stealth: bool) -> Decision | None:
        # A door just set swinging shows what lies behind it, and lets a shot through,
        # only once it stands open: a moment's wait lets the next look see a camera or a
        # guard in the room before the walk in (a camera watching the room is shot from
        # the doorway, behind its view). Not with a gunman close: he would not wait.
        mem = self.mem
        if any(r["distance"] < CLOSE_RANGE for r in threats(mem, stealth)):
            return None
        for door in mem.view["doors"]:
            if door["state"] == "opening" and door["distance"] < PEEK_RANGE \
                    and mem.time_s - self.peeked.get(door["id"], -PEEK_AGAIN_S) >= PEEK_AGAIN_S:
                self.peeked[door["id"]] = mem.time_s
                return ("wait", {"seconds": PEEK_S}, f"letting door {door['id']} open to "
                        "look through it")
        return None

    def _armour_up(self) -> Decision | None:
        # A vest in view is worth a short detour while nobody is shooting.
        mem = self.mem
        if mem.view["player"]["armour"] >= 0.3:
            return None
        vests = sorted((o for o in mem.view["objects"] if o["kind"] == "armour"
                        and o["distance"] < ARMOUR_DETOUR and o["name"] not in mem.trifles),
                       key=lambda o: (o["distance"], o["id"]))
        for vest in vests:
            decision = use_thing(mem, vest["id"], f"putting on {vest['name']} {vest['id']}")
            if decision is not None:
                return decision
        return None

    def _after_gadget(self) -> Decision | None:
        done = self.mem.last_decision
        if done is not None and done[0] == "use_item_on" and self.mem.last \
                and self.mem.last["end_reason"] not in ("door_closed", "unreachable", "refused"):
            return ready_weapon(self.mem)
        return None

    def _exit(self) -> Decision | None:
        mem = self.mem
        exit_row = mem.view["exit"]
        if exit_row is None or open_work(mem, {}):
            return None
        point = next((o["point"] for o in mem.view["objectives"]
                      if o["area"] == exit_row["area"] and o.get("point")), None)
        return enter_area(mem, exit_row["area"], point, f"heading for the exit {exit_row['name']}")


def _calm_camera_shot(mem: Memory, blind: Callable[[], Decision | None]) -> Decision | None:
    # Even where an alarm is allowed, a camera's alarm brings a squad of soldiers up the
    # stairs: with nobody in sight to fight, a camera in reach is shot out before a walk
    # to a medkit or to rounds carries the player through its view.
    if any(r["seen"] == "now" and hostile(r) and r["armed"] is not False
           for r in mem.view["characters"]):
        return None
    return blind()


def _doorway_shot(mem: Memory, camera: dict[str, Any]) -> Decision | None:
    # A camera in the next room, out of the line of fire from here, is shot from the
    # doorway into its room when that doorway lies outside its view: walking on with the
    # errand would cross the room it watches.
    for way in (mem.view["area"] or {}).get("ways_out", []):
        if way["to"] != camera["area"] or _watched(camera, way["position"]):
            continue
        x, y, z = way["position"]
        decision: Decision = ("go_to", {"x": x, "z": z, "y": y, "use_on_way": True,
                                        "fire_on_way": True},
                              f"stepping into way {way['id']} for a shot at camera "
                              f"{camera['id']}")
        if not mem.failed(decision, 2):
            return decision
    return None


def _watched(camera: dict[str, Any], point: list[float]) -> bool:
    # Whether a point lies inside a camera's cone (with a margin for the player's width).
    dx, dz = point[0] - camera["position"][0], point[2] - camera["position"][2]
    if math.hypot(dx, dz) > (camera["view_range"] or 0.0) + CONE_MARGIN_UNITS:
        return False
    off = (math.degrees(math.atan2(dz, dx)) - (camera["facing_deg"] or 0.0) + 180.0) % 360.0
    return abs(off - 180.0) <= (camera["view_angle_deg"] or 0.0) / 2 + CONE_MARGIN_DEG


def _quiet(decision: Decision | None, stealth: bool) -> Decision | None:
    # While an alarm must not sound, every open-ended walk is cut into short legs, so
    # each stop is a look around for a camera or a guard the last leg revealed (a walk
    # across a whole storey would carry the player through a camera's view in one go).
    if decision is None or not stealth or decision[0] not in WALKS \
            or "time_limit_s" in decision[1]:
        return decision
    return decision[0], {**decision[1], "time_limit_s": STEALTH_LEG}, decision[2]


def _ids(text: str, letter: str) -> list[str]:
    return re.findall(rf"\b{letter}\d+\b", text)
