"""Staying alive: a gun in hand, answering hostiles that threaten, healing when hurt.

Friendly characters are never chosen as targets (the harness refuses it anyway); in a
stealth mission only hostiles that have already noticed the player are fought.

Gunfights are lost by being outnumbered, not by missing: the player hits far more often
than a guard, so one gunman at a time is a fight worth taking, two at once is not. When
two or more armed hostiles are after the player from a distance, it falls back through
the nearest way out to somewhere already visited and waits there, so pursuers come
through the doorway one by one, close, where the harness's return fire meets them. A
gun all but empty (or reloading) in a duel at range is reloaded there the same way, out
of the gunman's sight. Targets are taken in order of how long each takes to put down
(longer at range, where shots miss) for the harm it does, bare hands running in counted
as a gun.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.memory import Decision, Memory
from agents.reference.moves import PAST, STEALTHY, use_thing, walk_to

AWARE = frozenset({"alerted", "in_combat"})  # alertness names meaning "after the player"
THREAT_RANGE = 1500.0
CLOSE_RANGE = 700.0
HEALING = ("medkit", "armour")
AMMO = ("ammo", "weapon")
AIM_COST = 0.25  # health-equivalents of time spent turning to and aiming at a target
# Within this range nearly every aimed shot lands; beyond it the share that hits falls with
# the range (a target covers less of the spread cone), so a duel lasts that much longer.
CLEAR_SHOT = 400.0
BRAWL = 500.0  # bare hands nearer than this (a couple of seconds off) count as much as a gun
# Bare hands in combat nearer than this reach the player before a far duel is over: one
# running in covers a few hundred units a second.
CHARGE = 800.0
LOW_MAGAZINE = 2  # rounds loaded at or under which a duel at range waits for the reload
FINISH = 0.3  # health at or under which a gunman is a hit or two from down
RELOAD_COVER = 400.0  # a way out farther than this is no cover within a reload's time
SHOOTING = 1.5  # how much more harm one standing off and firing does
KEEP = 0.7  # how much cheaper the current target is than a fresh one
# Gunmen nearer than this are fought where they stand: turning away costs more shots.
STAND_RANGE = 450.0
FALL_BACKS = 2  # falls back per area before standing to fight anyway
AMBUSH_S = 2.0  # one wait at the doorway after falling back
AMBUSHES = 2  # waits per area before going back in
AMBUSH_HEALTH = 0.5  # below this, healing beats waiting for pursuers
FULL = 0.95
CALM_MARK = 0.7  # health below which a player nobody is shooting at goes to heal
LONG_SHOT = 1300.0  # beyond this, close in before attacking
OPEN_FIRE = 800.0  # how near closing in gets
TOUGH = 2.0  # health (in ordinary people) from which a better weapon is fetched first
THIN_ARMOUR = 0.3  # below this, armour in the same area is fetched before going on
SETTLE_S = 0.3  # game seconds between looks needed to judge who stands still
STILL_SPEED = 50.0  # units per second under which a hostile counts as standing
STAND_OFF = 250.0  # nearer than this, standing still is a brawl, not a shooter's stance
PATCH_UP = 0.5  # below this, a medkit comes before a duel at range
LOW_ROUNDS = 24  # fewer rounds than this (loaded and spare), and known ammunition is fetched
# while calm
# How a player who knows shooters ranks guns by kind: steady long-range fire first, a
# spray next, a slow heavy gun, a sidearm, a short-range scattergun last.
GUN_RANK = {"rifle": 5.0, "smg": 4.0, "heavy_cannon": 3.0, "pistol": 2.0,
            "silenced_pistol": 2.0, "shotgun": 1.0}
UNKNOWN_GUN = 2.5  # a kind not in the table: likely better than a sidearm
SIDEARM = 2.0  # the rank of a pistol
ARMOUR_DETOUR = 900.0  # a medkit is wasted above this health, armour above this armour
# Objective kinds done with the hands (a press, a pickup, a gadget held to a thing): the
# first target is the thing, any further ones the tools of which one must be carried.
HAND_WORK = frozenset({"use_object", "collect_item", "gadget_on_object"})


def hostile(row: dict[str, Any]) -> bool:
    """A character that is not on the player's side and not down."""
    return row["friendly"] is not True and not row["down"]


