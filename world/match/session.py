"""A match as drivers play it: whose decision it is, and one step per player's action.

Turns interleave by events (PROTOCOL.md, "Matches"): at the start every player decides,
in player order, while game time stands still. Then game time runs, every player's
action ticking at once, until some player's action ends; that player (several whose
actions ended on the same tick: in player order) gets its own view and decides while
game time stands still again, and the others' actions carry on when time runs again.
So thinking time gives no advantage, and a player who chose a long action is not
asked again until it ends or is cut short (damage, a sighting, its time cap), exactly
as in a single-player episode.

Each player has its own session (`PlayerSession`): its own episode ids, its own
knowledge (what that player perceived) and both views built from them alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from greenlet import greenlet

from world.actions.routes import plan_over
from world.errors import InvalidRequestError, WorldError
from world.level.model import Level
from world.match.judge import MatchJudge, Standing
from world.match.world import MatchWorld, player_ids
from world.objectives.score import MissionReport
from world.observe.ids import IdMap
from world.observe.knowledge import Knowledge
from world.observe.session import WorldSession, id_groups
from world.observe.status import GameStatus
from world.observe.view import build_view
from world.sim.intent import PlayerIntent
from world.turn import Turn


class PlayerSession(WorldSession):
    """One player's side of a match: its ids, its knowledge, its views (a `Session`)."""

    def __init__(self, match: MatchSession, pid: str, start_area: str) -> None:
        """A player's session over the match's world, knowing only its start."""
        world = match.world
        self.level, self.difficulty = world.level, world.difficulty.id
        self.world = world
        self.match, self.pid = match, pid
        self.ids = IdMap(world.level)
        self._groups = id_groups(world.level)
        self.known = Knowledge(world.level, start_area)
        with world.seen_by(pid):
            plan_over(world, self.known)
        self._seen: MissionReport | None = None

    def report(self) -> MissionReport:
        """A match player has no mission report: the match judge scores it."""
        raise InvalidRequestError("a match is judged by its judge, not by mission objectives")

    def view(self) -> dict[str, Any]:
        """The structured view from this player's knowledge.

        The level's objectives are its single-player mission's, not the match's (whose
        rules the start and every observation's `match` block carry): none are listed,
        but the match's team objectives (a zone, captures, escorts) are, one row each
        (world.match.goals), numbered from 1.
        """
        view = build_view(self.world, self.ids, self.known, None)
        rows = [goal.row(self.match.world, self.pid, self.ids, self.known)
                for goal in self.match.judge.goals]
        for index, row in enumerate(rows, 1):
            row["index"] = index
        view["objectives"] = rows
        return view

    def seen_report(self) -> MissionReport | None:
        """None: a match view is built without a mission report."""
        return None

    def status(self) -> GameStatus:
        """This player's status: over when the match is over or the player is down."""
        standing = self.match.standing(self.pid)
        ended = self.match.over is not None or standing.down_tick is not None
        return GameStatus(ended, standing.result == "won", None, standing.score, 0.0, (), 0.0)


