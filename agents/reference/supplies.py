"""Supplies: which gun to hold, and which pickup (rounds, a gun, a medkit, armour) to walk to.

A player with an empty gun or half its health loses the next fight before it starts:
rounds, better guns and medkits known from earlier looks are fetched while nobody
shoots, and with nothing loaded a walk to rounds is the fight itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from agents.reference.guns import (
    ARMS_LENGTH,
    TYPICAL_HEALTH,
    TYPICAL_RANGE,
    at_arms_length,
    choose,
    draw,
    shots_needed,
)
from agents.reference.memory import Decision, Memory
from agents.reference.moves import use_thing

AWARE = frozenset({"alerted", "in_combat"})  # alertness names meaning "after the player"
HEALING = ("medkit", "armour")
AMMO = ("ammo", "weapon")
FULL = 0.95
CALM_MARK = 0.9  # health below which a player nobody is shooting at goes to heal
THIN_ARMOUR = 0.3  # below this, armour in the same area is fetched before going on
LOW_ROUNDS = 24  # fewer rounds than this (loaded and spare), and known ammunition is fetched
# while calm
# How a player who knows shooters ranks guns by kind: steady long-range fire first, a
# spray next, a slow heavy gun, a sidearm, a short-range scattergun last.
GUN_RANK = {"rifle": 5.0, "smg": 4.0, "heavy_cannon": 3.0, "pistol": 2.0,
            "silenced_pistol": 2.0, "shotgun": 1.0}
UNKNOWN_GUN = 2.5  # a kind not in the table: likely better than a sidearm
SIDEARM = 2.0  # the rank of a pistol
ARMOUR_DETOUR = 900.0  # armour in view closer than this is worth the walk while calm
# Objective kinds done with the hands (a press, a pickup, a gadget held to a thing): the
# first target is the thing, any further ones the tools of which one must be carried.
HAND_WORK = frozenset({"use_object", "collect_item", "gadget_on_object"})
CLOSE_QUARTERS = 200.0  # a duel this close is fought as at arm's length
FRESH = 0.85  # health under which a known medkit comes before a fight started on purpose


def hostile(row: dict[str, Any]) -> bool:
    """A character that is not on the player's side and not down."""
    return row["friendly"] is not True and not row["down"]


def rounds(item: dict[str, Any]) -> int:
    """Rounds a carried gun has: those in its magazine and those carried besides."""
    return (item.get("loaded") or 0) + (item.get("ammo") or 0)


def has_rounds(item: dict[str, Any]) -> bool:
    return item["kind"] == "weapon" and rounds(item) > 0


def rank(item: dict[str, Any]) -> float:
    return GUN_RANK.get(item.get("weapon") or "", UNKNOWN_GUN)


def ready_weapon(mem: Memory, health: float = TYPICAL_HEALTH,
                 distance: float = TYPICAL_RANGE) -> Decision | None:
    """Take the best loaded weapon in hand for a duel (by default, an ordinary gunman's).

    The best holds in its magazine the shots the duel takes, else rounds enough after a
    reload, else is of the best kind; among equals, the one picked up last: the
    starting gun is the plainest, and levels lay better weapons out as pickups.
    """
    player = mem.view["player"]
    guns = [c for c in player["carried"] if has_rounds(c)]
    return draw(mem, choose(player, guns, health, distance, rank))


def weapon_against(mem: Memory, row: dict[str, Any], health: float = TYPICAL_HEALTH,
                   distance: float = TYPICAL_RANGE) -> Decision | None:
    """The gun for a duel with this character: against one that only bites (the view's
    `armed` false) or one already at close quarters, the one firing fewest shots at
    arm's length (a scattergun's whole cone lands there); else `ready_weapon`."""
    if row.get("armed") is not False and row["distance"] > CLOSE_QUARTERS:
        return ready_weapon(mem, health, distance)
    guns = [c for c in mem.view["player"]["carried"] if has_rounds(c)]
    return draw(mem, at_arms_length(guns, row["health"], rank)[:1])


def armed(mem: Memory) -> bool:
    """Whether a loaded weapon is carried."""
    return any(rounds(c) > 0 for c in mem.carried("weapon"))


