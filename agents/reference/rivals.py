"""Match play (the multiplayer track): opposing players are hostiles, the exit a race.

Used only when the start message carries a `match` block; a mission never reaches this
module. Everything comes from the player's own view: other players are characters of
kind `player` (`friendly` true for a teammate), and the match block names the exit area.
Each step returns a decision or None, and None hands the turn to the mission steps
(exploring, reloading, healing), which know nothing of matches.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.ambush import close_in, lie_in_wait, steady
from agents.reference.memory import Decision, Memory
from agents.reference.moves import enter_area, through, walk_to
from agents.reference.supplies import AMMO, gun_in_hand, nearest_pickup, ready_weapon, rounds
from agents.reference.zones import objective_step

HURT = 0.5  # at or below this, a duel is broken off for a medkit out of the rival's sight
LAST_HIT = 0.3  # at or below this, a pistol's next hit downs the player
PATCH_UP = 0.7  # with no rival in sight, a known medkit is fetched below this health
LOW_ROUNDS = 8  # fewer rounds than this in every gun, and known ammunition is fetched
# A dash under fire: units a player at full health covers while a rival's pistol,
# firing all the while, takes about half its health (a hit takes a quarter, two or
# more hits a second, at a walking pace of about 290 units a second); scaled by the
# health left. A longer dash loses the duel it turns its back on.
DASH_PER_HEALTH = 350.0
TIE = 100.0  # a rival this much nearer the exit than the player is still raced
IN_THE_WAY = 250.0  # a rival this close to the dash's line stands between
MEDKIT_REACH = 600.0  # a medkit farther than this is not fallen back to
SKIRMISH = 300.0  # a rival this close is fought: turning away gives it free shots
RUNNER = 800.0  # a rival this near the exit next door is shot first (about 3 s from it)
RACE = "racing for the exit"
ATTACK_LEG = 0.8  # game seconds an attack runs before the duel is looked at again
RELOAD_LEG = 2.5  # added to a leg begun with an empty magazine (the longest reloads)
HOLD_S = 3.0  # game seconds a rival lost from sight is waited for
HOLD_LEG = 0.5  # one wait while holding (a sighting ends it sooner)
TICKS_PER_S = 30  # the protocol's game ticks per second (time_s = tick / 30)
TOGETHER = 450.0  # a teammate farther than this is rejoined while no rival is in sight
ESCORT = "escort_player"  # the objective row of an escort match (PROTOCOL.md)


def match_step(mem: Memory, match: dict[str, Any]) -> Decision | None:
    """The match's own step for this turn, or None to play the turn as a mission would."""
    rivals = [c for c in mem.view["characters"] if c["kind"] == "player"
              and c["friendly"] is False and not c["down"]]
    in_sight = [c for c in rivals if c["seen"] == "now"]
    armed_rivals = [c for c in in_sight if c["armed"] is not False]
    exit_way, exit_area = _exit(mem, match)
    if match.get("players", 0) > match.get("teammates", 0) + 1:
        opening = lie_in_wait(mem, armed_rivals)
        if opening is not None:
            return opening
    race = _race(mem, exit_way, armed_rivals)
    if race is not None:
        return race
    escorted = [c for c in in_sight if c["armed"] is False]
    if escorted and _loaded(mem) and any(row.get("kind") == ESCORT
                                         for row in mem.view["objectives"]):
        # In an escort match the rival side's escorted player carries no gun, and
        # downing it wins outright: it comes before its armed guards.
        return _attack(mem, _focus(escorted), "downing the rival's escorted player")
    if armed_rivals:
        return _duel(mem, armed_rivals, exit_way, alone=not match.get("teammates"))
    if in_sight and _loaded(mem):
        # An unarmed rival is downed before it finds a gun: a frag costs it the match.
        return _attack(mem, _focus(in_sight), "downing unarmed rival")
    hold = None if match.get("teammates") else _hold(mem, rivals)
    return (_supplies(mem) or objective_step(mem) or hold or _to_exit(mem, exit_area)
            or _rejoin(mem))


