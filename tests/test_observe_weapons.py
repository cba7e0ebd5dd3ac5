"""The observation tells guns from bare hands and which gun a box of rounds feeds."""

from harness.episode.text_view import render_text_view
from world.characters import character_views
from world.observe.ids import IdMap
from world.observe.view import Knowledge, build_view


def _characters_system(world):
    return world.minds


def test_bare_hands_are_not_armed(built_world):
    world, _ = built_world("acid_tanks", "hard")
    views = character_views(_characters_system(world))
    assert not views["scavenger_a"].armed
    assert views["scavenger_a"].weapon is None


def test_a_gunman_is_armed_with_his_gun(built_world):
    world, _ = built_world("outpost", "normal")
    level = world.level
    views = character_views(_characters_system(world))
    gunmen = [c for c in level.characters if c.weapon not in (None, "fists")
              and c.id in views]
    assert gunmen
    assert all(views[c.id].armed and views[c.id].weapon == c.weapon for c in gunmen)


def test_ammunition_names_the_gun_it_feeds(built_world):
    world, objectives = built_world("outpost", "normal")
    level = world.level
    memory = Knowledge(level)
    memory.objects.update(world.objects)  # as if every object had been seen
    view = build_view(world, IdMap(level, 0), memory, objectives.report(world))
    boxes = [o for o in view["objects"] if o["kind"] == "ammo"]
    assert boxes and all(o["weapon"] for o in boxes)
    assert all(o["weapon"] is None for o in view["objects"] if o["kind"] not in ("ammo", "weapon"))
    text = render_text_view({"view": view, "turn": 0, "tick": 0, "time_s": 0.0,
                             "last_result": None, "error": None, "warnings": [],
                             "budgets": {"decisions_left": 1, "game_seconds_left": 1.0,
                                         "episode_wall_s_left": 1.0,
                                         "decision_timeout_s": 1.0}})
    assert f"(for {boxes[0]['weapon']})" in text
