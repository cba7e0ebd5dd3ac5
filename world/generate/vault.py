"""Keypad vault: a run of keypad doors on the way to the vault, each code in another room.

Like the key-and-door maze, but every lock is a keypad and its key is a note: each note
lies in a room reachable before its door (off the way where there is one), often far
from the keypad it is for, among notes holding numbers that open nothing. Take what the
vault holds and bring it back to the start.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from world.generate import codes, stock
from world.generate.layout import LevelDraft, link_key
from world.generate.template import Params, Template, int_param, number_param

PRIZES = ("bond certificate", "diamond case", "master ledger", "prototype drive", "gold ingot")


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    rooms = p["rooms"]
    grid = stock.square_grid(rng, rooms, p["loops"])
    start = "room_0"
    vault = stock.farthest(grid, start)
    # The vault has one way in: a loop into it would go round its keypad.
    tree = grid.links[:len(grid.rooms) - 1]
    grid.links = tree + [e for e in grid.links[len(tree):] if vault not in e]
    prize = rng.choice(PRIZES)
    draft = LevelDraft(level_id, "The vault",
                       f"The {prize} lies in the vault at the far end of this building. "
                       "Its doors are worked by keypads; the staff keep the codes on notes "
                       "left about the rooms. Take the prize and bring it back.")
    draft.data["design_note"] = (f"Generated keypad vault: {rooms} rooms, {p['locks']} keypad "
                                 "doors on the way to the vault, each code on a note in a "
                                 "room reached before its door; decoy notes hold numbers "
                                 "that open nothing. Guards from normal up.")
    draft.storey("ground", 0)
    draft.rooms(grid, stock.ROOM_NAMES, rng)
    weapon = stock.give_weapon(draft, "pistol", "pistol", 60)
    stock.start_in(draft, grid.rooms[start], grid.rooms[start].centre(), [weapon],
                   facing=rng.choice([0, 90, 180, 270]))
    drawn = codes.Codes(rng)
    edges = list(itertools.pairwise(grid.path(start, vault)))
    # The vault's own door is always one of the locks; the others fall on the way.
    count = min(p["locks"], len(edges))
    locked = sorted({len(edges) - 1, *rng.sample(range(len(edges) - 1), count - 1)})
    names = codes.panel_names(rng, len(locked))
    path = grid.path(start, vault)
    for n, index in enumerate(locked):
        blocked = frozenset(link_key(*edges[i]) for i in locked[n:])
        reach = grid.distances(start, blocked)
        off_path = [r for r in sorted(reach) if r not in path]
        # The note lies deep among the rooms reached, off the way where it can.
        far = sorted(off_path or sorted(reach), key=lambda r: (-reach[r], r))
        home = grid.rooms[rng.choice(far[:2])]
        code = drawn.draw()
        codes.keypad_door(draft, rng, grid.rooms[edges[index][0]],
                          grid.rooms[edges[index][1]], f"keypad_{n}", names[n], code,
                          attempts=3)
        codes.add_note(draft, rng, home, f"note_{n}", codes.note_text(
            rng, [codes.code_clause(names[n], code, rng), *drawn.decoys(1)]))
    for n, room in enumerate(rng.sample(sorted(grid.rooms), min(p["decoys"], rooms))):
        codes.add_note(draft, rng, grid.rooms[room], f"note_{len(locked) + n}",
                       codes.note_text(rng, drawn.decoys(2)))
    draft.add("objects", id="prize", kind="key", name=prize, area=vault,
              at=grid.rooms[vault].spot(rng))
    posts = stock.far_rooms(grid, start, 2)
    for n, room in enumerate(rng.sample(posts, min(len(posts), rooms // 4 + 1))):
        stock.guard(draft, rng, grid, room, n, "normal" if n % 2 == 0 else "hard",
                    accuracy=0.4)
    for n, room in enumerate(rng.sample(sorted(grid.rooms), max(1, rooms // 5))):
        stock.medkit(draft, rng, grid.rooms[room], n)
    stock.bring_back(draft, prize, "vault", start, 100 + 20 * rooms, 120 + 40 * rooms)
    return draft.finish()


TEMPLATE = Template(
    name="vault",
    kind="keypad vault",
    description="Find the notes holding the codes of the keypad doors on the way to the "
                "vault, open them, take what the vault holds and bring it back.",
    params={
        "rooms": int_param(4, 24, 10, "rooms in the building"),
        "locks": int_param(1, 3, 2, "keypad doors on the way to the vault (the vault's own "
                           "door is always one), each with its code on a note"),
        "decoys": int_param(0, 6, 2, "notes holding only numbers that open nothing"),
        "loops": number_param(0, 0.5, 0.1, "chance that two neighbouring rooms are also "
                              "linked, making cycles"),
    },
    categories=tuple(["puzzle", "exploration"]),
    build=_build,
)
