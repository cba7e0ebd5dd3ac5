"""Fighting: which hostile to answer first, and how (close in, fall back, or shoot).

Friendly characters are never chosen as targets (the harness refuses it anyway); in a
stealth mission only hostiles that have already noticed the player are fought. Targets
are taken in order of how long each takes to put down (longer at range, where shots
miss) for the harm it does, bare hands running in counted as a gun. Falling back and
reloading out of sight live in cover.py; guns, rounds and medkits in supplies.py.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.backs import asleep
from agents.reference.cover import (
    ambush,
    break_off,
    fall_back,
    reload_away,
    tethered,
    under_fire,
)
from agents.reference.duels import reload_in_cover
from agents.reference.guns import harm, sure_range
from agents.reference.longgun import feed_best_gun
from agents.reference.memory import Decision, Memory
from agents.reference.moves import STEALTHY, use_thing, walk_to
from agents.reference.pads import back_to_gun_spot
from agents.reference.reloads import REACH, RUN_SPEED, reload_first
from agents.reference.split import slip_out, split_up
from agents.reference.supplies import (
    AMMO,
    AWARE,
    FULL,
    LOW_ROUNDS,
    SIDEARM,
    armed,
    gun_in_hand,
    hostile,
    nearest_pickup,
    new_weapon,
    rank,
    ready_weapon,
    restock,
    rounds,
    still_there,
    weapon_against,
)

THREAT_RANGE = 1500.0
CLOSE_RANGE = 700.0
AIM_COST = 0.25  # health-equivalents of time spent turning to and aiming at a target
# Within this range nearly every aimed shot lands; beyond it the share that hits falls with
# the range (a target covers less of the spread cone), so a duel lasts that much longer.
CLEAR_SHOT = 400.0
BRAWL = 500.0  # bare hands nearer than this (a couple of seconds off) count as much as a gun
# Bare hands in combat nearer than this reach the player before a far duel is over: one
# running in covers a few hundred units a second.
CHARGE = 800.0
SHOOTING = 1.5  # how much more harm one standing off and firing does
KEEP = 0.7  # how much cheaper the current target is than a fresh one
LONG_SHOT = 1300.0  # beyond this, close in before attacking
FIRST_SHOT = 1200.0  # a gunman watching the player from nearer than this is shot first
OPEN_FIRE = 800.0  # how near closing in gets
TOUGH = 2.0  # health (in ordinary people) from which a better weapon is fetched first
SETTLE_S = 0.3  # game seconds between looks needed to judge who stands still
STILL_SPEED = 50.0  # units per second under which a hostile counts as standing
STAND_OFF = 250.0  # nearer than this, standing still is a brawl, not a shooter's stance
ARRIVE_S = 1.0  # in a room with no way out, bare hands this near in time go before a gunman
PATCH_UP = 0.5  # below this, a medkit comes before a duel at range
KIT_AT_HAND = 150.0  # a medkit this near is taken mid-fight: a step costs less than a hit
HOLD_FIRE = 2.0  # bare hands farther than this many sure ranges of the gun are let come
MIN_HOLD_S = 0.3  # the shortest and longest look while holding fire
MAX_HOLD_S = 1.0


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
        # One already looking the player's way is not: he is about to start the duel
        # himself, and the first shot, fired standing, is the player's.
        if (aware or (row["distance"] < CLOSE_RANGE and not asleep(mem, row))
                or watching(mem, row)) and row["id"] not in mem.downed:
            out.append(row)
    if mem.sightings is None:
        mem.sightings = Sightings()
    shooters = mem.sightings.shooters(mem)
    current = _current_target(mem)
    # Not where the area is unknown: a way out may lie a step off.
    exposed = mem.view["area"] is not None and not mem.view["area"]["ways_out"]
    return sorted(out, key=lambda r: (r["alertness"] not in AWARE,
                                      exposed and not _first_in_open(r, r["id"] in shooters),
                                      _cost(r, r["id"] in shooters, r["id"] == current),
                                      r["id"]))


def watching(mem: Memory, row: dict[str, Any]) -> bool:
    """Whether a gunman who noticed something stands facing the player within a sure shot.

    A suspicious guard turned toward the player wakes within a second or two of watching
    and opens fire on a player still walking, whose own shots then fly wide; the player
    who stops and shoots first has the duel's first hit, and the guard's shots, fired
    while he walks up to his firing spot, fly wide instead. Only while he is the one
    gunman in sight: a shot at him then wakes the others too, and starts a fight against
    two at once (split.py takes those one at a time).
    """
    if row["alertness"] != "suspicious" or row["armed"] is not True \
            or row["distance"] > FIRST_SHOT or row.get("facing_deg") is None:
        return False
    if any(r["id"] != row["id"] and r["seen"] == "now" and hostile(r)
           and r["armed"] is not False and r["distance"] < THREAT_RANGE
           for r in mem.view["characters"]):
        return False
    x, _, z = mem.position
    px, _, pz = row["position"]
    bearing = math.degrees(math.atan2(z - pz, x - px))
    off = abs((bearing - row["facing_deg"] + 180.0) % 360.0 - 180.0)
    return off <= (row.get("view_angle_deg") or 0.0) / 2 \
        and row["distance"] <= (row.get("view_range") or 0.0)


def _first_in_open(row: dict[str, Any], shooting: bool) -> bool:
    # With no way out of the room, nothing hides the player from a gunman standing off
    # and firing: his shots fall until he is down, so he goes before anyone running in
    # from farther off (who is put down cheaper up close anyway). Only one whose fists
    # land within a second comes before him.
    return shooting or (row["armed"] is False and row["distance"] < REACH + RUN_SPEED * ARRIVE_S)


def _cost(row: dict[str, Any], shooting: bool, current: bool) -> float:
    # Among those after the player, the one that takes the least time to put down for the
    # harm it does goes first: a hurt gunman a step away before a fresh one across the
    # room, a tough, slow brute after the fast ones closing in. Time to put down grows
    # with health and with range (shots miss more); a gun hurts from anywhere, bare hands
    # only up close (or soon, for one running in), and one seen standing off while in
    # combat is surely firing; a deadlier gun counts for more. Turning to another target
    # wastes the aim already taken, so the current one is kept a while.
    down_time = (row["health"] + AIM_COST) * max(1.0, row["distance"] / CLEAR_SHOT)
    reach = CHARGE if row["alertness"] == "in_combat" else BRAWL
    threat = {True: 1.0, None: 0.6}.get(row["armed"], 1.0 if row["distance"] < reach else 0.4)
    threat *= SHOOTING if shooting else 1.0
    if row["armed"] is True and (shooting or row["alertness"] == "in_combat"):
        # A spray gun or a rifle takes health faster than a sidearm: of two gunmen in the
        # fight, the one with the deadlier gun goes first unless the other is much nearer
        # down. Only for one in the fight: a rifleman still searching is no threat beside
        # a pistol already firing at the player.
        threat *= harm(row.get("weapon"))
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



def attack(mem: Memory, row: dict[str, Any], why: str) -> Decision | None:
    """Attack a character unless that keeps failing; rearm first when that is wiser.

    With nothing loaded, the attack becomes a walk to ammunition or a weapon; against a
    tough character (a boss), a weapon seen lying around is fetched first.
    """
    if not armed(mem):
        return restock(mem)
    if row["health"] >= TOUGH:
        step = new_weapon(mem)
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
        step = nearest_pickup(mem, ("medkit",), "patching up between fights", tries=1)
        if step is not None:
            return step
    left = sum(rounds(c) for c in mem.carried("weapon"))
    if left < LOW_ROUNDS:
        # The next fight started with a magazine or two left ends in a reload or an empty
        # gun mid-duel; rounds for a carried gun, or a gun with its own, are fetched first.
        step = nearest_pickup(mem, AMMO, f"only {left} rounds left, rearming between fights",
                               tries=1)
        if step is not None:
            return step
    step = feed_best_gun(mem)
    if step is not None:
        return step
    # A sidearm is the plainest gun: one of a better kind is worth a walk across the map.
    # A gun down to its last few rounds with none carried to feed it (a heavy cannon
    # found with its twenty) sets no bar: it is spent within a fight or two, and the
    # duels after it are the sidearm's.
    best = max((rank(c) for c in mem.carried("weapon") if rounds(c) >= LOW_ROUNDS),
               default=-1.0)
    reach = within if best > SIDEARM else math.inf
    return back_to_gun_spot(mem, best, reach) or new_weapon(mem, reach, best_kind=True)


def fight(mem: Memory, stealth: bool) -> Decision | None:
    """Answer the most pressing threat: fall back when outnumbered, else attack.

    With nothing loaded and someone after the player, fetching rounds is the fight.
    """
    rows = threats(mem, stealth)
    if not armed(mem):
        return restock(mem) if rows else None
    if not rows:
        return ambush(mem)
    step = (_kit_at_hand(mem) or break_off(mem, rows) or fall_back(mem, rows)
            or slip_out(mem, stealth)
            or reload_away(mem, rows)
            or reload_in_cover(mem, rows) or _patch_up(mem, rows) or _not_yet(mem, rows)
            or split_up(mem, stealth) or _let_them_come(mem, rows))
    if step is not None:
        return step
    for row in rows:
        decision = attack(mem, row, f"fighting {row['kind']} {row['id']}")
        if decision is not None and decision[0] == "attack":
            # The gun for this duel: one that finishes it without a reload, if carried;
            # else the one in hand, reloaded before the duel rather than in it.
            return (weapon_against(mem, row, row["health"], row["distance"])
                    or reload_first(mem, row) or decision)
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
    present = still_there(mem)
    # Each medkit is walked to once for this: a walk given up for the errand (the guards
    # out of sight again) is not taken up anew each time they come back into view, which
    # swung the player between the two for the rest of its time; its next leg goes on.
    done = mem.last_decision
    going = done[1].get("object_id") if done is not None and done[0] == "go_to_object" else None
    kits = [o for o in mem.objects.values() if o["kind"] == "medkit" and o["id"] in present
            and o["area"] in mem.visited and o["area"] not in rooms
            and (o["id"] not in mem.patched or o["id"] == going)]
    for kit in sorted(kits, key=lambda o: (mem.distance(o["position"]), o["id"])):
        if mem.failures[("go_to_object", kit["id"])] == 0:
            step = use_thing(mem, kit["id"], "patching up before waking the guards in "
                             f"sight: {kit['name']} {kit['id']}")
            if step is not None and step[0] == "go_to_object":
                mem.patched.add(kit["id"])
            return step
    return None


def _let_them_come(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    # Bare hands running in come to the gun: a spray or a scattergun fired at one far
    # off spends a magazine, and the reload, on what a few rounds do from nearer. While
    # only such attackers are after the player, all still beyond twice the range where
    # the gun in hand hits nearly every shot, it holds its fire a moment.
    gun = gun_in_hand(mem)
    if gun.get("kind") != "weapon" or tethered(mem) or any(
            r["armed"] is not False or r["alertness"] not in AWARE for r in rows):
        return None
    hold = HOLD_FIRE * sure_range(gun)
    nearest = min(r["distance"] for r in rows)
    if nearest <= hold:
        return None
    seconds = min(max((nearest - hold) / RUN_SPEED, MIN_HOLD_S), MAX_HOLD_S)
    return ("wait", {"seconds": round(seconds, 2)}, f"letting {len(rows)} running in come "
            "within range")


def _kit_at_hand(mem: Memory) -> Decision | None:
    # Half spent, with a medkit a step or two off (one left by the door for after the
    # fight): the step takes less time than the gunman's next shot, and the half it gives
    # back outlasts the shots of the next duel.
    if mem.view["player"]["health"] >= PATCH_UP:
        return None
    present = still_there(mem)
    kits = sorted((o for o in mem.objects.values() if o["kind"] == "medkit"
                   and o["id"] in present and mem.distance(o["position"]) < KIT_AT_HAND),
                  key=lambda o: (mem.distance(o["position"]), o["id"]))
    for kit in kits:
        step = use_thing(mem, kit["id"], f"taking {kit['name']} {kit['id']} at hand mid-fight")
        if step is not None and not mem.failed(step, 1):
            return step
    return None


def _patch_up(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    # Half spent with the nearest gun still far off: a long duel now is lost more often
    # than won, while a medkit a few steps away turns it round.
    if mem.view["player"]["health"] >= PATCH_UP or min(r["distance"] for r in rows) < CLOSE_RANGE:
        return None
    if under_fire(mem, rows):
        return None  # the walk would stop at the next hit, and the next: shoot back
    return nearest_pickup(mem, ("medkit",), "patching up before the next duel", tries=1)
