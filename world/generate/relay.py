"""Relay: a code read at the start, needed at the far end after a fight on the way.

The note with the relay keypad's code lies in the start room; the relay room is the
farthest room, behind a keypad that takes one try. Guards stand on the way (one even
at easy), and notes read later hold other numbers: the code must be kept, by the agent,
from the first decisions to the last, since the view keeps only that a note was read.
"""

from __future__ import annotations

import math
import random
from typing import Any

from world.generate import codes, stock
from world.generate.layout import LevelDraft, room_grid
from world.generate.template import Params, Template, int_param


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    rooms = p["rooms"]
    # A narrow grid: the way to the relay is long for the rooms there are.
    cols = rng.randint(2, 3)
    grid = room_grid(rng, storey="ground", prefix="room", cols=cols,
                     rows=math.ceil(rooms * 1.3 / cols), rooms=rooms, first=(0, 0))
    start = "room_0"
    relay = stock.farthest(grid, start)
    keypad, other_keypad = "relay keypad", codes.panel_names(rng, 1)[0]
    draft = LevelDraft(level_id, "The relay",
                       "Get the relay at the far end of the building working again. Its "
                       "room is worked by a keypad that takes one try; the engineer's "
                       "handover notes should say how to get in.")
    draft.data["design_note"] = (f"Generated relay: {rooms} rooms in a narrow run; the relay "
                                 "keypad's code is on a note in the start room and the relay "
                                 "room is the farthest, behind one try; guards on the way "
                                 "from easy, one more at normal and another at hard.")
    draft.storey("ground", 0)
    draft.rooms(grid, stock.ROOM_NAMES, rng)
    weapon = stock.give_weapon(draft, "pistol", "pistol", 80)
    stock.start_in(draft, grid.rooms[start], grid.rooms[start].centre(), [weapon],
                   facing=rng.choice([0, 90, 180, 270]))
    drawn = codes.Codes(rng)
    code = drawn.draw(rng.choice([4, 5]))
    path = grid.path(start, relay)
    codes.keypad_door(draft, rng, grid.rooms[path[-2]], grid.rooms[relay], "keypad_0",
                      keypad, code, attempts=1)
    codes.add_note(draft, rng, grid.rooms[start], "note_0", codes.note_text(
        rng, [codes.code_clause(keypad, code, rng), *drawn.decoys(1)]))
    later = path[2:-1] or [path[-2]]
    for n, room in enumerate(rng.sample(later, min(2, len(later)))):
        other = codes.code_clause(other_keypad, drawn.draw(), rng) if n == 0 else ""
        codes.add_note(draft, rng, grid.rooms[room], f"note_{n + 1}", codes.note_text(
            rng, [c for c in (other, *drawn.decoys(1)) if c]))
    draft.add("objects", id="relay", kind="switch", name="relay switch", area=relay,
              at=grid.rooms[relay].spot(rng, 150), targets=[])
    middle = path[len(path) // 2]
    on_way = path[1:-1] or [middle]
    stock.guard(draft, rng, grid, middle, 0, None, hearing_range=400, accuracy=0.35)
    # Hard's extra guard is the weakest: met on top of the others in a narrow run, a
    # sharper one made the way through a coin toss rather than a test.
    for n, (when, hears, aim) in enumerate((("normal", 400, 0.4), ("hard", 300, 0.3)), start=1):
        stock.guard(draft, rng, grid, rng.choice(on_way), n, when, hearing_range=hears,
                    accuracy=aim)
    for n, room in enumerate((path[len(path) // 2 - 1], rng.choice(path[1:]))):
        stock.medkit(draft, rng, grid.rooms[room], n)
    draft.objective("start_relay", "use_object", "Switch the relay on.", object="relay")
    draft.data["budgets"] = {"max_decisions": 80 + 15 * rooms,
                             "max_game_seconds": 120 + 40 * rooms}
    return draft.finish()


TEMPLATE = Template(
    name="relay",
    kind="relay (memory)",
    description="Read the relay keypad's code in the first room, fight through the run of "
                "rooms to the far end and key it in there (one try) to switch the relay on.",
    params={
        "rooms": int_param(4, 20, 10, "rooms in the building, in a narrow run"),
    },
    categories=tuple(["puzzle", "combat"]),
    build=_build,
)
