"""An invalid action never moves the world; a target that goes away mid-way ends the action.

Every refusal, whatever check makes it, leaves the state hash, the tick and the event
log exactly as they were. An action whose target is taken, broken or downed while the
player walks ends as `target_gone` with a full result, and its record replays.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.core.record import read_record
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.level_factory import base_level, set_at, write_level
from tests.shared import TEST_AGENTS, python_agent
from world.actions.driver import Finish, drive
from world.actions.registry import execute
from world.actions.timing import Limit
from world.actions.walking import gave_up
from world.errors import InvalidRequestError, UnknownIdError, WorldError
from world.level.load import parse_level
from world.setup import create_world
from world.sim.world import PlayerIntent, World


def _armed_level():
    # The checker's base level, with a key and a poison vial carried from the start.
    data = base_level()
    data["objects"].append({"id": "vial", "kind": "poison", "amount": 0.5})
    set_at(data, "start.inventory", ["sidearm", "store_key", "vial"])
    return parse_level(data, "base.json")


ARMED = _armed_level()

# (action, arguments, error type): each refused by a different check.
REFUSALS = {
    "unknown object": ("go_to_object", {"object_id": "nothing"}, UnknownIdError),
    "unknown character": ("attack", {"character_id": "nobody"}, UnknownIdError),
    "unknown object to shoot": ("shoot_object", {"object_id": "nothing"}, UnknownIdError),
    "not a way out here": ("go_to_area", {"exit_id": "store_door"}, UnknownIdError),
    "unknown action": ("fly", {}, UnknownIdError),
    "equip unknown item": ("equip", {"item_id": "nothing"}, UnknownIdError),
    "equip item not held": ("equip", {"item_id": "copier"}, InvalidRequestError),
    "item not held": ("use_item_on", {"item_id": "copier", "object_id": "files"},
                      InvalidRequestError),
    "held item, unknown target": ("use_item_on", {"item_id": "store_key",
                                                  "object_id": "nothing"}, UnknownIdError),
    # Far away targets: these used to walk all the way before the world said no.
    "weapon used on a door": ("use_item_on", {"item_id": "sidearm",
                                              "object_id": "store_door"}, InvalidRequestError),
    "key used on a computer": ("use_item_on", {"item_id": "store_key", "object_id": "files"},
                               InvalidRequestError),
    "poison used on a crate": ("use_item_on", {"item_id": "vial", "object_id": "crate"},
                               InvalidRequestError),
    "point not finite": ("go_to", {"x": float("nan"), "z": 100.0}, InvalidRequestError),
    "height not finite": ("go_to", {"x": 300.0, "y": float("inf"), "z": 100.0},
                          InvalidRequestError),
    "facing not finite": ("turn_and_use", {"x": float("-inf"), "z": 0.0}, InvalidRequestError),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_action_leaves_the_world_as_it_was(case: str) -> None:
    action, args, error = REFUSALS[case]
    world = create_world(ARMED, "hard", 1)
    world.step(PlayerIntent())  # a world that has run, with events in its log
    before = (world.state_hash(), world.tick, len(world.events), world.player.in_hand)
    with pytest.raises(error) as caught:
        execute(world, action, args)
    assert str(caught.value)  # the message names what was wrong
    assert (world.state_hash(), world.tick, len(world.events), world.player.in_hand) == before


# Actions the rules turn down as a result (nothing runs, the decision counts).
DECIDED = {
    "attack a friendly": ("attack", {"character_id": "clerk"}, "refused"),
    "walk to a carried item": ("go_to_object", {"object_id": "sidearm"}, "refused"),
    "walk through a window": ("go_to_area", {"exit_id": "store_window"}, "refused"),
    "walk far off the level": ("go_to", {"x": 9000.0, "z": 9000.0}, "unreachable"),
}


@pytest.mark.parametrize("case", sorted(DECIDED))
def test_a_decided_result_before_any_tick_changes_nothing(case: str) -> None:
    action, args, reason = DECIDED[case]
    world = create_world(ARMED, "hard", 1)
    if case == "walk through a window":
        world.teleport("player", 1000.0, 300.0)  # in the hall, where the window is
    before = (world.state_hash(), world.tick, len(world.events))
    result = execute(world, action, args)
    assert (result.end_reason, result.ticks) == (reason, 0)
    assert (world.state_hash(), world.tick, len(world.events)) == before


def test_a_refusal_after_ticks_ends_the_action_instead_of_raising() -> None:
    world = World(ARMED, "normal", 1)  # no systems: nothing else interrupts

    def script(run):
        yield PlayerIntent()
        yield PlayerIntent(use="crate")  # far away: the world refuses this step
        return Finish("arrived", "never")

    result = drive(world, "wait", {"seconds": 1}, script, Limit(30), gave_up)
    assert result.end_reason == "target_gone"
    assert result.ticks == 1 and world.tick == 1
    assert "crate" in result.detail and "120" in result.detail


def test_a_refusal_before_any_tick_raises_and_moves_nothing() -> None:
    world = World(ARMED, "normal", 1)
    before = world.state_hash()

    def script(run):
        yield PlayerIntent(use="crate")
        return Finish("arrived", "never")

    with pytest.raises(WorldError):
        drive(world, "wait", {"seconds": 1}, script, Limit(30), gave_up)
    assert world.state_hash() == before and world.tick == 0


# A bot stands near a key at the far end of a hall; the player starts at the other end.
SNATCHED = {
    "format_version": 1, "id": "snatched_key", "title": "Snatched key",
    "brief": "A bot takes the key the player walks to.",
    "difficulties": [{"id": "normal"}],
    "budgets": {"max_decisions": 4, "max_game_seconds": 120},
    "navmesh": {"agent_radius": 20},
    "storeys": [{"id": "ground", "y": 0}],
    "areas": [{"id": "hall", "name": "Hall", "storey": "ground",
               "polygon": [[0, 0], [2400, 0], [2400, 400], [0, 400]]}],
    "objects": [{"id": "brass_key", "kind": "key", "area": "hall", "at": [1900, 200]},
                {"id": "snapper", "kind": "gadget", "gadget": "camera"}],
    "characters": [{"id": "grabber", "kind": "bot", "side": "hostile", "area": "hall",
                    "at": [2050, 200], "behaviour": "roam", "view_angle_deg": 10}],
    "start": {"area": "hall", "at": [100, 200], "inventory": ["snapper"]},
    "objectives": [{"id": "get_key", "kind": "collect_item", "object": "brass_key",
                    "text": "Pick up the key."}],
}


@pytest.mark.parametrize("action, args", [
    ("go_to_object", {"object_id": "brass_key"}),
    ("use_item_on", {"item_id": "snapper", "object_id": "brass_key"}),
])
def test_a_pickup_taken_mid_way_ends_the_walk(action: str, args: dict) -> None:
    world = create_world(parse_level(SNATCHED, "snatched_key.json"), "normal", 0)
    result = execute(world, action, args)
    assert result.end_reason == "target_gone"
    assert world.objects["brass_key"].holder == "grabber"
    assert 0 < result.ticks == world.tick < 60  # stopped on the tick it was taken
    assert result.distance_moved > 100.0
    assert result.detail == "Stopped: brass_key is no longer lying there (it was taken)."
    taken = [e for e in result.events if e.kind == "item_picked_up"]
    assert [(e.subject, e.other) for e in taken] == [("grabber", "brass_key")]
    data = result.to_dict()
    assert data["end_reason"] == "target_gone" and data["ticks"] == result.ticks


def test_a_taken_pickup_is_a_result_in_the_record_and_replays(tmp_path: Path) -> None:
    level = write_level(tmp_path, SNATCHED)
    agent = python_agent(TEST_AGENTS / "fetch_agent.py")
    summary = run(str(level), agent, seed=0, out_dir=tmp_path / "runs",
                  settings=RunSettings(hello_timeout_s=20, decision_timeout_s=20))
    assert summary["invalid_actions"] == 0
    record = read_record(summary["run_dir"])
    fetch = record.turns[0]
    assert fetch["error"] is None and fetch["action"]["action"] == "go_to_object"
    result = fetch["result"]
    assert result["end_reason"] == "target_gone" and result["ticks"] > 0
    assert "no longer lying there" in result["detail"]
    after = record.turns[1]["observation"]["view"]["player"]["position"]
    assert after[0] > 150.0  # the next observation shows how far the player got
    assert replay(summary["run_dir"]).verified


def test_a_character_down_mid_way_ends_the_walk() -> None:
    # A hostage stands in acid that kills in about two seconds; the walk to it takes five.
    data = {**SNATCHED, "id": "acid_hostage", "objects": [], "start": {
        "area": "hall", "at": [100, 200]}}
    data["characters"] = [{"id": "hostage", "kind": "hostage", "side": "friendly",
                           "area": "hall", "at": [1900, 200], "behaviour": "stay"}]
    data["hazards"] = [{"id": "acid", "kind": "acid", "storey": "ground", "damage_per_s": 0.5,
                        "polygon": [[1800, 100], [2000, 100], [2000, 300], [1800, 300]]}]
    data["objectives"] = [{"id": "last", "kind": "survive", "seconds": 100,
                           "text": "Stay alive."}]
    world = create_world(parse_level(data, "acid_hostage.json"), "normal", 0)
    result = execute(world, "go_to_object", {"object_id": "hostage"})
    assert result.end_reason == "target_gone"
    assert result.detail == "Stopped: hostage is down."
    assert not world.characters["hostage"].alive
    assert 30 < result.ticks < 150 and result.distance_moved > 100.0
    # Asked again, the walk is refused at once and nothing moves.
    before = (world.state_hash(), world.tick)
    again = execute(world, "go_to_object", {"object_id": "hostage"})
    assert (again.end_reason, again.ticks) == ("refused", 0)
    assert (world.state_hash(), world.tick) == before


def test_a_pickup_taken_out_of_sight_ends_the_walk_only_once_its_spot_is_seen() -> None:
    # The key lies in a second room whose only way in is a gap at the hall's north end:
    # the player learns it is gone on seeing its spot, not when the bot takes it.
    data = {**SNATCHED, "id": "hidden_key"}
    data["areas"] = [
        {"id": "hall", "name": "Hall", "storey": "ground",
         "polygon": [[0, 0], [1200, 0], [1200, 400], [0, 400]]},
        {"id": "den", "name": "Den", "storey": "ground",
         "polygon": [[1200, 0], [2400, 0], [2400, 400], [1200, 400]]},
    ]
    data["exits"] = [{"id": "gap", "kind": "opening", "areas": ["hall", "den"],
                      "segment": [[1200, 0], [1200, 120]]}]
    data["objects"] = [{"id": "brass_key", "kind": "key", "area": "den", "at": [1900, 330]}]
    data["characters"] = [{**SNATCHED["characters"][0], "area": "den", "at": [2050, 330]}]
    data["start"] = {"area": "hall", "at": [100, 330]}
    world = create_world(parse_level(data, "hidden_key.json"), "normal", 0)
    assert not world.line_of_sight(world.player.position, (1900.0, 330.0), "ground")
    result = execute(world, "go_to_object", {"object_id": "brass_key"})
    taken = next(e.tick for e in result.events if e.kind == "item_picked_up")
    assert result.end_reason == "target_gone"
    assert world.tick > taken + 60  # it walked on for seconds after the bot took the key
    assert world.line_of_sight(world.player.position, (1900.0, 330.0), "ground")
    assert world.player.x > 1000.0
