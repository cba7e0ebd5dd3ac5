"""Records search: one keypad that takes a single try, and many numbers in the notes.

Notes lie about the building: one names the keypad and gives its code; the others hold
codes for keypads that are not here, the keypad's old code (in a clause that does not
name it), times and extensions. The keypad locks out at the first wrong code, so the
right number is chosen by reading the words, not by trying them.
"""

from __future__ import annotations

import math
import random
from typing import Any

from world.generate import codes, stock
from world.generate.layout import LevelDraft, room_grid
from world.generate.template import Params, Template, int_param, number_param

FILES = ("personnel file", "case file", "audit report", "blueprint roll", "witness statement")
CHANGED = ("The {k} was reset this week.", "The {k} was changed after the audit.")
# The sentences of a note are shuffled: an old code reads right before or after the
# sentence saying the keypad was changed.
OLD = ("Old codes such as {n} no longer work.", "Forget the old number {n}.")


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    rooms = p["rooms"]
    cols = rng.randint(2, 4)
    grid = room_grid(rng, storey="ground", prefix="room", cols=cols,
                     rows=math.ceil(rooms * 1.4 / cols), rooms=rooms, loops=p["loops"])
    start = "room_0"
    strong = stock.farthest(grid, start)
    tree = grid.links[:len(grid.rooms) - 1]  # the strongroom keeps one way in
    grid.links = tree + [e for e in grid.links[len(tree):] if strong not in e]
    prize = rng.choice(FILES)
    names = codes.panel_names(rng, 1 + p["notes"])
    keypad = names[0]
    draft = LevelDraft(level_id, "The records room",
                       f"The {prize} is locked in a strongroom whose keypad takes one try "
                       "and then locks for good. The clerks' notes lie about the rooms, "
                       f"full of numbers. Take the {prize} and bring it back.")
    draft.data["design_note"] = (f"Generated records search: {rooms} rooms, one keypad "
                                 f"with a single try and {p['notes']} notes besides the one "
                                 "that names it, holding other keypads' codes, its old code "
                                 "and stray numbers. Guards from normal up.")
    draft.storey("ground", 0)
    draft.rooms(grid, stock.ROOM_NAMES, rng)
    weapon = stock.give_weapon(draft, "pistol", "pistol", 60)
    stock.start_in(draft, grid.rooms[start], grid.rooms[start].centre(), [weapon],
                   facing=rng.choice([0, 90, 180, 270]))
    drawn = codes.Codes(rng)
    code = drawn.draw()
    before = grid.neighbours(strong)[0]
    codes.keypad_door(draft, rng, grid.rooms[before], grid.rooms[strong], "keypad_0", keypad,
                      code, attempts=1)
    open_rooms = [r for r in sorted(grid.rooms) if r != strong]
    spots = [rng.choice(open_rooms) for _ in range(1 + p["notes"])]
    texts = [[codes.code_clause(keypad, code, rng), *drawn.decoys(1)],
             [rng.choice(CHANGED).format(k=keypad), rng.choice(OLD).format(n=drawn.draw())]]
    texts += [[codes.code_clause(other, drawn.draw(), rng), *drawn.decoys(1)]
              for other in names[2:1 + p["notes"]]]
    for n, (room, clauses) in enumerate(zip(spots, texts, strict=False)):
        codes.add_note(draft, rng, grid.rooms[room], f"note_{n}",
                       codes.note_text(rng, clauses))
    draft.add("objects", id="prize", kind="key", name=prize, area=strong,
              at=grid.rooms[strong].spot(rng))
    posts = stock.far_rooms(grid, start, 2)
    for n, room in enumerate(rng.sample(posts, min(len(posts), 2))):
        stock.guard(draft, rng, grid, room, n, "normal" if n == 0 else "hard", accuracy=0.4)
    stock.medkit(draft, rng, grid.rooms[rng.choice(open_rooms)], 0)
    stock.bring_back(draft, prize, "strongroom", start, 100 + 15 * rooms, 120 + 40 * rooms)
    return draft.finish()


TEMPLATE = Template(
    name="records",
    kind="records search",
    description="Read the notes about the building, pick out the one that names the "
                "strongroom's keypad (it takes one try), open it and bring back the file.",
    params={
        "rooms": int_param(4, 20, 8, "rooms in the building"),
        "notes": int_param(1, 6, 4, "notes besides the one naming the keypad: its old code, "
                           "then other keypads' codes"),
        "loops": number_param(0, 0.5, 0.15, "chance that two neighbouring rooms are also "
                              "linked, making cycles"),
    },
    categories=tuple(["puzzle", "exploration"]),
    build=_build,
)
