"""The player knows only what it perceived or was briefed on, and nothing else leaks.

Each test plays the three-room level of `level_factory.knowledge_level` (start room with
an acid pool, a shut door east to a guard's room, an opening on to the key's room).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from harness.protocol import PROTOCOL_VERSION, schema_errors
from harness.text_view import render_text_view
from tests.level_factory import knowledge_level
from world.errors import UnknownIdError
from world.level.load import parse_level
from world.observe.session import WorldSession

EPISODE_ID = re.compile(r"\b[adowc]\d+\b")


def _session(briefing: dict[str, Any] | None = None) -> WorldSession:
    data = knowledge_level()
    if briefing is not None:
        data["briefing"] = briefing
    return WorldSession(parse_level(data), "easy", 0)


def _observation(view: dict[str, Any], last: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"view": view, "turn": 1, "tick": 0, "time_s": 0.0, "error": None, "warnings": [],
            "last_result": last, "budgets": {"decisions_left": 1, "game_seconds_left": 1.0,
                                             "episode_wall_s_left": 1.0,
                                             "decision_timeout_s": 1.0}}


def test_an_unseen_object_is_not_listed_and_its_id_is_refused():
    game = _session()
    view = game.view()
    key = game.ids.ep("object", "far_key")
    medkit = game.ids.ep("object", "medkit")
    listed = {o["id"] for o in view["objects"]}
    assert medkit in listed and key not in listed
    assert view["objectives"][0]["targets"] == [] and view["objectives"][0]["point"] is None
    with pytest.raises(UnknownIdError) as caught:
        game.act("go_to_object", {"object_id": key})
    # An object_id may name a door too: the known ones are the medkit and the shut door.
    assert set(caught.value.allowed) == {medkit, view["doors"][0]["id"]}
    assert key not in str(caught.value).split("known object ids:")[1]
    assert game.tick == 0  # nothing ran


def test_an_unseen_character_id_is_refused_and_lists_no_one():
    game = _session()
    game.view()
    guard = game.ids.ep("character", "guard")
    with pytest.raises(UnknownIdError) as caught:
        game.act("attack", {"character_id": guard})
    assert caught.value.allowed == ()


def test_a_walk_beyond_known_floor_ends_no_known_route_and_moves_nothing():
    game = _session()
    game.view()
    before = game.world.player.position
    result = game.act("go_to", {"x": 1500, "z": 300, "use_on_way": True})
    assert result["end_reason"] == "no_known_route"
    assert "no known route" in result["detail"].lower() and "explore" in result["detail"]
    assert result["ticks"] == 0 and result["distance_moved"] == 0
    assert game.world.player.position == before
    assert game.world.doors["mid_door"].state == "closed"  # it never walked to the door


def test_going_through_a_listed_way_out_explores():
    game = _session()
    view = game.view()
    way = next(w for w in view["area"]["ways_out"] if w["to_name"] == "North room")
    result = game.act("go_to_area", {"exit_id": way["id"]})
    assert result["end_reason"] == "arrived"
    assert "level" in game.known.visited


def test_an_open_door_shows_the_room_beyond_and_the_walk_goes_on_from_there():
    game = _session()
    view = game.view()
    game.world.damage("guard", 10.0)  # out of the way: this test is about seeing
    door = view["doors"][0]["id"]
    assert game.act("go_to_object", {"object_id": door})["end_reason"] == "arrived"
    for _ in range(30):  # the door swings open
        game.world.step()
    view = game.view()
    guard = game.ids.ep("character", "guard")
    assert "mid" in game.known.areas
    assert any(c["id"] == guard and c["seen"] == "now" for c in view["characters"])
    # The key's room is still unknown: beyond the guard's room, through its far opening.
    assert game.act("go_to", {"x": 1500, "z": 300})["end_reason"] == "no_known_route"
    assert game.act("go_to", {"x": 1000, "z": 300})["end_reason"] == "arrived"


@pytest.mark.parametrize(("briefing", "far_known", "key_known", "end_reason"), [
    ({"floor_plan": True}, True, False, "door_closed"),
    ({"areas": ["mid", "far"]}, True, False, "door_closed"),
    # The key's place is known, but not the guard's room between: no known route yet.
    ({"objects": ["far_key"]}, True, True, "no_known_route"),
    ({}, False, False, "no_known_route"),
])
def test_the_briefing_reveals_what_it_names(briefing, far_known, key_known, end_reason):
    game = _session(briefing)
    view = game.view()
    key = game.ids.ep("object", "far_key")
    assert ("far" in game.known.areas) is far_known
    assert (key in {o["id"] for o in view["objects"]}) is key_known
    assert (view["objectives"][0]["targets"] == [key]) is key_known
    assert (view["objectives"][0]["point"] is not None) is key_known
    # Over known floor the shut door is what stops the walk; otherwise the knowledge.
    assert game.act("go_to", {"x": 1500, "z": 300})["end_reason"] == end_reason


def test_a_floor_plan_reveals_doors_but_no_secret_room():
    data = knowledge_level()
    data["areas"][3]["secret"] = True
    data["exits"][2]["hidden"] = True
    data["briefing"] = {"floor_plan": True}
    game = WorldSession(parse_level(data), "easy", 0)
    game.view()
    assert "mid_door" in game.known.doors
    assert {"s", "mid", "far"} <= game.known.areas and "level" not in game.known.areas


def test_a_character_seen_going_down_stays_down_once_out_of_sight():
    game = _session({"floor_plan": True})
    world = game.world
    world.teleport(world.player.id, 700.0, 300.0)  # in the guard's room
    world.damage("guard", 10.0)
    assert not world.characters["guard"].alive
    guard = game.ids.ep("character", "guard")
    row = next(c for c in game.view()["characters"] if c["id"] == guard)
    assert row["down"] and row["seen"] == "now"
    world.teleport(world.player.id, 300.0, -300.0)  # in the north room, out of sight
    world.step()
    row = next(c for c in game.view()["characters"] if c["id"] == guard)
    assert row["seen"] == "before" and row["down"] and row["health"] == 0.0
    assert row["position"][0] == pytest.approx(900.0, abs=1.0)


def test_a_hazard_in_view_is_listed_with_kind_extent_and_effect_in_both_views():
    game = _session()
    view = game.view()
    acid = next(h for h in view["hazards"] if h["kind"] == "acid")
    assert acid["extent"] == [[300.0, 400.0], [500.0, 400.0], [500.0, 560.0], [300.0, 560.0]]
    assert "10% health a second" in acid["effect"]
    text = render_text_view(_observation(view))
    assert "HAZARD acid" in text and "(300, 400)" in text and "10% health a second" in text


def test_repeated_damage_is_one_line_with_a_total():
    game = _session()
    game.view()
    game.world.teleport(game.world.player.id, 400.0, 480.0)  # in the acid
    result = game.act("wait", {"seconds": 3})
    hurt = [c for c in result["changes"] if "health" in c]
    assert len(hurt) == 1 and "in all" in hurt[0]
    assert not any("0.00" in c for c in result["changes"])


def test_the_text_view_never_changes_a_word_that_is_not_an_id():
    # Area ids "s" and "level" are ordinary words: a sentence rewritten by id would read
    # "Waited 2.5 a3." or "The a1's stage".
    game = _session()
    result = game.act("wait", {"seconds": 2.5})
    assert result["detail"] == "Waited 2.5 s."
    text = render_text_view(_observation(game.view(), {**result}))
    assert "Waited 2.5 s." in text
    for line in text.splitlines():
        for word in re.findall(r"[A-Za-z]+", EPISODE_ID.sub("", line)):
            assert word not in {"a1", "a2", "a3", "a4"}


def test_a_failure_names_the_objective_by_number_not_by_level_id():
    data = knowledge_level()
    data["objectives"].append({"id": "secret_quiet_rule", "kind": "protect",
                               "characters": ["guard"], "text": "Spare the guard."})
    game = WorldSession(parse_level(data), "easy", 0)
    game.world.damage("guard", 10.0)
    game.world.step()
    status = game.status()
    assert status.failure is not None and "secret_quiet_rule" not in status.failure
    assert "objective 2: Spare the guard." in status.failure


def test_the_view_says_which_objectives_are_standing_conditions():
    data = knowledge_level()
    data["objectives"].append({"id": "quiet", "kind": "protect", "characters": ["guard"],
                               "text": "Spare the guard."})
    rows = WorldSession(parse_level(data), "easy", 0).view()["objectives"]
    assert [(r["kind"], r["standing"]) for r in rows] == [
        (data["objectives"][0]["kind"], False), ("protect", True)]


def test_an_observation_from_before_standing_was_added_is_still_valid():
    # Records made before the view said `standing` must still replay.
    # (This test's observation lacks a few budget fields: only the view is at stake.)
    message = {"type": "observation", "protocol_version": PROTOCOL_VERSION,
               **_observation(_session().view())}
    before = schema_errors("observation", message)
    assert not any(".view" in e for e in before)
    for row in message["view"]["objectives"]:
        del row["standing"]
    assert schema_errors("observation", message) == before


def test_a_text_view_on_every_shipped_level_stays_short(shipped_level, shipped_level_id,
                                                        session):
    hardest = shipped_level(shipped_level_id).difficulties[-1].id
    game = session(shipped_level_id, hardest)
    game.view()
    result = game.act("wait", {"seconds": 8})
    text = render_text_view(_observation(game.view(), result))
    assert len(text) < 6000, (shipped_level_id, len(text))


def test_a_door_in_the_way_is_in_the_last_result_as_data_with_episode_ids():
    from harness.turns import _PUBLIC_RESULT_KEYS

    game = _session({"floor_plan": True})
    game.view()
    result = game.act("go_to", {"x": 1500, "z": 300})
    assert result["end_reason"] == "door_closed" and "door" in _PUBLIC_RESULT_KEYS
    assert result["door"] == {"door": game.ids.ep("door", "mid_door"), "state": "closed",
                              "key": None, "key_area": None, "panel": None}


def test_an_objective_says_to_look_for_its_target_until_it_is_located():
    game = _session()
    view = game.view()
    row = view["objectives"][0]
    assert row["located"] is False and row["area"] is None and row["distance"] is None
    assert "[not located yet: look for it]" in render_text_view(_observation(view))
    briefed = _session({"objects": ["far_key"]}).view()["objectives"][0]
    assert briefed["located"] is True and briefed["point"] is not None


def test_a_shot_heard_through_a_wall_makes_its_shooter_known_roughly():
    game = _session()
    game.view()
    guard = game.ids.ep("character", "guard")
    # The guard stands behind the shut door, out of sight; an unsilenced shot is heard.
    game.world.emit("shot_fired", "guard", game.world.player.id, 0.0, "pistol")
    row = next(c for c in game.view()["characters"] if c["id"] == guard)
    assert row["seen"] == "heard" and row["area"] is None and row["alertness"] == "unknown"
    assert row["position"][0] % 200 == 0 and row["position"][2] % 200 == 0
    text = render_text_view(_observation(game.view()))
    assert "place approximate" in text
    # A silenced shot is not heard.
    quiet = _session()
    quiet.view()
    quiet.world.emit("shot_fired", "guard", quiet.world.player.id, 1.0, "pistol")
    assert quiet.view()["characters"] == []


def test_a_target_taken_unseen_is_walked_to_and_found_gone_where_it_lay():
    # The briefing shows the key in the far room; the guard takes it (and goes down)
    # behind a shut door. The player's last perceived state decides: the walk runs to
    # where the key lay, not after its carrier, and ends as target_gone on sight of the
    # empty spot; only then is a new errand to it refused at once.
    game = _session({"floor_plan": True, "objects": ["far_key"]})
    game.view()
    world = game.world
    assert world.items.take(world.characters["guard"], world.objects["far_key"], False)
    world.damage("guard", 10.0)
    key = game.ids.ep("object", "far_key")
    row = next(o for o in game.view()["objects"] if o["id"] == key)
    assert row["position"][0] == pytest.approx(1700.0)  # still there, as far as it knows
    result = game.act("go_to_object", {"object_id": key})
    assert result["end_reason"] == "target_gone", result["detail"]
    assert key not in {o["id"] for o in game.view()["objects"]}
    assert "taken" in result["detail"] and result["ticks"] > 0
    assert world.player.x > 1000.0  # past the guard's body (at 900), in sight of the spot
    again = game.act("go_to_object", {"object_id": key})
    assert again["end_reason"] == "refused" and again["ticks"] == 0
    assert "taken" in again["detail"]


def test_a_target_gone_unseen_is_not_refused_before_the_walk():
    game = _session({"floor_plan": True, "objects": ["far_key"]})
    game.view()
    world = game.world
    world.items.take(world.characters["guard"], world.objects["far_key"], False)
    world.damage("guard", 10.0)
    result = game.act("go_to_object", {"object_id": game.ids.ep("object", "far_key"),
                                       "time_limit_s": 1.0})
    # A second of walking from the start room cannot reach a spot with a view of it.
    assert result["end_reason"] == "gave_up" and result["distance_moved"] > 0
    assert "taken" not in result["detail"]


def test_a_pickup_known_taken_is_worked_on_again_once_back_in_place():
    data = knowledge_level()
    data["objects"][0]["respawn_s"] = 2.0
    game = WorldSession(parse_level(data), "easy", 0)
    game.view()
    world = game.world
    world.damage(world.player.id, 0.5)
    medkit = game.ids.ep("object", "medkit")
    taken = game.act("go_to_object", {"object_id": medkit})
    assert taken["end_reason"] == "arrived" and not world.objects["medkit"].present
    refused = game.act("go_to_object", {"object_id": medkit})
    assert refused["end_reason"] == "refused" and "taken" in refused["detail"]
    game.act("wait", {"seconds": 3.0})
    assert world.objects["medkit"].present  # respawned, in the player's room
    again = game.act("go_to_object", {"object_id": medkit})
    assert again["end_reason"] == "arrived", again["detail"]
