"""Two players' intents on one tick of a match (40): an earlier player's doing may rule
out a later one's (both shoot one rival, the first shot downs it), and the tick goes on."""

from __future__ import annotations

from tests.shared import MATCH_LEVELS
from world.level.load import load_level
from world.match.world import MatchWorld
from world.sim.intent import PlayerIntent


def test_a_shot_at_a_player_downed_earlier_in_the_same_tick_is_not_fired() -> None:
    level = load_level(MATCH_LEVELS / "team_yard.json")
    world = MatchWorld(level, level.difficulties[0].id, 5, ("a", "a", "b", "b"))
    p1, p3 = world.players["p1"], world.players["p3"]
    apply = world._apply_intent

    def first_shot_downs(actor, intent):  # p1's shot downs p3, whatever the roll
        apply(actor, intent)
        if actor is p1:
            world.combat.down(p3, "p1")

    world._apply_intent = first_shot_downs
    tick = world.tick
    world.tick_all({"p1": PlayerIntent(fire_at="p3"), "p2": PlayerIntent(fire_at="p3")})
    assert world.tick == tick + 1 and not p3.alive
    shooters = [e.subject for e in world.events.since(0) if e.kind == "shot_fired"]
    assert shooters == ["p1"]  # p2's shot at a downed rival is not fired
