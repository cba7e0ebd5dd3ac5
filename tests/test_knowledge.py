"""The player knows only what it perceived or was briefed on, and nothing else leaks.

Each test plays the three-room level of `level_factory.knowledge_level` (start room with
an acid pool, a shut door east to a guard's room, an opening on to the key's room).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from harness.core.protocol import PROTOCOL_VERSION, schema_errors
from harness.episode.text_view import render_text_view
from tests.knowledge_kit import armed, guard_seen_then_left_behind, observation_of
from tests.level_factory import knowledge_level
from world.errors import InvalidRequestError, UnknownIdError
from world.level.load import parse_level
from world.observe.session import WorldSession

EPISODE_ID = re.compile(r"\b[adowc]\d+\b")


def _session(briefing: dict[str, Any] | None = None) -> WorldSession:
    data = knowledge_level()
    if briefing is not None:
        data["briefing"] = briefing
    return WorldSession(parse_level(data), "easy", 0)


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
    # The key's room is still unknown: beyond the guard's room, through its far opening
    # (deep in it, beyond the reach that moves a target onto known floor).
    assert game.act("go_to", {"x": 1700, "z": 300})["end_reason"] == "no_known_route"
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
    text = render_text_view(observation_of(view))
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
    text = render_text_view(observation_of(game.view(), {**result}))
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
               **observation_of(_session().view())}
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
    text = render_text_view(observation_of(game.view(), result))
    assert len(text) < 6000, (shipped_level_id, len(text))


def test_a_door_in_the_way_is_in_the_last_result_as_data_with_episode_ids():
    from harness.episode.turns import _PUBLIC_RESULT_KEYS

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
    assert "[not located yet: look for it]" in render_text_view(observation_of(view))
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
    text = render_text_view(observation_of(game.view()))
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


def _hurt_player_beside_a_respawning_medkit() -> tuple[WorldSession, Any, str]:
    # The medkit comes back two seconds after it is taken; a hurt player will take it.
    data = knowledge_level()
    data["objects"][0]["respawn_s"] = 2.0
    game = WorldSession(parse_level(data), "easy", 0)
    game.view()
    world = game.world
    world.damage(world.player.id, 0.5)
    return game, world, game.ids.ep("object", "medkit")


def test_a_pickup_known_taken_is_worked_on_again_once_back_in_place():
    game, world, medkit = _hurt_player_beside_a_respawning_medkit()
    taken = game.act("go_to_object", {"object_id": medkit})
    assert taken["end_reason"] == "arrived" and not world.objects["medkit"].present
    refused = game.act("go_to_object", {"object_id": medkit})
    assert refused["end_reason"] == "refused" and "taken" in refused["detail"]
    game.act("wait", {"seconds": 3.0})
    assert world.objects["medkit"].present  # respawned, in the player's room
    again = game.act("go_to_object", {"object_id": medkit})
    assert again["end_reason"] == "arrived", again["detail"]


def test_shooting_a_thing_broken_unseen_answers_from_what_the_player_saw():
    # A crate in the far room is briefed; someone breaks it behind the shut door. The
    # refusal speaks of the line of fire from here, never of the crate being broken;
    # once the player sees the spot, it is "already broken".
    data = armed(knowledge_level())
    data["objects"].append({"id": "crate", "kind": "breakable", "area": "far",
                            "at": [1700, 500], "health": 0.5})
    data["briefing"] = {"floor_plan": True, "objects": ["crate"]}
    game = WorldSession(parse_level(data), "easy", 0)
    game.view()
    world = game.world
    world.items.damage(world.objects["crate"], 1.0, "guard")
    assert world.objects["crate"].broken
    crate = game.ids.ep("object", "crate")
    result = game.act("shoot_object", {"object_id": crate})
    assert result["end_reason"] == "refused" and "line of fire" in result["detail"]
    assert "broken" not in result["detail"]
    world.damage("guard", 10.0)
    world.teleport(world.player.id, 1000.0, 300.0)  # in the middle room, the crate's spot in sight
    game.view()
    seen = game.act("shoot_object", {"object_id": crate})
    assert seen["end_reason"] == "arrived" and "already broken" in seen["detail"]


def _locked_by_far_key() -> WorldSession:
    data = knowledge_level()
    data["exits"][0]["door"] = {"initial": "locked", "key": "far_key"}
    data["briefing"] = {"floor_plan": True, "objects": ["far_key"]}
    return WorldSession(parse_level(data), "easy", 0)


def test_a_locked_door_says_where_the_key_lies_as_the_player_last_saw_it():
    game = _locked_by_far_key()
    game.view()
    world = game.world
    # The guard takes the key unseen: as far as the player knows it still lies in "far".
    assert world.items.take(world.characters["guard"], world.objects["far_key"], False)
    result = game.act("go_to", {"x": 900, "z": 300})
    far, key = game.ids.ep("area", "far"), game.ids.ep("object", "far_key")
    assert result["end_reason"] == "door_closed"
    assert result["detail"].endswith(f"needs the key {key}, which lies in {far}.")
    assert result["door"]["key"] == key and result["door"]["key_area"] == far
    # Once the player has seen the empty spot, it no longer says where the key is.
    world.teleport(world.player.id, 1500.0, 300.0)
    game.view()
    world.teleport(world.player.id, 150.0, 300.0)
    view = game.view()
    assert view["doors"][0]["key"] == key and view["doors"][0]["key_area"] is None
    again = game.act("go_to", {"x": 900, "z": 300})
    assert again["end_reason"] == "door_closed" and "taken" in again["detail"]
    assert far not in again["detail"] and again["door"]["key_area"] is None


def test_a_pickup_back_in_place_unseen_is_not_listed_until_seen_again():
    game, world, medkit = _hurt_player_beside_a_respawning_medkit()
    assert game.act("go_to_object", {"object_id": medkit})["end_reason"] == "arrived"
    # Into the north room's corner, out of sight of the medkit's spot.
    world.teleport(world.player.id, 100.0, -500.0)
    world.step()
    game.view()
    game.act("wait", {"seconds": 3.0})
    assert world.objects["medkit"].present  # back in place, unseen
    assert medkit not in {o["id"] for o in game.view()["objects"]}
    refused = game.act("go_to_object", {"object_id": medkit})
    assert refused["end_reason"] == "refused" and "taken" in refused["detail"]
    world.teleport(world.player.id, 150.0, 300.0)
    assert medkit in {o["id"] for o in game.view()["objects"]}


def _corridor_level() -> dict[str, Any]:
    # A long hall east; halfway along, an opening north into a side room whose key lies
    # deep inside: in sight only while passing the opening, not from either end.
    return {
        "format_version": 1, "id": "passing", "title": "A hall with a side room",
        "brief": "Find the key.", "difficulties": [{"id": "easy"}],
        "budgets": {"max_decisions": 20, "max_game_seconds": 120},
        "navmesh": {"agent_radius": 20},
        "storeys": [{"id": "ground", "y": 0}],
        "areas": [
            {"id": "hall", "name": "Hall", "storey": "ground",
             "polygon": [[0, 0], [2000, 0], [2000, 200], [0, 200]]},
            {"id": "side", "name": "Side room", "storey": "ground",
             "polygon": [[800, -600], [1200, -600], [1200, 0], [800, 0]]},
        ],
        "exits": [{"id": "side_gap", "kind": "opening", "areas": ["hall", "side"],
                   "segment": [[950, 0], [1050, 0]]}],
        "objects": [{"id": "side_key", "kind": "key", "area": "side", "at": [1000, -500]}],
        "characters": [],
        "start": {"area": "hall", "at": [100, 100], "facing_deg": 0},
        "objectives": [{"id": "take_key", "kind": "collect_item", "object": "side_key",
                        "text": "Pick up the key."}],
    }


def test_what_the_player_passes_during_a_walk_becomes_known():
    game = WorldSession(parse_level(_corridor_level()), "easy", 0)
    key = game.ids.ep("object", "side_key")
    assert key not in {o["id"] for o in game.view()["objects"]}
    result = game.act("go_to", {"x": 1900, "z": 100})
    assert result["end_reason"] == "arrived"
    world = game.world
    assert not world.line_of_sight(world.player.position, (1000.0, 0.0, -500.0), "ground")
    assert key in {o["id"] for o in game.view()["objects"]}
    # Seen only from the hall, for an instant: known all the same, and walked to.
    assert game.act("go_to_object", {"object_id": key})["end_reason"] == "arrived"


def test_a_door_moved_out_of_sight_keeps_the_state_last_seen_and_no_change_line():
    game = _session({"floor_plan": True})
    world = game.world
    door = game.ids.ep("door", "mid_door")
    world.teleport(world.player.id, 100.0, -500.0)  # the north room: the door out of sight
    world.step()
    game.view()
    world.doors_system.trigger("mid_door", "open", "guard")
    result = game.act("wait", {"seconds": 2.0})
    assert world.doors["mid_door"].state == "open"
    assert not any(door in line for line in result["changes"])
    assert next(d for d in game.view()["doors"] if d["id"] == door)["state"] == "closed"
    # Back in the start room, the door is in sight: open, as it is.
    world.teleport(world.player.id, 150.0, 300.0)
    assert next(d for d in game.view()["doors"] if d["id"] == door)["state"] == "open"


def test_an_equip_error_lists_the_carried_items_in_episode_ids():
    data = armed(knowledge_level())
    game = WorldSession(parse_level(data), "easy", 0)
    game.view()
    medkit = game.ids.ep("object", "medkit")
    with pytest.raises(InvalidRequestError) as caught:
        game.act("equip", {"item_id": medkit})
    message = str(caught.value)
    assert game.ids.ep("object", "gun") in message and "gun" not in message.replace(
        game.ids.ep("object", "gun"), "")
    assert "medkit" not in message.replace(medkit, "")


def test_a_walk_never_tells_whether_floor_lies_beyond_what_the_player_knows():
    # "level" (north) is a secret room behind a hidden passage: a walk into it answers as
    # a walk to the same spot with no room there (both moved onto the known floor), and
    # the unknown far room as a spot with no floor anywhere near (no_known_route) (34).
    def answers(room: bool) -> list[tuple]:
        data = knowledge_level()
        data["areas"][3]["secret"] = True
        data["exits"][2]["hidden"] = True
        if not room:
            del data["areas"][3], data["exits"][2]
        game = WorldSession(parse_level(data), "easy", 0)
        game.view()
        return [(r["end_reason"], r["detail"], r["ticks"], r["adjusted_target"]) for r in (
            game.act("go_to", {"x": 300, "z": -300}),  # the secret room
            game.act("go_to", {"x": 1500, "z": 300}),  # the unknown far room
            game.act("go_to", {"x": 300, "z": -3000}),  # no floor anywhere near
        )]

    with_room = answers(True)
    assert with_room == answers(False)
    assert with_room[0][0] == "arrived" and with_room[0][3][2] > 0
    assert with_room[1][0] == with_room[2][0] == "no_known_route"
    assert with_room[1][1:] == with_room[2][1:]
    # Near known floor, an off-floor target is still moved onto it.
    data = knowledge_level()
    game = WorldSession(parse_level(data), "easy", 0)
    game.view()
    near = game.act("go_to", {"x": 300, "z": 700})
    assert near["end_reason"] == "arrived" and near["adjusted_by"] > 0


def test_pressing_use_at_a_hidden_passage_names_nothing():
    data = knowledge_level()
    data["areas"][3]["secret"] = True
    data["exits"][2]["hidden"] = True
    game = WorldSession(parse_level(data), "easy", 0)
    world = game.world
    world.teleport(world.player.id, 300.0, 40.0)  # facing the wall where the passage hides
    world.step()
    game.view()
    result = game.act("turn_and_use", {"x": 300, "z": -100})
    assert result["detail"] == "Turned; nothing usable is within reach that way."
    assert not EPISODE_ID.search(result["detail"])


def test_an_attack_on_a_character_down_unseen_walks_to_where_it_was_seen():
    game = guard_seen_then_left_behind(armed(knowledge_level()))
    game.world.damage("guard", 10.0)  # down behind the shut door
    result = game.act("attack", {"character_id": game.ids.ep("character", "guard")})
    assert result["end_reason"] == "arrived" and result["ticks"] > 0
    assert "already" not in result["detail"] and "down" in result["detail"]


def test_an_attack_goes_where_the_target_was_last_seen_not_after_it_through_walls():
    game = guard_seen_then_left_behind(armed(knowledge_level()))
    world = game.world
    world.teleport("guard", 1700.0, 590.0)  # moved unseen, into a corner of the far room
    result = game.act("attack", {"character_id": game.ids.ep("character", "guard")})
    assert result["end_reason"] == "target_gone", result["detail"]
    assert "last seen" in result["detail"]
    assert world.player.x < 1000.0  # stopped where it was seen, never went after it
