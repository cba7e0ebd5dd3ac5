"""Key-and-door maze: explore unknown rooms, find the keys, reach the far room.

The briefing reveals nothing; every layout is a fresh room tree with its locked doors
on the way and each key where it can be reached first.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from world.generate import stock
from world.generate.layout import LevelDraft, link_key
from world.generate.template import Params, Template, int_param, number_param

KEY_NAMES = ("blue keycard", "red keycard", "green keycard")


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    rooms = p["rooms"]
    grid = stock.square_grid(rng, rooms, p["loops"])
    start = "room_0"
    goal = stock.farthest(grid, start)
    draft = LevelDraft(level_id, "A maze of locked doors",
                       "Nothing is known of this place beyond the room you stand in. Find "
                       "your way to the far room; any locked door on the way has its key "
                       "somewhere you can reach.")
    draft.data["design_note"] = (f"Generated key-and-door maze: {rooms} rooms, "
                                 f"{p['keys']} locked doors on the way to the far room.")
    draft.storey("ground", 0)
    draft.rooms(grid, stock.ROOM_NAMES, rng)
    weapon = stock.give_weapon(draft, "pistol", "pistol", 60)
    stock.start_in(draft, grid.rooms[start], grid.rooms[start].centre(), [weapon],
                   facing=rng.choice([0, 90, 180, 270]))
    path = grid.path(start, goal)
    edges = list(itertools.pairwise(path))
    locked = sorted(rng.sample(range(len(edges)), min(p["keys"], len(edges))))
    # The far room is the exit: entered before every key is found, it ends the mission.
    through_goal = frozenset(link_key(goal, room) for room in grid.neighbours(goal))
    key_ids = []
    for n, index in enumerate(locked):
        blocked = frozenset(link_key(*edges[i]) for i in locked[n:])
        reach = sorted(grid.distances(start, blocked))
        off_path = [r for r in reach if r not in path] or reach
        chosen = rng.choice(off_path)
        safe = grid.distances(start, blocked | through_goal)
        if chosen not in safe:
            # Only a loop past the far room leads there, so the key is drawn again among
            # the rooms reached without it. Drawn again only then: every level whose key
            # was reachable stays as generator version 4 first made it.
            chosen = rng.choice([r for r in off_path if r in safe] or sorted(safe))
        room = grid.rooms[chosen]
        key_id = f"key_{n}"
        draft.add("objects", id=key_id, kind="key", name=KEY_NAMES[n], area=room.id,
                  at=room.spot(rng))
        door = draft.find_exit(*edges[index])
        door["door"] = {"initial": "locked", "key": key_id}
        key_ids.append(key_id)
        draft.objective(f"find_{key_id}", "collect_item", f"Find the {KEY_NAMES[n]}.",
                        object=key_id)
    _opposition(draft, rng, grid, start, rooms)
    draft.data["exit_area"] = {"area": goal}
    draft.objective("reach_goal", "reach_area", "Reach the far room.", area=goal,
                    weight=2, **({"after": [f"find_{k}" for k in key_ids]} if key_ids else {}))
    draft.data["budgets"] = {"max_decisions": 80 + 15 * rooms,
                             "max_game_seconds": 90 + 25 * rooms}
    return draft.finish()


def _opposition(draft: LevelDraft, rng: random.Random, grid: Any, start: str,
                rooms: int) -> None:
    # Guards stand at least two rooms from the start; a medkit per five rooms.
    posts = stock.far_rooms(grid, start, 2)
    for n, room in enumerate(rng.sample(posts, min(len(posts), rooms // 5 + 1))):
        stock.guard(draft, rng, grid, room, n, "normal" if n % 2 == 0 else "hard")
    for n, room in enumerate(rng.sample(sorted(grid.rooms), max(1, rooms // 5))):
        stock.medkit(draft, rng, grid.rooms[room], n)


TEMPLATE = Template(
    name="maze",
    kind="key-and-door maze",
    description="Explore unknown rooms, collect the keys to the locked doors on the way "
                "and reach the farthest room (nothing is revealed at the start).",
    params={
        "rooms": int_param(4, 30, 9, "rooms in the maze"),
        "keys": int_param(0, 3, 1, "locked doors on the way to the goal, each with its key"),
        "loops": number_param(0, 0.5, 0.1, "chance that two neighbouring rooms are also "
                              "linked, making cycles"),
    },
    categories=tuple(["exploration", "puzzle"]),
    build=_build,
)
