"""The reference agent walks past a posted guard whose back is turned while it is hurt.

Hand-made views (tests/reference_views.py) folded into the agent's memory.
"""

from __future__ import annotations

from typing import Any

from tests.reference_views import hostile, observation, pistol, thing


def _guard(x: float, facing: float | None = 0.0, alertness: str = "unaware",
           z: float = 0.0) -> dict[str, Any]:
    # A pistol guard at (x, z) with a 90-degree cone 1,500 long, facing `facing`
    # (0 looks toward +x, away from a player at the origin standing to his west).
    row = hostile("c3", (x * x + z * z) ** 0.5, armed=True, alertness=alertness, health=1.0)
    return {**row, "kind": "guard", "position": [x, 0.0, z], "area": "a2",
            "facing_deg": facing, "view_angle_deg": 90.0, "view_range": 1500.0}


def _memory(guard: dict[str, Any], health: float, turn: int = 1, mem: Any = None) -> Any:
    from agents.reference.memory import Memory

    seen = observation([thing("o4", "console", 1000.0, objective=True)],
                       carried=[pistol(24, 8)])
    seen["turn"], seen["time_s"] = turn, float(turn)
    seen["view"]["player"].update(health=health, in_hand="o1", reloading=False)
    seen["view"]["characters"] = [guard]
    mem = mem if mem is not None else Memory()
    mem.update(seen)
    return mem


def test_out_of_view_is_his_cone_with_slack_his_range_and_a_ring_he_always_senses() -> None:
    from agents.reference.backs import SNEAK_NEAR, out_of_view

    guard = _guard(500.0)  # facing +x, the origin behind him
    assert out_of_view(guard, (0.0, 0.0, 0.0))  # straight behind
    assert not out_of_view(guard, (1000.0, 0.0, 0.0))  # straight ahead
    # 55 degrees off his facing: inside the half-cone (45) plus slack (20), so seen.
    assert not out_of_view(guard, (500.0 + 573.6, 0.0, 819.2))
    # 70 degrees off: outside it.
    assert out_of_view(guard, (500.0 + 342.0, 0.0, 939.7))
    # Beyond his reach and the ring, ahead of him: unseen.
    assert out_of_view(guard, (500.0 + 1500.0 + SNEAK_NEAR + 10.0, 0.0, 0.0))
    # A step behind him: he senses who brushes past.
    assert not out_of_view(guard, (500.0 - SNEAK_NEAR + 10.0, 0.0, 0.0))
    # With his facing not shown, nothing is taken as unseen.
    assert not out_of_view(_guard(500.0, facing=None), (0.0, 0.0, 0.0))


def test_a_posted_guard_with_his_back_turned_sleeps_only_for_a_hurt_player() -> None:
    from agents.reference.backs import AVOID_BELOW, asleep

    behind = _guard(500.0)
    assert asleep(_memory(behind, health=0.5), behind)
    # Fresh enough, the duel is taken: the first shot is the player's.
    assert not asleep(_memory(behind, health=AVOID_BELOW), behind)
    # Facing the player, or already after him: no.
    facing = _guard(500.0, facing=180.0)
    assert not asleep(_memory(facing, health=0.5), facing)
    searching = _guard(500.0, alertness="suspicious")
    assert not asleep(_memory(searching, health=0.5), searching)


def test_a_guard_seen_to_walk_is_a_patrol_and_never_taken_for_asleep() -> None:
    from agents.reference.backs import POST_MOVE, asleep

    mem = _memory(_guard(500.0), health=0.5, turn=1)
    assert asleep(mem, mem.view["characters"][0])  # his post noted where first seen
    moved = _guard(500.0 + POST_MOVE + 10.0)
    mem = _memory(moved, health=0.5, turn=2, mem=mem)
    assert not asleep(mem, moved)
    back = _guard(500.0)  # back at his first spot later: still a patrol
    mem = _memory(back, health=0.5, turn=3, mem=mem)
    assert not asleep(mem, back)


def test_a_sleeping_guard_near_is_no_threat_and_the_walk_past_his_back_goes_on() -> None:
    from agents.reference.fight import threats
    from agents.reference.firstshot import first_shot

    # 500 off with his back turned, within close range: a threat to a fresh player only.
    guard = _guard(500.0)
    assert [r["id"] for r in threats(_memory(guard, health=1.0), stealth=False)] == ["c3"]
    mem = _memory(guard, health=0.5)
    assert threats(mem, stealth=False) == []
    # A walk away from him, out of his cone all the way, goes on.
    away = ("go_to", {"x": -600.0, "z": 0.0}, "away")
    assert first_shot(mem, away, stealth=False) == away
    # One that passes in front of him is shot first instead: he would turn at the first
    # sight of the player, up close.
    ahead = ("go_to", {"x": 1400.0, "z": 0.0}, "past him")
    step = first_shot(mem, ahead, stealth=False)
    assert step[0] == "attack" and step[1]["character_id"] == "c3", step


def test_unseen_walk_tests_every_step_of_a_straight_way() -> None:
    from agents.reference.backs import unseen_walk

    guard = _guard(500.0)
    assert unseen_walk(guard, (0.0, 0.0, 0.0), (-800.0, 0.0, 0.0))
    assert not unseen_walk(guard, (0.0, 0.0, 0.0), (1400.0, 0.0, 0.0))
    # Round behind him along the far side, clear of the ring: unseen.
    assert unseen_walk(guard, (0.0, 0.0, 0.0), (0.0, 0.0, 600.0))
