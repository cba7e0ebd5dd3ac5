"""The record's map in the agent's ids: map ids renamed through the end line's table.

The header's map numbers every thing in the level's order (it is written before the
player has perceived anything); the agent's ids follow perception and are listed, with
the map id of the same thing, in the end line's `ids`. A page draws the map in the
agent's ids, so that a turn naming `o2` points at the thing the agent meant. Things never
perceived get the numbers after the last one handed out in their group.
"""

from __future__ import annotations

import copy
from typing import Any

# The map's lists whose rows carry an id (and, for exits, the ids of two areas).
_LISTS = ("areas", "exits", "stairs", "objects", "characters")


def _number(ep: str) -> int:
    return int(ep[1:]) if ep[1:].isdigit() else 0


def in_episode_ids(plan: dict[str, Any], given: dict[str, str] | None) -> dict[str, Any]:
    """The map with each id replaced by the agent's id for the same thing.

    Args:
        plan: The header's map (its `ids` table: map id -> level id).
        given: The end line's `ids` (episode id -> map id), or None (an interrupted
            record, or one written before ids followed perception): the map as it is.

    Returns:
        A renamed copy (the map itself when there is nothing to rename by).
    """
    table = plan.get("ids")
    if not given or not isinstance(table, dict):
        return plan
    rename = {map_id: ep for ep, map_id in given.items()}
    following: dict[str, int] = {}
    for ep in given:
        following[ep[:1]] = max(following.get(ep[:1], 0), _number(ep))
    mentioned = list(table) + [r["id"] for name in _LISTS for r in plan.get(name, ())]
    for map_id in dict.fromkeys(mentioned):
        if map_id not in rename:
            letter = map_id[:1]
            following[letter] = following.get(letter, 0) + 1
            rename[map_id] = f"{letter}{following[letter]}"
    out = copy.deepcopy(plan)
    for name in _LISTS:
        for row in out.get(name, ()):
            row["id"] = rename[row["id"]]
            if "areas" in row:
                row["areas"] = [rename.get(a, a) for a in row["areas"]]
    out["ids"] = {rename[m]: lid for m, lid in table.items()}
    return out