def rounds(item: dict[str, Any]) -> int:
    """Rounds a carried gun has: those in its magazine and those carried besides."""
    return (item.get("loaded") or 0) + (item.get("ammo") or 0)


def _loaded(item: dict[str, Any]) -> bool:
    return item["kind"] == "weapon" and rounds(item) > 0


def _rank(item: dict[str, Any]) -> float:
    return GUN_RANK.get(item.get("weapon") or "", UNKNOWN_GUN)


def ready_weapon(mem: Memory) -> Decision | None:
    """Take the best loaded weapon in hand when the hand holds something else.

    The best is the one of the best kind; among equals, the one picked up last: the
    starting gun is the plainest, and levels lay better weapons out as pickups.
    """
    player = mem.view["player"]
    guns = [c for c in player["carried"] if _loaded(c)]
    # A stable sort keeps the order of pickup among guns of one rank.
    guns.sort(key=_rank)
    if not guns:
        return None
    held = next((c for c in player["carried"] if c["id"] == player["in_hand"]), None)
    for gun in reversed(guns):
        if held is not None and held["id"] == gun["id"]:
            return None  # the best loaded gun that can be drawn is already in hand
        decision: Decision = ("equip", {"item_id": gun["id"]}, f"drawing the {gun['name']}")
        if not mem.failed(decision, 2):
            return decision
    return None


def armed(mem: Memory) -> bool:
    """Whether a loaded weapon is carried."""
    return any(rounds(c) > 0 for c in mem.carried("weapon"))


def threats(mem: Memory, stealth: bool) -> list[dict[str, Any]]:
    """Hostiles seen now that are worth fighting: those after the player first, nearest first."""
    out = []
    for row in mem.view["characters"]:
        if row["seen"] != "now" or not hostile(row) or row["distance"] > THREAT_RANGE:
            continue
        aware = row["alertness"] in AWARE
        if stealth and not aware:
            continue
        # An unaware hostile far off is left alone: a long shot wakes the whole level.
        if (aware or row["distance"] < CLOSE_RANGE) and row["id"] not in mem.downed:
            out.append(row)
    shooters = _SIGHTINGS.setdefault(id(mem), Sightings()).shooters(mem)
    current = _current_target(mem)
    return sorted(out, key=lambda r: (r["alertness"] not in AWARE,
                                      _cost(r, r["id"] in shooters, r["id"] == current),
                                      r["id"]))


def _cost(row: dict[str, Any], shooting: bool, current: bool) -> float:
    # Among those after the player, the one that takes the least time to put down for the
    # harm it does goes first: a hurt gunman a step away before a fresh one across the
    # room, a tough, slow brute after the fast ones closing in. Time to put down grows
    # with health and with range (shots miss more); a gun hurts from anywhere, bare hands
    # only up close (or soon, for one running in), and one seen standing off while in
    # combat is surely firing. Turning to another target wastes the aim already taken, so
    # the current one is kept a while.
    down_time = (row["health"] + AIM_COST) * max(1.0, row["distance"] / CLEAR_SHOT)
    reach = CHARGE if row["alertness"] == "in_combat" else BRAWL
    threat = {True: 1.0, None: 0.6}.get(row["armed"], 1.0 if row["distance"] < reach else 0.4)
    threat *= SHOOTING if shooting else 1.0
    return down_time * (KEEP if current else 1.0) / threat


def _current_target(mem: Memory) -> str | None:
    done = mem.last_decision
    return done[1].get("character_id") if done is not None and done[0] == "attack" else None


class Sightings:
    """Where hostiles in combat stood at the last look, to tell who stands off and shoots.

    One that keeps its ground at range while fighting is firing from there now; a gunman
    still running about may not have the player in sight yet.
    """

    def __init__(self) -> None:
        """Start with nothing seen."""
        self.turn = -1
        self.time_s = 0.0
        self.seen: dict[str, tuple[float, float]] = {}
        self.standing: set[str] = set()

    def shooters(self, mem: Memory) -> set[str]:
        """Ids of hostiles in combat seen standing still at range since the last look."""
        if mem.turn == self.turn:
            return self.standing
        span = mem.time_s - self.time_s
        now = {r["id"]: (r["position"][0], r["position"][2]) for r in mem.view["characters"]
               if r["seen"] == "now" and hostile(r) and r["alertness"] == "in_combat"}
        if span >= SETTLE_S:
            # Too short a look says nothing about who moves: keep the last judgement.
            self.standing = {cid for cid, (x, z) in now.items() if cid in self.seen
                             and math.dist((x, z), self.seen[cid]) < STILL_SPEED * span
                             and math.dist((x, z), (mem.position[0], mem.position[2]))
                             > STAND_OFF}
            self.seen, self.time_s = now, mem.time_s
        self.turn = mem.turn
        return self.standing


