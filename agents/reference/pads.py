"""Gun pads: in a free-for-all, the spot where a better gun lay is walked back to.

Arena pickups come back a while after someone takes them, and a bot often takes the best
gun before the player gets there. The player remembers where each gun lay and when it
last saw it lying there; once a gun of a better kind than any it fights with has been
gone that long, the walk back to its spot between fights finds it there again more often
than not (and the duels fought with it cost a fraction of a sidearm's). The view shows it
once its spot is in sight, and the ordinary pickup takes over.
"""

from __future__ import annotations

from agents.reference.memory import Decision, Memory
from agents.reference.moves import walk_to
from agents.reference.supplies import rank, still_there

COME_BACK_S = 20.0  # about how long an arena's pickups take to come back
LOOKED = 300.0  # standing this near the spot, the player has seen whether it is back


def back_to_gun_spot(mem: Memory, bar: float, within: float) -> Decision | None:
    """A walk to where a better gun than any at hand lay before it was taken, or None.

    Args:
        mem: The agent's memory.
        bar: The rank of the best gun carried that lasts.
        within: How far a gun known to lie about may be to count as at hand; a better
            kind's spot is walked to however far (every fight to come is fought with it).

    Returns:
        The walk, best kind first; None while no gun of a kind ranked above the bar and
        above every gun known lying within reach has been gone long enough.
    """
    present = still_there(mem)
    bar = max([bar] + [rank(o) for o in mem.objects.values() if o["kind"] == "weapon"
                       and o["id"] in present and mem.distance(o["position"]) < within])
    spots = []
    for gid, (row, seen) in list(mem.gun_spots.items()):
        if gid in present or rank(row) <= bar:
            continue
        if mem.distance(row["position"]) < LOOKED:
            mem.gun_spots[gid] = (row, mem.time_s)  # looked at: not back yet
            continue
        if mem.time_s - seen >= COME_BACK_S:
            spots.append(row)
    for row in sorted(spots, key=lambda r: (-rank(r), mem.distance(r["position"]), r["id"])):
        step = walk_to(mem, row["position"], f"back to where the {row['name']} {row['id']} "
                       "lay: taken guns come back")
        if step is not None:
            return step
    return None
