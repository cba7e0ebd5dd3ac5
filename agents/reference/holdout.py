"""Holding out: while attackers keep coming, every stand-still action is a short look.

An action ends early only when the player is hit, not when a newcomer shows up. While an
objective asks the player to stay alive until the time is up, attackers keep climbing in,
and with none in sight the next may come from anywhere: a long shot at a thing or a long
wait turns the player's back on him until his first hits land. Cut into short looks, each
ending in a fresh view, the newcomer is answered before he has settled his aim (a thing
shot at keeps the damage already done to it). With attackers in sight the player already
knows where the next shots come from, and the action runs as chosen.
"""

from __future__ import annotations

from agents.reference.memory import Decision, Memory
from agents.reference.supplies import hostile

LOOK_S = 0.7  # about the time a newcomer takes to see the player and aim
# Per stand-still action, the argument that bounds its game time.
LOOKS = {"wait": "seconds", "shoot_object": "time_limit_s"}


def holding_out(mem: Memory) -> bool:
    """Whether an objective still asks the player to stay alive for a while."""
    return any(o["kind"] == "survive" and o["counts"] and o["status"] == "todo"
               for o in mem.view["objectives"])


def short_look(mem: Memory, decision: Decision) -> Decision:
    """Cap a stand-still action at one look while holding out with nobody in sight."""
    key = LOOKS.get(decision[0])
    if key is None or not holding_out(mem) or any(
            r["seen"] == "now" and hostile(r) for r in mem.view["characters"]):
        return decision
    seconds = min(float(decision[1].get(key, LOOK_S)), LOOK_S)
    return decision[0], {**decision[1], key: seconds}, decision[2]
