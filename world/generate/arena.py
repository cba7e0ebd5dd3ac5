"""Match arenas (the multiplayer track): rooms on a grid, two sides far apart, a gate between.

A generated arena is a match level: its `match` block starts one side (one player, or a
team of two) in a room and the other side in the room most links away, and names as the
exit a room about as far from both. Every way between rooms is an opening; a better gun,
rounds and a vest lie in the rooms between, a medkit in each side's room. Played alone,
the level is a walk from the first side's room to the gate.
"""

from __future__ import annotations

import random
from typing import Any

from world.generate import stock
from world.generate.layout import Grid, LevelDraft, Room, room_grid
from world.generate.template import Params, Template, int_param

ROOM_NAMES = ["Hall", "Gallery", "Yard", "Cellar", "Armoury", "Chapel", "Loft", "Vault",
              "Kitchen", "Library", "Forge", "Cloister", "Barracks", "Granary", "Well room",
              "Guardroom"]
SPREAD = 1  # rooms more or fewer than the parameter asks, drawn per seed
PISTOL_ROUNDS = 24


def _gate(grid: Grid, a: str, b: str) -> str:
    # The exit room: as near the middle of the two sides as the graph allows (equal
    # links from both, then the most links from either, so neither side is next to it).
    from_a, from_b = grid.distances(a), grid.distances(b)
    options = [r for r in sorted(grid.rooms) if r not in (a, b)]
    return min(options, key=lambda r: (abs(from_a[r] - from_b[r]), -min(from_a[r], from_b[r]),
                                       r))


def _starts(room: Room, ids: list[str], facing: int) -> list[dict[str, Any]]:
    # One side's players in opposite corners of its room (the checker wants them apart).
    return [{"area": room.id, "at": room.corner(2 * k, 200), "facing_deg": facing,
             "inventory": [oid], "in_hand": oid} for k, oid in enumerate(ids)]


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    side = p["players_per_side"]
    cols, rows = rng.choice(((3, 3), (4, 3), (3, 4), (4, 4)))
    rooms = min(max(3, p["rooms"] + rng.randint(-SPREAD, SPREAD)), cols * rows)
    grid = room_grid(rng, storey="ground", prefix="room", cols=cols, rows=rows, rooms=rooms,
                     loops=0.5, first=(rng.randrange(cols), rng.randrange(rows)),
                     sizes=(700, 900, 1100))
    home = grid.rooms["room_0"]
    away = grid.rooms[stock.farthest(grid, home.id)]
    gate = _gate(grid, home.id, away.id)
    draft = LevelDraft(level_id, "The arena", "")
    draft.storey("ground", 0)
    draft.rooms(grid, ROOM_NAMES, rng)
    for exit_ in draft.data["exits"]:  # open ways: an arena is fought through, not unlocked
        exit_["kind"] = "opening"
        exit_.pop("door")
    gate_name = next(a["name"] for a in draft.data["areas"] if a["id"] == gate)
    players = 2 * side
    draft.data["brief"] = (
        f"An arena of {rooms} rooms. In a match of {players} players, each side starts in a "
        f"room of its own with a pistol each: down the other side, or be the first into "
        f"the {gate_name}. Played alone, walk to the {gate_name}.")
    draft.data["design_note"] = (f"Generated match arena: {rooms} rooms, {side} player(s) a "
                                 "side, the gate about as far from both sides' rooms.")
    draft.add("objects", id="sidearm", kind="weapon", name="pistol", weapon="pistol",
              amount=PISTOL_ROUNDS)
    guns = [f"pistol_{n}" for n in range(players)]
    for oid in guns:
        draft.add("objects", id=oid, kind="weapon", name="pistol", weapon="pistol",
                  amount=PISTOL_ROUNDS)
    stock.start_in(draft, home, home.centre(), ["sidearm"])
    draft.data["match"] = {"starts": _starts(home, guns[:side], 0)
                           + _starts(away, guns[side:], 180), "exit": gate}
    for n, room in enumerate((home, away)):
        stock.medkit(draft, rng, room, n, amount=0.4)
    # The pickups worth a detour lie in the rooms between the sides, off the gate.
    middle = [r for r in sorted(grid.rooms) if r not in (home.id, away.id, gate)] or [gate]
    loot = grid.rooms[rng.choice(middle)]
    draft.add("objects", id="smg_pickup", kind="weapon", name="submachine gun", area=loot.id,
              at=loot.spot(rng, 150), weapon="smg", amount=60)
    spare = grid.rooms[rng.choice(middle)]
    draft.add("objects", id="rounds", kind="ammo", name="pistol rounds", area=spare.id,
              at=spare.spot(rng, 150), weapon="pistol", amount=16)
    draft.add("objects", id="vest", kind="armour", name="flak vest", area=spare.id,
              at=spare.spot(rng, 150), amount=0.4)
    draft.objective("out", "reach_area", f"Walk to the {gate_name}.", area=gate)
    draft.data["difficulties"] = [{"id": "normal"}]
    draft.data["budgets"] = {"max_decisions": 80, "max_game_seconds": 150}
    return draft.finish()


TEMPLATE = Template(
    match=True,
    name="arena",
    kind="match arena",
    description="A match level: two sides start in rooms far apart; down the other side or "
                "be first into the gate room about as far from both.",
    params={
        "players_per_side": int_param(1, 2, 1, "players on each side (a duel, or two "
                                      "teams of two)"),
        "rooms": int_param(3, 12, 6, "rooms, give or take one drawn per seed (at least "
                           "three), on a grid of three or four by three or four"),
    },
    categories=tuple(["combat", "navigation"]),
    build=_build,
)
