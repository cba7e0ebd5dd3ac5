"""The view shows where a seen character and a camera look, so a player can plan around cones."""

import math

from harness.episode import text_view
from tests.shared import shipped
from world.observe.ids import IdMap
from world.observe.session import build_world
from world.observe.view import Knowledge, build_view


def _view_beside(level_id: str, difficulty: str, x: float, z: float):
    level = shipped(level_id)
    world, _ = build_world(level, difficulty, 0)
    world.player.x, world.player.z = x, z
    ids = IdMap(level, 0)
    return level, world, ids, build_view(world, ids, Knowledge(level), None)


def test_a_seen_hostile_shows_its_heading_angle_and_reach():
    level = shipped("facility")
    guard = level.character("gate_guard")
    level, world, ids, view = _view_beside("facility", "hard", guard.at[0] - 150, guard.at[1])
    actor = world.characters["gate_guard"]
    row = next(c for c in view["characters"] if c["id"] == ids.ep("character", "gate_guard"))
    assert row["seen"] == "now"
    assert row["facing_deg"] == round(math.degrees(actor.facing) % 360, 1)
    assert row["view_angle_deg"] == actor.template.view_angle_deg
    assert row["view_range"] == round(actor.template.view_range * world.difficulty.enemy_sight, 1)


def test_a_camera_shows_its_cone_and_other_objects_none():
    level = shipped("facility")
    cam = level.object("cam_ground_hall")
    _, world, ids, view = _view_beside("facility", "easy", cam.at[0] - 100, cam.at[1])
    rows = {o["id"]: o for o in view["objects"]}
    row = rows[ids.ep("object", "cam_ground_hall")]
    assert row["facing_deg"] == round(cam.facing_deg % 360, 1)
    assert row["view_angle_deg"] == cam.view_angle_deg
    assert row["view_range"] == round(cam.view_range * world.difficulty.enemy_sight, 1)
    assert all(o["facing_deg"] is None for o in rows.values() if o["kind"] != "camera")


def test_the_text_view_says_where_a_camera_looks():
    level = shipped("facility")
    cam = level.object("cam_ground_hall")
    _, _, _, view = _view_beside("facility", "easy", cam.at[0] - 100, cam.at[1])
    # The objects section alone: it reads only the structured view.
    text = "\n".join(text_view._objects({"view": view}))
    assert "camera 'security camera'" in text and "facing 0 deg (views 60 deg" in text