def _exit(mem: Memory, match: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    # The match names its exit area; a way out of this area leading there is its door,
    # and any way seen from an area walked through tells the area's id.
    name = match.get("exit")
    if name is None:
        return None, None
    here = (mem.view["area"] or {}).get("ways_out", [])
    way = next((w for w in here if w.get("to_name") == name), None)
    if way is not None:
        return way, way["to"]
    for note in mem.areas.values():
        for seen in note.ways.values():
            if seen.get("to_name") == name:
                return None, seen["to"]
    return None, None


def _race(mem: Memory, way: dict[str, Any] | None,
          armed_rivals: list[dict[str, Any]]) -> Decision | None:
    # Entering the exit area first wins outright: a dash through a way out next door is
    # taken when no armed rival is nearer it or standing on the line there, and the dash
    # is short enough to survive its fire.
    if way is None or (way.get("door") and way["door"] in mem.doors
                       and mem.doors[way["door"]]["state"] not in ("open", "opening", "broken")):
        return None
    mine = way["distance"]
    health = mem.view["player"]["health"]
    done = mem.last_decision
    # A dash once begun is kept up: stopping to turn and fight after the first hit
    # starts the duel a hit behind, and a walking target is missed more often.
    racing = done is not None and done[2].startswith(RACE) \
        and done[1].get("exit_id") == way["id"]
    if armed_rivals:
        if mine > DASH_PER_HEALTH * health and not racing:
            return None
        for rival in armed_rivals:
            if _flat(rival["position"], way["position"]) + TIE < mine \
                    or _off_line(rival["position"], mem.position, way["position"]) < IN_THE_WAY:
                return None
    return through(mem, way, f"{RACE}: first in wins the match")


def _duel(mem: Memory, rivals: list[dict[str, Any]], exit_way: dict[str, Any] | None,
          alone: bool = True) -> Decision | None:
    target = _focus(rivals, exit_way)
    health = mem.view["player"]["health"]
    losing = target["health"] > health or (health <= HURT and target["health"] >= health)
    if losing and health > LAST_HIT and exit_way is None and not _mates_near(mem):
        # Losing the exchange: fall back out of the rival's sight to a medkit not far off
        # and come back fresh (a medkit in its area would be fetched under its fire).
        # One hit from down, the walk away would only end the duel sooner: it is fought.
        # Not when winning it (the rival has no more hits left than the player), nor with
        # the exit next door: the rival left alone walks out and wins; nor beside a
        # teammate: it would fight them alone.
        kit = _medkit_near(mem, target)
        if kit is not None:
            return kit
    if not _loaded(mem):
        step = ready_weapon(mem)
        if step is not None:
            return step
        kit = nearest_pickup(mem, AMMO, "out of rounds with a rival in sight", tries=2)
        if kit is not None:
            return kit
        return None
    # Closing in is for one rival met alone: with two in sight the other shoots the
    # walker, and a team keeps together.
    closing = close_in(mem, target, exit_way) if alone and len(rivals) == 1 else None
    return closing or steady(mem, target) \
        or _attack(mem, target, "fighting rival")


def _attack(mem: Memory, target: dict[str, Any], why: str) -> Decision | None:
    step = ready_weapon(mem) if rounds(gun_in_hand(mem)) == 0 else None
    if step is not None:
        return step
    # In short legs: an attack runs until someone is down, and a duel going badly is
    # broken off only if the player gets to decide again.
    # An empty magazine is refilled first within the attack: a leg shorter than the
    # reload would be cut off and start the reload over.
    leg = ATTACK_LEG + (RELOAD_LEG if not gun_in_hand(mem).get("loaded") else 0.0)
    decision: Decision = ("attack", {"character_id": target["id"], "time_limit_s": leg},
                          f"{why} {target['id']} ({target['health']:.0%} health)")
    return None if mem.failed(decision, 2) else decision


def _focus(rivals: list[dict[str, Any]],
           exit_way: dict[str, Any] | None = None) -> dict[str, Any]:
    # Teammates pick alike without talking: the weakest first, then by the world's
    # coordinates (ids and distances differ between players' views). A rival at arm's
    # length comes first whatever its health: it is the one shooting now. Else one near
    # the exit next door: left alone, it walks out and wins the match.
    close = [r for r in rivals if r["distance"] < SKIRMISH]
    if not close and exit_way is not None:
        runners = [r for r in rivals if _flat(r["position"], exit_way["position"]) < RUNNER]
        if runners:
            return min(runners, key=lambda r: (round(_flat(r["position"], exit_way["position"])),
                                               round(r["position"][0]), round(r["position"][2])))
    pool = close or rivals
    return min(pool, key=lambda r: (round(r["health"] * 4), round(r["position"][0]),
                                    round(r["position"][2])))


def _medkit_near(mem: Memory, rival: dict[str, Any]) -> Decision | None:
    kits = [o for o in mem.view["objects"] if o["kind"] == "medkit" and o["state"] is None
            and o["distance"] < MEDKIT_REACH and o["area"] not in (rival["area"], None)]
    for kit in sorted(kits, key=lambda o: (o["distance"], o["id"])):
        decision: Decision = ("go_to_object", {"object_id": kit["id"]},
                              f"hurt in a losing duel: falling back to medkit {kit['id']}")
        if not mem.failed(decision, 1):
            return decision
    return None


def _supplies(mem: Memory) -> Decision | None:
    # With no rival in sight: a gun with rounds in hand, then health, then rounds.
    if not _loaded(mem):
        step = ready_weapon(mem)
        if step is not None:
            return step
    if mem.view["player"]["health"] < PATCH_UP:
        step = nearest_pickup(mem, ("medkit",), "patching up between duels", tries=1)
        if step is not None:
            return step
    if max((rounds(c) for c in mem.carried("weapon")), default=0) < LOW_ROUNDS:
        return nearest_pickup(mem, AMMO, "fetching rounds between duels", tries=2)
    return None


def _hold(mem: Memory, rivals: list[dict[str, Any]]) -> Decision | None:
    # A rival just lost from sight after a duel follows the player to finish it: waiting
    # out of its sight, standing, lets the player fire first and steadier when it steps
    # into view (a walking shooter misses more), where a walk back out would meet it in
    # the open. Only for a few seconds: a rival that does not come may be racing. Not
    # with teammates: one holding back leaves the other to fight two alone.
    armed_rivals = [r for r in rivals if r["armed"] is not False and r.get("seen_tick")
                    is not None and mem.time_s - r["seen_tick"] / TICKS_PER_S < HOLD_S]
    if not armed_rivals:
        return None
    return ("wait", {"seconds": HOLD_LEG}, "holding out of sight for the rival to come")


def _to_exit(mem: Memory, area: str | None) -> Decision | None:
    # The exit known but not next door: head there (the race step takes the last door).
    if area is None or mem.here == area:
        return None
    return enter_area(mem, area, None, "heading for the exit: first in wins the match")


def _rejoin(mem: Memory) -> Decision | None:
    # Two guns on one rival win the exchange: a teammate drifted apart is walked back to.
    mates = [c for c in mem.view["characters"] if c["kind"] == "player"
             and c["friendly"] is True and not c["down"] and c["distance"] > TOGETHER]
    for mate in sorted(mates, key=lambda c: (c["distance"], c["id"])):
        step = walk_to(mem, mate["position"], f"rejoining teammate {mate['id']}")
        if step is not None:
            return step
    return None


def _mates_near(mem: Memory) -> bool:
    return any(c["kind"] == "player" and c["friendly"] is True and not c["down"]
               and c["seen"] == "now" and c["distance"] <= TOGETHER
               for c in mem.view["characters"])


def _loaded(mem: Memory) -> bool:
    return any(rounds(c) > 0 for c in mem.carried("weapon"))


def _flat(a: list[float] | tuple[float, ...], b: list[float] | tuple[float, ...]) -> float:
    return math.hypot(a[0] - b[0], a[2] - b[2])


def _off_line(p: list[float], a: tuple[float, ...], b: list[float]) -> float:
    # How far a point lies from the segment a-b (on the floor plan).
    ax, az, bx, bz = a[0], a[2], b[0], b[2]
    dx, dz = bx - ax, bz - az
    length2 = dx * dx + dz * dz
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[2] - az) * dz)
                                               / length2))
    return math.hypot(p[0] - (ax + t * dx), p[2] - (az + t * dz))