class MatchSession:
    """One match: the world, every player's session, and the event-driven turn order."""

    def __init__(self, level: Level, difficulty: str, key: int,
                 teams: tuple[str, ...] | None = None) -> None:
        """Build the match world at tick 0 and every player's first turn.

        Args:
            level: A level with a match block.
            difficulty: One of its difficulty ids.
            key: The match key the world's generator is made from.
            teams: Each player's team in player order (None: free-for-all, each its own).
        """
        ids = player_ids(level)
        self.teams = teams if teams is not None else ids
        self.world = MatchWorld(level, difficulty, key, self.teams)
        self.judge = MatchJudge.attach(self.world)
        assert level.match is not None
        self.players = {pid: PlayerSession(self, pid, start.area)
                        for pid, start in zip(ids, level.match.starts, strict=True)}
        self._turns: dict[str, Turn] = {}
        for pid in ids:
            with self.world.seen_by(pid):
                self._turns[pid] = self.players[pid].turn
        self._deciding: list[str] = list(ids)
        self._running: dict[str, tuple[greenlet, PlayerIntent | None]] = {}
        self._retired: set[str] = set()

    @property
    def tick(self) -> int:
        """Game ticks since the start."""
        return self.world.tick

    @property
    def over(self) -> str | None:
        """How the match ended (a name of `judge.ENDINGS`), or None while it runs."""
        return self.judge.over

    @property
    def deciding(self) -> str | None:
        """The player whose decision it is now, or None once the match is over."""
        return None if self.over is not None or not self._deciding else self._deciding[0]

    @property
    def due(self) -> tuple[str, ...]:
        """Every player whose decision is due at this moment, in the order they decide."""
        return () if self.over is not None else tuple(self._deciding)

    def turn(self, pid: str) -> Turn:
        """A player's latest turn: the view of the moment its last action ended."""
        return self._turns[pid]

    def standing(self, pid: str) -> Standing:
        """A player's frags and result now."""
        return next(s for s in self.judge.standings() if s.player == pid)

    def standings(self) -> list[Standing]:
        """Every player's standing, in player order."""
        return self.judge.standings()

    def state_hash(self) -> str:
        """The match world's state hash."""
        return self.world.state_hash()

    def retire(self, pid: str, forfeit: bool = False) -> None:
        """Take a player out of the decisions (its agent failed or ran out of budget).

        Its body stays and stands still; the others play on. A player retired because
        its agent failed (`forfeit`) counts as lost for its team (`MatchJudge.results`).
        """
        self._retired.add(pid)
        if forfeit:
            self.judge.forfeited.add(pid)
        if pid in self._deciding:
            self._deciding.remove(pid)
        self._settle()

    def step(self, pid: str, action: Mapping[str, Any] | None) -> Turn | None:
        """Play the deciding player's decision: start its action, run time to the next decision.

        An action the world refuses, an action that takes no game time and a line that
        held no action (None) give the same player its next turn at once.

        Returns:
            The player's turn right after its decision (a refusal or an instant result),
            or None when its action took game time (its turn comes when it ends).

        Raises:
            InvalidRequestError: if it is not this player's decision.
        """
        if pid != self.deciding:
            raise InvalidRequestError(f"it is {self.deciding!r}'s decision, not {pid!r}'s")
        session = self.players[pid]
        with self.world.seen_by(pid):
            if action is None:
                self._turns[pid] = session.step(None)
                return self._turns[pid]
            runner = greenlet(session.step)
            got = runner.switch(action)
            if runner.dead:  # refused, or over before any tick
                self._turns[pid] = got
                return got
        self._deciding.pop(0)
        self._running[pid] = (runner, got)
        self._settle()
        return None

    def _settle(self) -> None:
        # Runs game time until a decision is due or the match is over.
        while not self._deciding and self.over is None:
            if not self._running:
                self.judge.stall()
                return
            self._advance()

    def _advance(self) -> None:
        # One tick: each running action's intent, checked from its own player's sight
        # (a refused intent ends that action before the tick), then every action goes on.
        intents: dict[str, PlayerIntent | None] = {}
        for pid in sorted(self._running):
            runner, intent = self._running[pid]
            with self.world.seen_by(pid):
                while intent is not None and not runner.dead:
                    try:
                        self.world._check_intent(self.world.player, intent)
                        break
                    except WorldError as exc:
                        intent = runner.throw(exc)
            if runner.dead:
                self._finished(pid, intent)
            else:
                intents[pid] = intent
        if not intents:
            return
        self.world.tick_all(intents)
        for oid, home in self.judge.moved():  # a flag sent home, or dropped unseen
            for player in self.players.values():
                player.known.moved(oid, home)
        for pid in sorted(intents):
            runner, _ = self._running[pid]
            with self.world.seen_by(pid):
                got = runner.switch()
            if runner.dead:
                self._finished(pid, got)
            else:
                self._running[pid] = (runner, got)

    def _finished(self, pid: str, turn: Any) -> None:
        del self._running[pid]
        self._turns[pid] = turn
        if self.world.players[pid].alive and pid not in self._retired:
            self._deciding.append(pid)