_SIGHTINGS: dict[int, Sightings] = {}  # one per memory, so one per episode


def attack(mem: Memory, row: dict[str, Any], why: str) -> Decision | None:
    """Attack a character unless that keeps failing; rearm first when that is wiser.

    With nothing loaded, the attack becomes a walk to ammunition or a weapon; against a
    tough character (a boss), a weapon seen lying around is fetched first.
    """
    if not armed(mem):
        return restock(mem)
    if row["health"] >= TOUGH:
        step = _new_weapon(mem)
        if step is not None:
            return step
    if row["distance"] > LONG_SHOT:
        # Shots from this far mostly miss and empty the magazine: close in first, with
        # return fire on, and open up from nearer.
        step = walk_to(mem, _short_of(mem, row["position"]), f"{why}: closing in")
        if step is not None:
            return step
    decision: Decision = ("attack", {"character_id": row["id"]}, why)
    return None if mem.failed(decision) else decision


def _short_of(mem: Memory, point: list[float]) -> tuple[float, float, float]:
    x, _, z = mem.position
    px, py, pz = point
    length = max(math.hypot(px - x, pz - z), 1.0)
    keep = min(OPEN_FIRE, length) / length
    return (px - (px - x) * keep, py, pz - (pz - z) * keep)


def _new_weapon(mem: Memory, within: float = math.inf) -> Decision | None:
    # Only a kind better than every loaded gun carried is worth the walk.
    best = max((_rank(c) for c in mem.carried("weapon") if _loaded(c)), default=-1.0)
    present = _present(mem)
    rows = [o for o in mem.objects.values() if o["kind"] == "weapon" and o["id"] in present
            and _rank(o) > best and mem.distance(o["position"]) < within]
    for row in sorted(rows, key=lambda r: (mem.distance(r["position"]), r["id"])):
        if mem.failures[("go_to_object", row["id"])] == 0:
            return use_thing(mem, row["id"], f"fetching the {row['name']} {row['id']} first")
    return None


def rearm_between_fights(mem: Memory, within: float, below: float) -> Decision | None:
    """Between fights, fetch a gun of a kind not carried, or a medkit when hurt.

    In a free-for-all the next fight is never far off: the player who walks into it with
    a second gun and fresh health wins it more often than the one who hunts at once.

    Args:
        mem: The agent's memory.
        within: How far (straight line) a pickup may lie to be worth the walk.
        below: Health under which a medkit comes first.

    Returns:
        A walk to the pickup, or None while someone is close or nothing fits.
    """
    if any(r["distance"] < CLOSE_RANGE and r["alertness"] in AWARE for r in threats(mem, False)):
        return None
    if mem.view["player"]["health"] < below:
        step = _nearest_pickup(mem, ("medkit",), "patching up between fights", tries=1)
        if step is not None:
            return step
    left = sum(rounds(c) for c in mem.carried("weapon"))
    if left < LOW_ROUNDS:
        # The next fight started with a magazine or two left ends in a reload or an empty
        # gun mid-duel; rounds for a carried gun, or a gun with its own, are fetched first.
        step = _nearest_pickup(mem, AMMO, f"only {left} rounds left, rearming between fights",
                               tries=1)
        if step is not None:
            return step
    # A sidearm is the plainest gun: one of a better kind is worth a walk across the map.
    best = max((_rank(c) for c in mem.carried("weapon") if _loaded(c)), default=-1.0)
    return _new_weapon(mem, within if best > SIDEARM else math.inf)


def fresh_first(mem: Memory, below: float, why: str) -> Decision | None:
    """Before starting a fight on purpose, fetch a known medkit when health is under a mark."""
    if mem.view["player"]["health"] >= below:
        return None
    return _nearest_pickup(mem, ("medkit",), why, tries=1)


