"""Expedition: a long mission in stages, each gate opened by a code read a stage earlier.

One large building cut into stages by keypad gates on the way to the farthest room.
Every stage holds items to take; the notes with the gates' codes lie a stage or two
before their gates (the second gate's code is read in the first stage, before the first
gate), so what was read early decides whether the later stages open at all. Hard asks
for more items, deeper in.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from world.generate import codes, stock
from world.generate.layout import LevelDraft, link_key, room_grid
from world.generate.template import Params, Template, int_param

FINDS = ("survey map", "rock sample", "field journal", "compass", "radio log", "film canister",
         "seed vault key", "star chart", "water sample", "core drill bit", "logbook",
         "photo plate", "soil core", "barometer", "ice sample", "specimen jar", "tide table",
         "signal flare", "theodolite", "weather log")  # enough for 4 stages of 5 items
WHEN = (None, None, "normal", "hard", "hard")  # the items of a stage, by lowest difficulty


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    stages, per = p["stages"], p["rooms"]
    rooms = stages * per
    cells = math.ceil(rooms * 1.4)
    cols = rng.randint(max(3, math.isqrt(cells) - 1), math.isqrt(cells) + 1)
    grid = room_grid(rng, storey="ground", prefix="room", cols=cols,
                     rows=math.ceil(cells / cols), rooms=rooms, first=(0, 0))
    start = "room_0"
    goal = stock.farthest(grid, start)
    path = grid.path(start, goal)
    edges = list(itertools.pairwise(path))
    gates = sorted({max(1, round(len(edges) * (g + 1) / stages) - 1)
                    for g in range(stages - 1)} - {len(edges)})
    draft = LevelDraft(level_id, "The expedition",
                       "An abandoned research station, sealed section by section behind "
                       "keypad gates. Recover what the survey team left in every section; "
                       "their notes, left along the way, hold the gate codes.")
    draft.data["design_note"] = (f"Generated expedition: {rooms} rooms in {len(gates) + 1} "
                                 "stages behind keypad gates; each gate's code is on a note "
                                 "a stage or two before it. More items and guards on harder "
                                 "difficulties.")
    draft.storey("ground", 0)
    draft.rooms(grid, stock.ROOM_NAMES, rng)
    weapon = stock.give_weapon(draft, "smg", "submachine gun", 240)
    stock.start_in(draft, grid.rooms[start], grid.rooms[start].centre(), [weapon],
                   facing=rng.choice([0, 90, 180, 270]))
    drawn = codes.Codes(rng)
    names = [f"{word} gate keypad" for word in codes.panel_words(rng, len(gates))]
    stage_rooms = _stages(grid, start, [edges[i] for i in gates])
    for n, index in enumerate(gates):
        code = drawn.draw()
        codes.keypad_door(draft, rng, grid.rooms[edges[index][0]], grid.rooms[edges[index][1]],
                          f"keypad_{n}", names[n], code, attempts=2)
        home = stage_rooms[max(0, n - 1)]
        codes.add_note(draft, rng, grid.rooms[rng.choice(home)], f"note_{n}", codes.note_text(
            rng, [codes.code_clause(names[n], code, rng), *drawn.decoys(1)]))
    finds = rng.sample(FINDS, min(len(FINDS), len(stage_rooms) * p["items"]))
    made = 0
    for stage, members in enumerate(stage_rooms):
        spots = sorted(members, key=lambda r: (-len(grid.path(start, r)), r))
        for k in range(p["items"]):
            if made >= len(finds):
                break
            room = grid.rooms[spots[k % len(spots)] if k < 2 else rng.choice(spots)]
            when = WHEN[k]
            item = f"find_{made}"
            draft.add("objects", id=item, kind="key", name=finds[made], area=room.id,
                      at=room.spot(rng))
            draft.objective(f"take_{made}", "collect_item",
                            f"Recover the {finds[made]}.", object=item,
                            **({"min_difficulty": when} if when else {}))
            made += 1
        guard_rooms = [r for r in members if r != start]
        for g, when in enumerate(("normal", "hard")):
            if guard_rooms:
                stock.guard(draft, rng, grid, rng.choice(guard_rooms), 2 * stage + g, when,
                            hearing_range=400)
        stock.medkit(draft, rng, grid.rooms[rng.choice(members)], stage)
    draft.data["budgets"] = {"max_decisions": 150 + 15 * rooms,
                             "max_game_seconds": 300 + 40 * rooms}
    return draft.finish()


def _stages(grid: Any, start: str, gates: list[tuple[str, str]]) -> list[list[str]]:
    """The rooms of each stage: those reached crossing no gate, then one gate, and so on."""
    out: list[list[str]] = []
    seen: set[str] = set()
    for n in range(len(gates) + 1):
        reach = set(grid.distances(start, frozenset(link_key(*g) for g in gates[n:])))
        out.append(sorted(reach - seen))
        seen |= reach
    return out


TEMPLATE = Template(
    name="expedition",
    kind="multi-stage expedition",
    description="Recover items from every stage of a large building sealed by keypad gates; "
                "each gate's code is on a note read a stage or two before it.",
    params={
        "stages": int_param(2, 4, 3, "stages, separated by keypad gates on the way to the "
                            "farthest room"),
        "rooms": int_param(4, 12, 10, "rooms per stage, on average"),
        "items": int_param(1, 5, 5, "items to recover per stage (the third from normal up, "
                           "the fourth and fifth at hard)"),
    },
    categories=tuple(["exploration", "puzzle"]),
    build=_build,
)
