"""Stock pieces the templates share: room names, the player's kit, guards, medkits."""

from __future__ import annotations

import math
import random
from typing import Any

from world.generate.layout import Grid, LevelDraft, Room, room_grid

ROOM_NAMES = ["Storeroom", "Office", "Workshop", "Archive", "Locker room", "Pump room",
              "Canteen", "Boiler room", "Records room", "Washroom", "Radio room",
              "Laundry", "Generator room", "Chart room", "Tool crib", "Pantry",
              "Drying room", "Switch room", "Filing room", "Mess hall"]


def give_weapon(draft: LevelDraft, weapon: str, name: str, rounds: int) -> str:
    """Put a weapon in the player's start inventory and hand; returns its object id."""
    draft.add("objects", id="sidearm", kind="weapon", name=name, weapon=weapon, amount=rounds)
    return "sidearm"


def start_in(draft: LevelDraft, room: Room, at: list[int], inventory: list[str],
             facing: int = 0, **extra: Any) -> None:
    """Set the player's start: place, facing and kit (the first item in hand)."""
    draft.data["start"] = {"area": room.id, "at": at, "facing_deg": facing,
                           "inventory": inventory, "in_hand": inventory[0], **extra}


def guard(draft: LevelDraft, rng: random.Random, grid: Grid, room_id: str, n: int,
          min_difficulty: str | None, *, weapon: str = "pistol", **extra: Any) -> None:
    """A hostile guard at a drawn spot in a room, facing a drawn direction."""
    room = grid.rooms[room_id]
    entry: dict[str, Any] = {"id": f"guard_{n}", "kind": "guard", "side": "hostile",
                             "weapon": weapon, "area": room_id, "at": room.spot(rng, 150),
                             "facing_deg": rng.choice([0, 90, 180, 270]), **extra}
    if min_difficulty:
        entry["min_difficulty"] = min_difficulty
    draft.add("characters", **entry)


def patrol(draft: LevelDraft, rng: random.Random, grid: Grid, a: str, b: str, n: int,
           min_difficulty: str | None, weapon: str = "pistol", **extra: Any) -> None:
    """A hostile walking between a spot in room a and one in room b, in a loop."""
    here, there = grid.rooms[a].spot(rng, 150), grid.rooms[b].spot(rng, 150)
    entry: dict[str, Any] = {"id": f"patrol_{n}", "kind": "guard", "side": "hostile",
                             "weapon": weapon, "area": a, "at": here, "behaviour": "patrol",
                             "route": [{"area": a, "at": here}, {"area": b, "at": there}],
                             **extra}
    if min_difficulty:
        entry["min_difficulty"] = min_difficulty
    draft.add("characters", **entry)


def medkit(draft: LevelDraft, rng: random.Random, room: Room, n: int, amount: float = 0.5) -> None:
    """A medkit at a drawn spot in a room."""
    draft.add("objects", id=f"medkit_{n}", kind="medkit", name="medkit", area=room.id,
              at=room.spot(rng), amount=amount)


def far_rooms(grid: Grid, start: str, fewest_links: int) -> list[str]:
    """Rooms at least `fewest_links` links from start, in a stable order."""
    distance = grid.distances(start)
    return sorted(r for r, d in distance.items() if d >= fewest_links)


def farthest(grid: Grid, start: str) -> str:
    """The room most links from start (the lowest id among equals)."""
    distance = grid.distances(start)
    return min(distance, key=lambda r: (-distance[r], r))


def square_grid(rng: random.Random, rooms: int, loops: float) -> Grid:
    """A grid of about half again as many cells as rooms, near square (`room_N` rooms)."""
    cells = math.ceil(rooms * 1.5)
    side = math.ceil(math.sqrt(cells))
    cols = rng.randint(max(2, side - 1), side + 1)
    return room_grid(rng, storey="ground", prefix="room", cols=cols,
                     rows=math.ceil(cells / cols), rooms=rooms, loops=loops)


def bring_back(draft: LevelDraft, prize: str, place: str, start: str,
               decisions: int, seconds: int) -> None:
    """Take the prize (object `prize`) from the place, then return to start; set budgets."""
    draft.objective("take_prize", "collect_item", f"Take the {prize} from the {place}.",
                    object="prize", weight=2)
    draft.objective("come_back", "reach_area", "Bring it back to where you started.",
                    area=start, after=["take_prize"])
    draft.data["budgets"] = {"max_decisions": decisions, "max_game_seconds": seconds}
