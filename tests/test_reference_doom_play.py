"""What the reference agent learnt from E1M1: the gun for close fights (drawn against
biters, taken up, put away between fights), a pickup on another floor given up, and a
way out given up no frontier.

Views in the shape the Doom world gives (guns with rounds but no magazine counter: a
pistol `i2`, a shotgun `i3`), folded into the agent's memory; no engine is needed.
"""

from __future__ import annotations

from typing import Any

PISTOL = {"id": "i2", "kind": "weapon", "name": "pistol", "ammo": 40, "weapon": "pistol"}
SHOTGUN = {"id": "i3", "kind": "weapon", "name": "shotgun", "ammo": 8, "weapon": "shotgun"}


def _observation(in_hand: str, carried: list[dict[str, Any]],
                 characters: list[dict[str, Any]] | None = None,
                 objects: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    player = {"position": [0.0, 0.0, 0.0], "health": 1.0, "armour": 0.0, "in_hand": in_hand,
              "carried": carried, "keys": []}
    area = {"id": "a1", "name": "room", "storey": "map", "ways_out": [], "windows": []}
    view = {"player": player, "area": area, "objectives": [], "characters": characters or [],
            "objects": objects or [], "doors": [], "hazards": [], "exit": None}
    return {"turn": 1, "time_s": 1.0, "view": view, "last_result": None, "error": None}


def _monster(cid: str, kind: str, distance: float, *, armed: bool,
             seen: str = "now") -> dict[str, Any]:
    return {"id": cid, "kind": kind, "position": [distance, 0.0, 0.0], "area": "a1",
            "health": 1.0, "down": False, "alertness": "in_combat", "armed": armed,
            "weapon": None, "friendly": False, "seen": seen, "distance": distance}


def _memory(observation: dict[str, Any]) -> Any:
    from agents.reference.memory import Memory

    mem = Memory()
    mem.update(observation)
    return mem


def test_the_shotgun_is_drawn_against_a_biter_and_kept_against_a_gunman_afar() -> None:
    from agents.reference import fight

    # A demon bites: the duel is fought at arm's length, where the shotgun fires two
    # shots to the pistol's four (the pistol, ranked above it, stayed in hand).
    mem = _memory(_observation("i2", [PISTOL, SHOTGUN], [_monster("c1", "demon", 400.0,
                                                                 armed=False)]))
    assert fight.fight(mem, False) == ("equip", {"item_id": "i3"}, "drawing the shotgun")
    # An imp close by is fought the same way; one across the room with the pistol.
    mem = _memory(_observation("i2", [PISTOL, SHOTGUN], [_monster("c2", "imp", 150.0,
                                                                 armed=True)]))
    assert fight.fight(mem, False)[:2] == ("equip", {"item_id": "i3"})
    mem = _memory(_observation("i2", [PISTOL, SHOTGUN], [_monster("c2", "imp", 700.0,
                                                                 armed=True)]))
    assert fight.fight(mem, False)[:2] == ("attack", {"character_id": "c2"})
    # Without shells the pistol stays for the biter too.
    mem = _memory(_observation("i2", [PISTOL, {**SHOTGUN, "ammo": 1}],
                               [_monster("c1", "demon", 400.0, armed=False)]))
    assert fight.fight(mem, False)[:2] == ("attack", {"character_id": "c1"})


def test_a_shotgun_lying_near_is_taken_up_while_calm() -> None:
    from agents.reference import supplies

    shotgun = {"id": "o5", "kind": "weapon", "name": "shotgun", "position": [200.0, 0.0, 0.0],
               "area": "a1", "distance": 200.0, "objective": False, "state": None,
               "weapon": "shotgun"}
    mem = _memory(_observation("i2", [PISTOL], objects=[shotgun]))
    step = supplies.heal(mem, 0.3)
    assert step is not None and step[:2] == ("go_to_object", {"object_id": "o5"})
    # Carried already: no walk for a second one.
    mem = _memory(_observation("i2", [PISTOL, SHOTGUN], objects=[shotgun]))
    assert supplies.heal(mem, 0.3) is None


def test_between_fights_the_shotgun_is_put_away_for_the_pistol() -> None:
    from agents.reference.duels import gun_up

    # The world raised the shotgun on pickup: walking on, its shells would go on long shots.
    mem = _memory(_observation("i3", [PISTOL, SHOTGUN]))
    assert gun_up(mem) == ("equip", {"item_id": "i2"}, "drawing the pistol")
    # Not with an imp remembered round the corner, nor with the pistol already in hand.
    mem = _memory(_observation("i3", [PISTOL, SHOTGUN],
                               [_monster("c2", "imp", 300.0, armed=True, seen="before")]))
    assert gun_up(mem) is None
    assert gun_up(_memory(_observation("i2", [PISTOL, SHOTGUN]))) is None
    # Nor with the pistol short of rounds: every fight is then a close one.
    assert gun_up(_memory(_observation("i3", [{**PISTOL, "ammo": 12}, SHOTGUN]))) is None


def test_a_pickup_found_on_another_floor_is_not_asked_for_again() -> None:
    from agents.reference.brain import UNREACHED_PICKUP, Brain

    brain = Brain()
    brain.mem.update(_observation("i2", [PISTOL]))
    done = ("go_to_object", {"object_id": "o5"}, "taking up the shotgun o5")
    brain.mem.last_decision = done
    brain.mem.last = {"end_reason": "wrong_storey", "distance_moved": 120.0,
                      "detail": "It lies 64 units above; it was not taken.", "changes": []}
    brain._learn()
    assert brain.mem.failed(done) and UNREACHED_PICKUP >= 3


def test_a_way_given_up_from_its_own_area_is_no_frontier_from_elsewhere() -> None:
    from agents.reference.moves import PAST_TRIES, explore

    # Room a1's way into a2 cannot be passed (every try failed); the player walked on to
    # a3. Its frontier used to send him back to a1's way, which he gave up at once
    # there, and on to the next such way and back, for the rest of the mission.
    def obs(area: str, position: float, ways: list[dict[str, Any]]) -> dict[str, Any]:
        o = _observation("i2", [PISTOL])
        o["view"]["player"]["position"] = [position, 0.0, 0.0]
        o["view"]["area"] = {"id": area, "name": "room", "storey": "map", "ways_out": ways,
                             "windows": []}
        return o

    def way(wid: str, to: str, x: float, visited: bool) -> dict[str, Any]:
        return {"id": wid, "to": to, "to_name": "room", "via": "opening", "door": None,
                "position": [x, 0.0, 0.0], "visited": visited, "one_way": False,
                "other_storey": False, "distance": 100.0}

    mem = _memory(obs("a1", 0.0, [way("w1", "a2", 100.0, False), way("w2", "a3", -600.0, True)]))
    mem.fail(("go_to_area", {"exit_id": "w1"}, ""), 2)
    mem.failures[("past", "w1")] = PAST_TRIES
    assert explore(mem) is None  # nothing left to try from here
    mem.update(obs("a3", -900.0, [way("w3", "a1", -600.0, True)]))
    assert explore(mem) is None  # and no walk back to it
