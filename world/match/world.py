"""A world with several players (the multiplayer track): p1, p2, ... from the level's match starts.

The simulation, its actions and what a player perceives are written for "the player"
(`World.player`) and the characters around it. A match world keeps every player actor
and looks at itself from one player at a time (`view_as`): that player is the world's
player, with its own planning state (what it knows, `world.sim.mind`), and the other
players stand among the characters, where it can see, name and shoot them like any
other body. A tick is played for every player at once (`World.step_players`), always
looked at from the first player, so a tick never depends on whose turn it was.

A player's action runs in its own greenlet: when the action's tick loop asks for a
tick (`step`), the greenlet hands its intent to the match session (world.match.session)
and waits; the session plays the tick once every running action has given its intent.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from greenlet import getcurrent

from world.errors import InvalidRequestError
from world.level.model import Level
from world.sim.actors import Actor
from world.sim.combat import Combat
from world.sim.intent import PlayerIntent
from world.sim.mind import Planning
from world.sim.world import World


def player_ids(level: Level) -> tuple[str, ...]:
    """The player ids of a match level, p1 first (one per start)."""
    if level.match is None:
        raise InvalidRequestError(f"level {level.id!r} has no match block: it is single-player")
    return tuple(f"p{k}" for k in range(1, len(level.match.starts) + 1))


class MatchCombat(Combat):
    """Combat with the match's friendly-fire rule: a teammate's shot hits but does no harm."""

    def damage(self, actor: Actor, amount: float, source: str | None,
               through_armour: bool = False) -> None:
        """Deal damage unless a teammate dealt it and the level has friendly fire off."""
        world = self.world
        if isinstance(world, MatchWorld) and world.spares(source, actor.id):
            return
        super().damage(actor, amount, source, through_armour)


class MatchWorld(World):
    """One match's world: every player's actor, seen from one player at a time."""

    combat_class = MatchCombat

    def __init__(self, level: Level, difficulty: str, seed: int, teams: tuple[str, ...]) -> None:
        """Spawn every player at its start (p1 at the first), then the rest of the world.

        Args:
            level: A level with a match block.
            difficulty: One of its difficulty ids.
            seed: The match key (the one generator is made from it).
            teams: Each player's team name, in player order.

        Raises:
            InvalidRequestError: for a level without a match block or a team list of the
                wrong length.
        """
        ids = player_ids(level)
        if len(teams) != len(ids):
            raise InvalidRequestError(f"level {level.id!r} is played by {len(ids)} players; "
                                      f"{len(teams)} teams were given")
        self.player_ids = ids
        self.teams = dict(zip(ids, teams, strict=True))
        self.players: dict[str, Actor] = {}
        super().__init__(level, difficulty, seed)
        # The single-player start's inventory is nobody's in a match.
        for oid in level.start.inventory:
            self.objects[oid].holder = None
        # Each player holds what its own start gives it (the player's knowledge counts
        # held things as known: without this, `equip` refused a player's own start gun).
        assert level.match is not None
        for pid, start in zip(ids, level.match.starts, strict=True):
            for oid in start.inventory:
                self.objects[oid].holder = pid
        self._planning = {pid: Planning() for pid in ids}
        self._planning[ids[0]] = self.planning
        self.view_as(ids[0])

    def _spawn_player(self) -> Actor:
        assert self.level.match is not None
        for pid, start in zip(self.player_ids, self.level.match.starts, strict=True):
            self.players[pid] = self.make_player(pid, start.area, start.at, start.facing_deg,
                                                 start.inventory, start.in_hand)
        return self.players[self.player_ids[0]]

    def spares(self, source: str | None, victim: str) -> bool:
        """Whether a hit from `source` on `victim` does no harm (teammates, friendly fire off)."""
        assert self.level.match is not None
        return (not self.level.match.friendly_fire and source in self.teams
                and victim in self.teams and source != victim
                and self.teams[source] == self.teams[victim])

    def opposes(self, actor: Actor) -> bool:
        """Whether the player fights this actor: a hostile, or a player of another team."""
        if actor.id in self.teams:
            return self.teams[actor.id] != self.teams[self.player.id]
        return super().opposes(actor)

    def view_as(self, pid: str) -> None:
        """Look at the world from one player: its actor is the player, the others characters."""
        others = {k: a for k, a in self.characters.items() if k not in self.players}
        others.update((k, a) for k, a in self.players.items() if k != pid)
        self.player = self.players[pid]
        self.planning = self._planning[pid]
        self.characters = dict(sorted(others.items()))

    @contextmanager
    def seen_by(self, pid: str) -> Iterator[None]:
        """Look from one player for a while, then from whoever was looking before."""
        before = self.player.id
        self.view_as(pid)
        try:
            yield
        finally:
            self.view_as(before)

    def end(self, reason: str) -> None:
        """End the world; a player going down does not end a match (the judge decides)."""
        if reason != "player_dead":
            super().end(reason)

    def step(self, intent: PlayerIntent | None = None) -> None:
        """Hand this tick's intent to the match session and wait for the tick to be played.

        Raises:
            InvalidRequestError: when called outside a player's action (a match world
                advances only through its session).
        """
        parent = getcurrent().parent
        if parent is None:
            raise InvalidRequestError("a match world advances only through its match session")
        parent.switch(intent)

    def tick_all(self, intents: dict[str, PlayerIntent | None]) -> None:
        """Play one tick for every player: those with an intent act, the others stand."""
        with self.seen_by(self.player_ids[0]):
            self.step_players([(self.players[pid], intents.get(pid))
                               for pid in self.player_ids])

    def state_hash(self) -> str:
        """The state hash, always taken as seen from the first player (a stable order)."""
        with self.seen_by(self.player_ids[0]):
            return super().state_hash()