def fight(mem: Memory, stealth: bool) -> Decision | None:
    """Answer the most pressing threat: fall back when outnumbered, else attack.

    With nothing loaded and someone after the player, fetching rounds is the fight.
    """
    rows = threats(mem, stealth)
    if not armed(mem):
        return restock(mem) if rows else None
    if not rows:
        return _ambush(mem)
    step = (_fall_back(mem, rows) or _reload_away(mem, rows) or _patch_up(mem, rows)
            or _not_yet(mem, rows))
    if step is not None:
        return step
    for row in rows:
        decision = attack(mem, row, f"fighting {row['kind']} {row['id']}")
        if decision is not None:
            return ready_weapon(mem) or decision
    return None


def _not_yet(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    # Two gunmen in sight not yet after the player make a fight started on purpose, and
    # its shots wake more: the player starts it fresh, with a known medkit taken first.
    if any(r["alertness"] in AWARE for r in rows) or any(
            o["kind"] in STEALTHY for o in mem.view["objectives"]):
        # In a mission that asks for quiet, a walk back for a medkit crosses guarded
        # ground for nothing: the guards in sight are left alone or fought as they come.
        return None
    crowd = [r for r in mem.view["characters"] if r["seen"] == "now" and hostile(r)
             and r["armed"] is not False and r["distance"] < THREAT_RANGE]
    if len(crowd) < 2 or mem.view["player"]["health"] >= FULL:
        return None
    # Only a medkit in a room already walked and clear of them: one beside the guards
    # would start the fight on the way.
    rooms = {r["area"] for r in crowd}
    present = _present(mem)
    kits = [o for o in mem.objects.values() if o["kind"] == "medkit" and o["id"] in present
            and o["area"] in mem.visited and o["area"] not in rooms]
    for kit in sorted(kits, key=lambda o: (mem.distance(o["position"]), o["id"])):
        if mem.failures[("go_to_object", kit["id"])] == 0:
            return use_thing(mem, kit["id"], "patching up before waking the guards in "
                             f"sight: {kit['name']} {kit['id']}")
    return None


def _patch_up(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    # Half spent with the nearest gun still far off: a long duel now is lost more often
    # than won, while a medkit a few steps away turns it round.
    if mem.view["player"]["health"] >= PATCH_UP or min(r["distance"] for r in rows) < CLOSE_RANGE:
        return None
    return _nearest_pickup(mem, ("medkit",), "patching up before the next duel", tries=1)


def _gunmen(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r["alertness"] in AWARE and r["armed"] is not False]


def _fall_back(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    gunmen = _gunmen(rows)
    area = mem.view["area"]
    if len(gunmen) < 2 or area is None or min(r["distance"] for r in gunmen) < STAND_RANGE:
        return None
    if mem.failures[("fall_back", area["id"])] >= FALL_BACKS:
        return None
    if mem.last is not None and mem.last["end_reason"] == "damage":
        return None  # already under fire: every hit would stop the walk, so shoot back
    decision = _retreat(mem, gunmen, f"falling back: {len(gunmen)} gunmen after me")
    if decision is None:
        return None
    mem.failures[("fall_back", area["id"])] += 1
    return decision


def _reload_away(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    # A gun all but empty (or reloading) in a duel at range stands still for the reload
    # while the gunman keeps firing: stepping out of his sight lets the reload run where
    # it costs nothing, and the ambush at the doorway meets him with a full magazine.
    gunmen = _gunmen(rows)
    area = mem.view["area"]
    if not gunmen or area is None or min(r["distance"] for r in gunmen) < STAND_RANGE:
        return None
    if not _magazine_low(mem) or mem.failures[("fall_back", area["id"])] >= FALL_BACKS:
        return None
    if _in_hand(mem).get("loaded") and min(r["health"] for r in gunmen) <= FINISH:
        return None  # one all but down is finished with what is loaded
    if mem.last is not None and mem.last["end_reason"] == "damage":
        return None  # under fire every hit stops the walk: a long way to cover is worse
    decision = _retreat(mem, gunmen, "falling back to reload out of sight", RELOAD_COVER)
    if decision is not None:
        mem.failures[("fall_back", area["id"])] += 1
    return decision


def _in_hand(mem: Memory) -> dict[str, Any]:
    player = mem.view["player"]
    return next((c for c in player["carried"] if c["id"] == player["in_hand"]), {})


def _magazine_low(mem: Memory) -> bool:
    # The counter on the gun in hand, as the player sees it: nearly empty with rounds to
    # reload from, or reloading now.
    gun = _in_hand(mem)
    if gun.get("kind") != "weapon" or gun.get("loaded") is None:
        return False
    spare = gun.get("ammo") or 0
    return bool(gun.get("reloading")) or (gun["loaded"] <= LOW_MAGAZINE and spare > 0)


def _retreat(mem: Memory, gunmen: list[dict[str, Any]], why: str,
             within: float = math.inf) -> Decision | None:
    # The way out farthest from the gunmen, relative to how far the player must walk.
    area = mem.view["area"]
    gx = sum(r["position"][0] for r in gunmen) / len(gunmen)
    gz = sum(r["position"][2] for r in gunmen) / len(gunmen)
    x, _, z = mem.position
    ways = [w for w in area["ways_out"] if w["visited"] and not w["one_way"]
            and not w["other_storey"] and _passable(mem, w) and w["distance"] <= within]
    if not ways:
        return None

    def safety(way: dict[str, Any]) -> float:
        wx, _, wz = way["position"]
        return math.hypot(wx - gx, wz - gz) - math.hypot(wx - x, wz - z)

    way = max(ways, key=lambda w: (safety(w), w["id"]))
    wx, wy, wz = way["position"]
    length = max(math.hypot(wx - x, wz - z), 1.0)
    # Step well past the doorway and off its line, so the frame hides the player.
    beyond = (wx + (wx - x) / length * PAST * 2, wy, wz + (wz - z) / length * PAST * 2)
    args = {"x": round(beyond[0], 1), "z": round(beyond[2], 1), "y": round(beyond[1], 1),
            "use_on_way": True, "fire_on_way": True}
    decision: Decision = ("go_to", args, f"{why} (to {way['to_name']})")
    if mem.failed(decision, 2):
        return None
    mem.failures[("ambush", way["to"])] = 0
    return decision


def _passable(mem: Memory, way: dict[str, Any]) -> bool:
    door = mem.doors.get(way["door"] or "")
    return door is None or door["state"] not in ("locked",)


def _ambush(mem: Memory) -> Decision | None:
    # Just fell back and nobody is in sight yet: pursuers are on their way through the door.
    done = mem.last_decision
    if done is None or not done[2].startswith("falling back") or mem.here is None:
        return None
    if mem.view["player"]["health"] < AMBUSH_HEALTH:
        return None
    key = ("ambush", mem.here)
    if mem.failures[key] >= AMBUSHES:
        return None
    mem.failures[key] += 1
    return ("wait", {"seconds": AMBUSH_S}, "falling back: waiting for pursuers at the doorway")


def heal(mem: Memory, below: float) -> Decision | None:
    """Pick up the nearest medkit or armour when health is below a mark."""
    player = mem.view["player"]
    calm = not any(r["seen"] == "now" and hostile(r) and r["alertness"] in AWARE
                   for r in mem.view["characters"])
    # With nobody shooting, a half-spent player tops up before walking into the next room:
    # the next guard meets it fresh.
    if player["health"] >= (max(below, CALM_MARK) if calm else below):
        return _armour_nearby(mem) or (_rearm(mem) if calm else None)
    kinds = tuple(k for k in HEALING if k != "armour" or player["armour"] < FULL)
    return _nearest_pickup(mem, kinds, "healing up", tries=1) or (_rearm(mem) if calm else None)


def _armour_nearby(mem: Memory) -> Decision | None:
    # Armour lying a few steps away is worth a detour before the shooting starts.
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
    return _nearest_pickup(mem, ("ammo",), f"only {left} rounds left, rearming", tries=1)


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
    return _nearest_pickup(mem, AMMO, "looking for ammunition", tries=3)


def _nearest_pickup(mem: Memory, kinds: tuple[str, ...], why: str,
                    tries: int) -> Decision | None:
    present = _present(mem)
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


def _fits(mem: Memory, row: dict[str, Any]) -> bool:
    # Rounds are only worth a walk for a gun carried: shells for a shotgun never picked
    # up do nothing. The view says which gun a box feeds.
    if row["kind"] != "ammo":
        return True
    return row.get("weapon") in {c.get("weapon") for c in mem.carried("weapon")}


def _present(mem: Memory) -> set[str]:
    # Pickups vanish from the view once taken; remembered rows of things in the current
    # view or not contradicted by it are still worth a walk.
    shown = {o["id"] for o in mem.view["objects"]}
    return {oid for oid in mem.objects if oid in shown or mem.failures[("go_to_object", oid)] < 2}