def new_weapon(mem: Memory, within: float = math.inf, best_kind: bool = False
               ) -> Decision | None:
    """Walk to a gun of a better kind than any loaded one carried, the nearest first.

    With `best_kind`, the best kind first, however far: between fights in a free-for-all,
    where every fight to come is fought with it, a walk past a middling gun to the best
    costs less than the duels the middling one loses.
    """
    best = max((rank(c) for c in mem.carried("weapon") if has_rounds(c)), default=-1.0)
    present = still_there(mem)
    rows = [o for o in mem.objects.values() if o["kind"] == "weapon" and o["id"] in present
            and rank(o) > best and mem.distance(o["position"]) < within]
    for row in sorted(rows, key=lambda r: (-rank(r) if best_kind else 0.0,
                                           mem.distance(r["position"]), r["id"])):
        if mem.failures[("go_to_object", row["id"])] == 0:
            return use_thing(mem, row["id"], f"fetching the {row['name']} {row['id']} first")
    return None


def fresh_first(mem: Memory, below: float, why: str) -> Decision | None:
    """Before starting a fight on purpose, fetch a known medkit when health is under a mark."""
    if mem.view["player"]["health"] >= below:
        return None
    return nearest_pickup(mem, ("medkit",), why, tries=1)


def gun_in_hand(mem: Memory) -> dict[str, Any]:
    player = mem.view["player"]
    return next((c for c in player["carried"] if c["id"] == player["in_hand"]), {})


def heal(mem: Memory, below: float) -> Decision | None:
    """Pick up the nearest medkit or armour when health is below a mark."""
    player = mem.view["player"]
    # While a countdown runs, the walk out comes first: only the mark asked for counts.
    calm = not mem.hurried() and not any(
        r["seen"] == "now" and hostile(r) and r["alertness"] in AWARE
        for r in mem.view["characters"])
    # With nobody shooting, a half-spent player tops up before walking into the next room:
    # the next guard meets it fresh.
    if player["health"] >= (max(below, CALM_MARK) if calm else below):
        if mem.hurried():
            return None
        return armour_nearby(mem) or (_rearm(mem) or _close_gun_nearby(mem) if calm else None)
    kinds = tuple(k for k in HEALING if k != "armour" or player["armour"] < FULL)
    return nearest_pickup(mem, kinds, "healing up", tries=1) or (_rearm(mem) if calm else None)


def armour_nearby(mem: Memory) -> Decision | None:
    """Armour lying a few steps away in this area, worth a detour before the shooting starts."""
    if mem.view["player"]["armour"] >= THIN_ARMOUR or any(
            r["seen"] == "now" and hostile(r) and r["alertness"] in AWARE
            for r in mem.view["characters"]):
        return None
    rows = [o for o in mem.view["objects"] if o["kind"] == "armour"
            and o["distance"] < ARMOUR_DETOUR and o["area"] == mem.here
            and o["name"] not in mem.trifles]
    for row in sorted(rows, key=lambda r: (r["distance"], r["id"])):
        if mem.failures[("go_to_object", row["id"])] == 0:
            return use_thing(mem, row["id"], f"putting on {row['name']} {row['id']}")
    return None


def _close_gun_nearby(mem: Memory) -> Decision | None:
    # A gun of a kind not carried that fires fewer shots at arm's length than any carried
    # one (a scattergun beside a sidearm), lying a few steps away, is worth the detour
    # while nobody shoots: the next one that only bites is put down before he bites long.
    carried = [c for c in mem.carried("weapon") if has_rounds(c)]
    kinds = {c.get("weapon") for c in mem.carried("weapon")}
    close = min((shots_needed(c, TYPICAL_HEALTH, ARMS_LENGTH) for c in carried), default=0)
    rows = [o for o in mem.view["objects"] if o["kind"] == "weapon"
            and o.get("weapon") not in kinds and o["distance"] < ARMOUR_DETOUR
            and shots_needed(o, TYPICAL_HEALTH, ARMS_LENGTH) < close]
    for row in sorted(rows, key=lambda r: (r["distance"], r["id"])):
        if mem.failures[("go_to_object", row["id"])] == 0:
            return use_thing(mem, row["id"], f"taking up the {row['name']} {row['id']} "
                             "for close fights")
    return None


