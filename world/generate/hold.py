"""Hold a position: stay alive in the post while waves come from the rooms around."""

from __future__ import annotations

import random
from typing import Any

from world.generate import stock
from world.generate.layout import LevelDraft, room_grid
from world.generate.template import Params, Template, int_param

POST_NAMES = ["Gatehouse", "Courtyard", "Barn", "Chapel", "Mill", "Orchard", "Stable",
              "Granary", "Forge", "Well house"]
RUSHER = {"kind": "soldier", "side": "hostile", "weapon": "fists", "health": 0.6,
          "speed": 220, "view_angle_deg": 360, "view_range": 3000, "accuracy": 0.7}
GUNNER = {"kind": "soldier", "side": "hostile", "weapon": "pistol", "health": 0.6,
          "speed": 180, "view_angle_deg": 360, "view_range": 3000, "accuracy": 0.15}
SPREAD = 2  # rooms more or fewer than the parameter asks, drawn per seed


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    waves = p["waves"]
    # The layout's shape is the seed's: a three or four by three or four grid, the post
    # in any of its cells, up to two rooms more or fewer than asked, and openings that
    # sometimes close a loop around a room.
    cols, rows = rng.choice(((3, 3), (4, 3), (3, 4), (4, 4)))
    rooms = min(max(2, p["rooms"] + rng.randint(-SPREAD, SPREAD)), cols * rows)
    grid = room_grid(rng, storey="ground", prefix="room", cols=cols, rows=rows, rooms=rooms,
                     loops=0.35, first=(rng.randrange(cols), rng.randrange(rows)),
                     sizes=(700, 900, 1100))
    post = grid.rooms["room_0"]
    seconds = 10 + 12 * waves
    draft = LevelDraft(level_id, "Hold the post",
                       f"Hold out for {seconds} seconds. Attackers will come at you from the "
                       "rooms around; shoot out the signal beacon that calls them.")
    draft.data["design_note"] = (f"Generated hold-out: {rooms} rooms around the post, "
                                 f"{waves} waves of rushers; gunners join from normal up.")
    draft.storey("ground", 0)
    draft.rooms(grid, POST_NAMES, rng)
    for exit_ in draft.data["exits"]:  # open ways in: the attackers must reach the post
        exit_["kind"] = "opening"
        exit_.pop("door")
    draft.add("objects", id="sidearm", kind="weapon", name="submachine gun", weapon="smg",
              amount=200 + 60 * waves)
    stock.start_in(draft, post, post.centre(), ["sidearm"], armour=0.4)
    for n in range(2):
        stock.medkit(draft, rng, post, n)
    # Holding on is not enough: the attackers' signal beacon stands in a room around the
    # post and must be shot out, which a player only standing its ground never does.
    beacon_room = grid.rooms[rng.choice([r for r in sorted(grid.rooms) if r != post.id]
                                        or [post.id])]
    draft.add("objects", id="beacon", kind="breakable", name="signal beacon",
              area=beacon_room.id, at=beacon_room.spot(rng, 150), health=0.3)
    outer = [r for r in sorted(grid.rooms) if r != post.id]
    gates = []
    for n, room_id in enumerate(outer):
        room = grid.rooms[room_id]
        gate = f"gate_{n}"
        draft.add("objects", id=gate, kind="spawn_point", area=room_id,
                  at=room.corner(rng.randrange(4), 150))
        gates.append(gate)
    for n in range(waves):
        pick = rng.sample(gates, min(len(gates), 2 + n % 3))
        draft.add("waves", id=f"wave_{n}", at_s=1 + 12 * n, spawn_points=pick,
                  count=3 + n // 2, interval_s=0.6, character=dict(RUSHER))
        if n % 2 == 1:
            draft.add("waves", id=f"gunners_{n}", at_s=6 + 12 * n,
                      spawn_points=rng.sample(gates, 1), count=1 + n // 4, interval_s=0,
                      character=dict(GUNNER), min_difficulty="normal" if n > 1 else "hard")
    draft.data["briefing"] = {"floor_plan": True}
    draft.objective("survive", "survive", f"Stay alive for {seconds} seconds.",
                    seconds=seconds, weight=2)
    draft.objective("beacon_out", "destroy_object", "Shoot out the attackers' signal beacon.",
                    object="beacon")
    draft.data["budgets"] = {"max_decisions": 200, "max_game_seconds": seconds + 30}
    return draft.finish()


TEMPLATE = Template(
    name="hold",
    kind="hold a position",
    description="Survive waves of attackers coming from the rooms around the post until "
                "the time is up, and shoot out their signal beacon.",
    params={
        "waves": int_param(1, 6, 3, "waves of attackers (the time to hold grows with them)"),
        "rooms": int_param(2, 9, 5, "rooms, the post included, give or take two drawn per "
                           "seed (at least two), on a grid of three or four by three or four"),
    },
    categories=tuple(["defence", "combat"]),
    build=_build,
)
