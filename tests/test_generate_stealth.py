"""The stealth template asks for play (37): the copy cannot be made from the start room.

A version 3 level was won in two decisions (use the carried copier on the briefed file
server, walk back). Now the copier lies in another room and neither it nor the server is
briefed, a camera watches the server with its room's doorways out of view, and guards
keep out of the copier's room.
"""

from __future__ import annotations

import math

import pytest

from world.errors import InvalidRequestError, UnknownIdError
from world.generate.registry import GENERATOR_VERSION, generate
from world.level.load import parse_level
from world.observe.session import WorldSession

SEEDS = range(6)


def test_the_two_decision_plan_fails_on_a_generated_stealth_level() -> None:
    made = generate("stealth@0")
    game = WorldSession(parse_level(made.data), "normal", 0)
    view = game.view()
    assert [c for c in view["player"]["carried"] if c["kind"] == "gadget"] == []
    assert not any(o["name"] == "file server" for o in view["objects"])
    # The old first decision, with every id the player could name or guess: refused.
    named = [o["id"] for o in view["objects"]] + [f"o{n}" for n in range(1, 8)]
    for item in named:
        for thing in named:
            with pytest.raises((UnknownIdError, InvalidRequestError)):
                game.act("use_item_on", {"item_id": item, "object_id": thing})
    # Even the world's own ids do not help: the copier is not carried.
    with pytest.raises(InvalidRequestError):
        game.world.use_item_on(game.world.player.id, "copier", "computer")
    assert game.status().objectives[0]["status"] == "todo"


def _doorways(data: dict, area: str) -> list[tuple[float, float]]:
    return [((e["segment"][0][0] + e["segment"][1][0]) / 2,
             (e["segment"][0][1] + e["segment"][1][1]) / 2)
            for e in data["exits"] if area in e["areas"]]


def _in_cone(camera: dict, point: tuple[float, float]) -> bool:
    dx, dz = point[0] - camera["at"][0], point[1] - camera["at"][1]
    off = (math.degrees(math.atan2(dz, dx)) - camera["facing_deg"] + 180.0) % 360.0 - 180.0
    return abs(off) <= camera["view_angle_deg"] / 2 and math.hypot(dx, dz) <= camera["view_range"]


@pytest.mark.parametrize("seed", SEEDS)
def test_copier_and_server_are_found_and_the_server_is_watched(seed: int) -> None:
    data = generate(f"stealth@{seed}").data
    objects = {o["id"]: o for o in data["objects"]}
    start = data["start"]["area"]
    assert data["start"]["inventory"] == ["sidearm"]
    assert "objects" not in data["briefing"]
    assert objects["copier"]["area"] not in (start, objects["computer"]["area"])
    posts = {c["area"] for c in data["characters"] if c.get("behaviour") != "patrol"}
    assert objects["copier"]["area"] not in posts
    camera = objects.get("camera_server")
    if camera is not None:  # a server spot no camera can watch that way is rare
        assert camera["area"] == objects["computer"]["area"]
        assert _in_cone(camera, tuple(objects["computer"]["at"]))
        assert not any(_in_cone(camera, d) for d in _doorways(data, camera["area"]))


def test_the_generator_version_moved_on_so_old_ids_are_not_reused() -> None:
    assert int(GENERATOR_VERSION) >= 4
