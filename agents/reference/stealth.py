"""Staying unseen: cameras are shot out (through a window when no line is clear) before errands.

While an alarm must not sound, every errand is wrapped by `quietly`: a working camera
remembered within a walk is dealt with first, and walks go in short legs, each stop a
look around for a camera the last leg revealed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from agents.reference.memory import Decision, Memory
from agents.reference.moves import NEAR, STOREY_GAP, hop, stealthy
from agents.reference.supplies import FRESH, armed, fresh_first, ready_weapon

Objective = dict[str, Any]
Plan = Callable[[Memory, Objective], Decision | None]

CAMERA_SHOT = 1500.0  # a camera nearer than this is shot at
CAMERA_WALK = 3000.0  # a camera nearer than this is walked toward before any errand
STEALTH_LEG = 2.5  # game seconds per walk while an alarm must not sound
WALKS = frozenset({"go_to", "go_to_object", "go_to_area"})
WINDOW_BACK = 150.0  # how far back from a window to stand when shooting through it
VANTAGES = 2  # tries at shooting a camera through a window


def quietly(plan: Plan) -> Plan:
    """Wrap an errand so that, while an alarm must not sound, cameras are dealt with first.

    A working camera remembered within a walk is approached to shooting range and shot
    out before the errand's own walk, which would otherwise carry the player through
    the camera's view in one go.
    """
    def run(mem: Memory, obj: Objective) -> Decision | None:
        step = _blind_camera(mem)
        if step is not None:
            return step
        decision = plan(mem, obj)
        if decision is not None and stealthy(mem) and decision[0] in WALKS \
                and "time_limit_s" not in decision[1]:
            # Short legs: each stop is a look around for a camera the last leg revealed.
            decision = (decision[0], {**decision[1], "time_limit_s": STEALTH_LEG}, decision[2])
        return decision

    run.__doc__ = plan.__doc__
    return run


def _blind_camera(mem: Memory) -> Decision | None:
    if not stealthy(mem) or not armed(mem):
        return None
    # Only cameras on this storey (a camera watches its own storey): one below a door
    # just opened here called the player away downstairs while the door shut again,
    # and back to open it, for ever. One on another storey is met when that is reached.
    cameras = sorted((o for o in mem.objects.values() if o["kind"] == "camera"
                      and o["state"] != "broken" and mem.distance(o["position"]) < CAMERA_WALK
                      and abs(o["position"][1] - mem.position[1]) < STOREY_GAP),
                     key=lambda o: (mem.distance(o["position"]), o["id"]))
    for camera in cameras:
        why = f"shooting out camera {camera['id']} before it sees me"
        shot: Decision = ("shoot_object", {"object_id": camera["id"], "time_limit_s": 3.0}, why)
        if mem.distance(camera["position"]) < CAMERA_SHOT:
            if not mem.failed(shot, 1):
                return ready_weapon(mem) or shot
            step = _vantage(mem, camera, shot)
            if step is not None:
                return step
            continue
        step = hop(mem, _short_by(mem, camera["position"], CAMERA_SHOT * 0.7), 8.0,
                    f"{why}: getting within range")
        if step is not None:
            return step
    return None


def note_windows(mem: Memory) -> None:
    """Remember the windows of the area the player stands in (for shots through them)."""
    area = mem.view["area"]
    if area is not None:
        mem.windows.update({w["id"]: w for w in area["windows"]})


def _vantage(mem: Memory, camera: dict[str, Any], shot: Decision) -> Decision | None:
    # No clear line from here (a wall between): a window into the camera's room gives
    # one. Standing back from the window on the far side from the camera keeps the
    # player behind the glass and, for a camera looking into its room, behind its view.
    key = ("vantage", camera["id"])
    windows = [w for w in mem.windows.values() if w["to"] == camera["area"]]
    if mem.failures[key] >= VANTAGES:
        return None
    if not windows:
        # No window into its room known yet: one walk halfway toward it (through rooms
        # already in reach, one new room at a time) may show one.
        if mem.failures[("approach", camera["id"])] >= 1:
            return None
        mem.failures[("approach", camera["id"])] += 1
        return hop(mem, _short_by(mem, camera["position"], mem.distance(camera["position"]) / 2),
                    8.0, f"{shot[2]}: looking for a clear line")
    # The shot wakes whoever stands in the camera's room: go in fresh.
    step = fresh_first(mem, FRESH, f"{shot[2]}: patching up first")
    if step is not None:
        return step
    window = min(windows, key=lambda w: (mem.distance(w["position"]), w["id"]))
    wx, wy, wz = window["position"]
    cx, _, cz = camera["position"]
    length = max(math.hypot(wx - cx, wz - cz), 1.0)
    spot = [wx + (wx - cx) / length * WINDOW_BACK, wy, wz + (wz - cz) / length * WINDOW_BACK]
    if mem.distance(spot) < NEAR:
        # At the window: the shot refused from elsewhere is worth another try.
        mem.failures[key] += 1
        mem.failures[("shoot_object", camera["id"])] = 0
        return ready_weapon(mem) or shot
    # Straight there, not by way of the camera's room: its view is what is being avoided.
    step: Decision = ("go_to", {"x": round(spot[0], 1), "z": round(spot[2], 1),
                                "y": round(spot[1], 1), "use_on_way": True,
                                "fire_on_way": True},
                      f"{shot[2]}: through the window into {window['to_name']}")
    if mem.failed(step):
        mem.failures[key] += 1
        return None
    return step


def _short_by(mem: Memory, point: list[float], keep: float) -> list[float]:
    x, _, z = mem.position
    length = max(math.hypot(point[0] - x, point[2] - z), 1.0)
    share = min(keep, length) / length
    return [point[0] - (point[0] - x) * share, point[1], point[2] - (point[2] - z) * share]
