"""A match's team objectives (a zone, flags, an escort), played from the view's rows.

Used by the match step (`rivals.match_step`) once no rival in sight needs answering:
each objective row of the structured view (PROTOCOL.md, "Zones and captures") names its
kind, its area and point once known, and the flags to take. Each step returns a
decision or None; None hands the turn on (to exploring, when the zone or a flag is not
located yet).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from agents.reference.memory import Decision, Memory
from agents.reference.moves import enter_area, walk_to

CENTRE = 150.0  # a holder this far from the zone's middle walks back to it
HOLD_LEG = 1.0  # game seconds one wait in the zone lasts (a sighting ends it sooner)
LEG = 2.0  # game seconds a walk toward an objective runs before the player looks again
WALKS = frozenset({"go_to", "go_to_object", "go_to_area"})
GUARD = 250.0  # a guard farther than this from its escorted player walks back to it


def objective_step(mem: Memory) -> Decision | None:
    """The step for the first match objective that has one, or None."""
    for row in mem.view["objectives"]:
        step = STEPS.get(row.get("kind", ""))
        decision = step(mem, row) if step is not None else None
        if decision is not None:
            return _in_legs(decision)
    return None


def _in_legs(decision: Decision) -> Decision:
    # A walk does not end when a rival comes into sight: walked in short legs, the
    # player looks again (and fights, `rivals.match_step`) instead of walking past it.
    action, args, why = decision
    if action not in WALKS or "time_limit_s" in args:
        return decision
    return action, {**args, "time_limit_s": LEG}, why


def _hold(mem: Memory, row: dict[str, Any]) -> Decision | None:
    # Into the zone, then stand near its middle (a rival stepping in is seen across it).
    zone, point = row["area"], row["point"]
    if zone is None:
        return None  # not located yet: explore
    if mem.here != zone:
        return enter_area(mem, zone, point, "heading for the zone: alone in it, it counts")
    if point is not None and math.hypot(point[0] - mem.position[0],
                                        point[2] - mem.position[2]) > CENTRE:
        step = walk_to(mem, point, "to the zone's middle")
        if step is not None:
            return step
    return ("wait", {"seconds": HOLD_LEG}, "holding the zone")


def _capture(mem: Memory, row: dict[str, Any]) -> Decision | None:
    # Carrying a flag that scores: home to the base (the row's area and point). Else the
    # nearest flag the row names (the rival's to take, or the own one to send home).
    if row["point"] is not None and row["area"] is not None:
        return enter_area(mem, row["area"], row["point"], "carrying the flag to my base")
    known = {o["id"]: o for o in mem.view["objects"]}
    flags = sorted((known[t]["distance"], t) for t in row["targets"] if t in known)
    for _, flag in flags:
        decision: Decision = ("go_to_object", {"object_id": flag}, f"taking flag {flag}")
        if not mem.failed(decision, 2):
            return decision
    return None


def _escort(mem: Memory, row: dict[str, Any]) -> Decision | None:
    # The escorted player makes for the exit (the row's area and point); its guard keeps
    # close to it, going ahead to the exit only once it is near.
    if not row["targets"]:
        if row["area"] is None:
            return None  # the exit not located yet: explore
        return enter_area(mem, row["area"], row["point"], "escorted: making for the exit")
    ward = next((c for c in mem.view["characters"] if c["id"] == row["targets"][0]), None)
    if ward is None or ward["down"]:
        return None
    if ward["distance"] > GUARD:
        return walk_to(mem, ward["position"], f"guarding {ward['id']}: keeping close")
    if row["area"] is not None and mem.here != row["area"]:
        return enter_area(mem, row["area"], row["point"], f"guarding {ward['id']}: going ahead")
    return ("wait", {"seconds": HOLD_LEG}, f"guarding {ward['id']}")


# Objective kind (the view row's `kind`) -> its step.
STEPS: dict[str, Callable[[Memory, dict[str, Any]], Decision | None]] = {
    "hold_zone": _hold,
    "capture_flag": _capture,
    "escort_player": _escort,
}