def _rearm(mem: Memory) -> Decision | None:
    # A magazine or two left is not enough for the next room: rounds lying in a room
    # already seen are worth the walk while nobody shoots.
    left = sum(rounds(c) for c in mem.carried("weapon"))
    if left == 0 and mem.carried("weapon"):
        # An empty gun is no gun: rounds or a weapon are fetched before any other errand,
        # with as many tries as when someone is shooting (a box once behind a shut door
        # may be reachable now), since the next guard met unarmed is not survived.
        return restock(mem)
    if left >= LOW_ROUNDS or _hand_work_here(mem):
        return None
    return nearest_pickup(mem, ("ammo",), f"only {left} rounds left, rearming", tries=1)


def _hand_work_here(mem: Memory) -> bool:
    # An objective done by hand in the room the player stands in is finished before a
    # walk to rounds elsewhere: the walk out and back crosses rooms whose guards may wake,
    # while a magazine left in the gun still answers whoever comes here meanwhile.
    for obj in mem.view["objectives"]:
        if not obj["counts"] or obj["status"] != "todo" or obj["kind"] not in HAND_WORK:
            continue
        target, tools = obj["targets"][0] if obj["targets"] else None, obj["targets"][1:]
        row = mem.objects.get(target) if target else None
        if row is not None and mem.here is not None and row["area"] == mem.here \
                and (not tools or any(mem.holds(t) for t in tools)):
            return True
    return False


def restock(mem: Memory) -> Decision | None:
    """Pick up ammunition or a weapon when nothing carried is loaded."""
    if armed(mem):
        return None
    return nearest_pickup(mem, AMMO, "looking for ammunition", tries=3)


def nearest_pickup(mem: Memory, kinds: tuple[str, ...], why: str,
                    tries: int) -> Decision | None:
    present = still_there(mem)
    rows = [o for o in mem.objects.values() if o["kind"] in kinds and o["id"] in present
            and _fits(mem, o) and o["name"] not in mem.trifles]
    # A walk to one that ran out of time goes on to it: turning to whichever is nearer
    # as the crow flies each time swings between two and reaches neither.
    done, last = mem.last_decision, mem.last
    going = done[1].get("object_id") if done is not None and done[0] == "go_to_object" \
        and last is not None and last["end_reason"] == "gave_up" else None
    for row in sorted(rows, key=lambda r: (r["id"] != going, mem.distance(r["position"]),
                                           r["id"])):
        # A pickup that could not be reached once (a locked door, no route) is skipped
        # while healing: another one may be nearer by the floor.
        if mem.failures[("go_to_object", row["id"])] >= tries:
            continue
        decision = use_thing(mem, row["id"], f"{why}: {row['name']} {row['id']}")
        if decision is not None:
            return decision
    return None


def walk_to_nearest(mem: Memory, rows: list[dict[str, Any]],
                    why: Callable[[dict[str, Any]], str]) -> Decision | None:
    """A walk to the nearest of these remembered things not failed before, or None."""
    for row in sorted(rows, key=lambda r: (mem.distance(r["position"]), r["id"])):
        if mem.failures[("go_to_object", row["id"])] == 0:
            step = use_thing(mem, row["id"], why(row))
            if step is not None:
                return step
    return None


def _fits(mem: Memory, row: dict[str, Any]) -> bool:
    # Rounds are only worth a walk for a gun carried: shells for a shotgun never picked
    # up do nothing. The view says which gun a box feeds.
    if row["kind"] != "ammo":
        return True
    return row.get("weapon") in {c.get("weapon") for c in mem.carried("weapon")}


def still_there(mem: Memory) -> set[str]:
    # Pickups vanish from the view once taken; remembered rows of things in the current
    # view or not contradicted by it are still worth a walk.
    shown = {o["id"] for o in mem.view["objects"]}
    return {oid for oid in mem.objects if oid in shown or mem.failures[("go_to_object", oid)] < 2}
