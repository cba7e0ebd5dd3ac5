"""The match's judge: frags, the first player through the exit and who won, from world events.

A per-tick system at the judges' order, like the objectives of an episode: it reads only
what happened in the world (players going down and who downed them, areas entered), so
replaying a match's actions re-derives every player's frags and result. Its state is in
the state hash.

Rules (PROTOCOL.md, "Matches"): a frag is an opponent player downed by a player's own
shot; a down by automatic return fire is not a frag (waiting to be shot at scores
nothing), nor is a teammate downed when friendly fire is on. A downed player is out for
the rest of the match. The match ends when a player enters the exit area (its team
wins), when one team is left standing (it wins), or at the game-time budget (the team
with most frags wins; teams level at the top draw; a team alone, in a cooperative
match, has lost); the level ending by itself (a countdown) is judged as time. A level's
team objectives (world.match.goals: a zone to hold, captures, escorts) win outright when met and
decide first at the time budget, frags breaking their ties.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from world.match.goals import GOAL_KINDS, goal_figures, make_goals
from world.sim.clock import TICKS_PER_SECOND
from world.sim.world import JUDGE_ORDER, World

if TYPE_CHECKING:
    from world.match.world import MatchWorld

JUDGE_NAME = "match"
# The ways a match ends, each with its sentence (declared once; records use the names).
ENDINGS = {
    "exit": "a player reached the exit first",
    "last_standing": "one team is left standing",
    "time": "the game-time budget ran out",
    "level_ended": "the level itself ended (a countdown ran out)",
    "no_one_acting": "no player can act any more",
    **{name: words for kind in GOAL_KINDS.values() for name, words in kind.endings.items()},
}
# A player's score by result.
# A team's result once the match is over.
Result = Literal["won", "lost", "draw"]
RESULT_SCORES: dict[Result, float] = {"won": 1.0, "draw": 0.5, "lost": 0.0}


@dataclass(frozen=True)
class Standing:
    """One player's part of a match as the judge sees it.

    Attributes:
        player: The player id.
        team: Its team.
        frags: Opponents it downed with its own shots.
        down_tick: The tick it went down, or None.
        result: won, lost or draw once the match is over; None while it runs.
        score: The result's score (RESULT_SCORES), 0 while it runs.
        goals: Its team's figure of each team objective (world.match.goals: hold time,
            captures, escorted player standing), by measure; empty without objectives.
    """

    player: str
    team: str
    frags: int
    down_tick: int | None
    result: Result | None
    score: float
    goals: tuple[tuple[str, float], ...] = ()

    def to_dict(self) -> dict[str, object]:
        """Plain data for records and summaries (`goals` only with team objectives)."""
        row: dict[str, object] = {
            "player": self.player, "team": self.team, "frags": self.frags,
            "down_tick": self.down_tick, "result": self.result, "score": self.score}
        if self.goals:  # a match without team objectives keeps its rows as they were
            row["goals"] = dict(self.goals)
        return row


class MatchJudge:
    """Counts frags and the exit race each tick and says when and how the match ends."""

    def __init__(self, world: MatchWorld) -> None:
        """Judge a match world from its current tick; registered with `attach`."""
        self.world = world
        self.frags = dict.fromkeys(world.player_ids, 0)
        self.down: dict[str, int] = {}
        self.exit_first: str | None = None
        self.over: str | None = None
        # Players whose agents failed (the harness's word, replayed from the record): a
        # team all of whose players forfeited loses, whatever the world says.
        self.forfeited: set[str] = set()
        self.max_ticks = int(world.level.budgets.max_game_seconds * TICKS_PER_SECOND)
        self._seen = len(world.events)
        self.goals = make_goals(world)
        # The teams a goal made win (several: they draw), with `over` its ending.
        self.goal_won: tuple[str, ...] = ()

    @classmethod
    def attach(cls, world: MatchWorld) -> MatchJudge:
        """Create the judge and register it to run at the end of every tick."""
        judge = cls(world)
        world.add_system(JUDGE_NAME, judge, JUDGE_ORDER, judge.state_items)
        return judge

    def update(self, _world: World) -> None:
        """Read the tick's events; end the match when a rule says so."""
        world = self.world
        events = world.events.since(self._seen)
        self._seen = len(world.events)
        rules = world.level.match
        # With escorts, only an escorted player's entry of the exit counts (the goal's).
        teams = world.teams
        exit_area = rules.exit if rules is not None and rules.escort is None else None
        backfire = {e.subject for e in events if e.kind == "fired_back"}
        for e in events:
            if e.kind == "actor_down" and e.subject in teams and e.subject not in self.down:
                self.down[e.subject] = e.tick
                killer = e.other
                if killer in teams and teams[killer] != teams[e.subject] and (
                        killer not in backfire):
                    self.frags[killer] += 1
            elif (e.kind == "area_entered" and e.other == exit_area and e.subject in teams
                  and self.exit_first is None and world.players[e.subject].alive):
                self.exit_first = e.subject
        for goal in self.goals:
            won = goal.update(world)
            # The exit, entered on the same tick, comes first (as it always did).
            if won and self.over is None and not self.goal_won \
                    and self.exit_first is None:
                self.goal_won, self.over = won, goal.ending
        self.end_if_due(world.tick)

    def end_if_due(self, tick: int) -> None:
        """End the match if a rule ends it now (the first reason stays)."""
        if self.over is not None:
            return
        standing = {t for p, t in self.world.teams.items() if p not in self.down}
        if self.exit_first is not None:
            self.over = "exit"
        elif len(standing) <= 1 and len(set(self.world.teams.values())) > 1:
            self.over = "last_standing"
        elif tick >= self.max_ticks:
            self.over = "time"
        elif self.world.ended is not None:
            self.over = "level_ended"

    def stall(self) -> None:
        """End the match because no player can act (every one is down, out or retired)."""
        if self.over is None:
            self.over = "no_one_acting"

    def results(self) -> dict[str, Result] | None:
        """Each team's result (won, lost or draw), or None while the match runs.

        The exit, a team objective met (world.match.goals: teams meeting it on one tick
        draw) or being the last team standing wins outright. Otherwise (time, or no
        one can act) the team with most hold time or captures, then frags, wins; teams
        level at the top draw. A team
        alone (a cooperative match) wins only through the exit. A team whose every
        player forfeited (its agents failed) loses, and the others cannot draw with it.
        """
        if self.over is None:
            return None
        teams = self.world.teams
        every = sorted(set(teams.values()))
        out = {t for t in every if all(p in self.forfeited for p, u in teams.items() if u == t)}
        playing = [t for t in every if t not in out]
        standing = {t for p, t in teams.items() if p not in self.down}
        if self.exit_first is not None and not self.goal_won:
            top = {teams[self.exit_first]}
        elif len(self.goal_won) > 1:
            return {t: "draw" if t in self.goal_won else "lost" for t in every}
        elif self.goal_won:
            top = set(self.goal_won)
        elif self.over == "last_standing" and len(standing) == 1:
            top = standing
        elif len(every) == 1 or not playing:
            top = set()
        elif len(playing) == 1:
            top = set(playing)  # every other team forfeited
        else:
            # The team objectives first, in `GOALS` order, then frags.
            totals = {t: (*(g.tally(t) for g in self.goals),
                          sum(self.frags[p] for p, u in teams.items() if u == t))
                      for t in playing}
            best = max(totals.values())
            top = {t for t, n in totals.items() if n == best}
            if len(top) > 1:
                return {t: "draw" if t in top else "lost" for t in every}
        return {t: "won" if t in top - out else "lost" for t in every}

    def standings(self) -> list[Standing]:
        """Every player's standing, in player order."""
        results = self.results()
        out = []
        for pid, team in self.world.teams.items():
            result = None if results is None else results[team]
            out.append(Standing(pid, team, self.frags[pid], self.down.get(pid), result,
                                RESULT_SCORES[result] if result else 0.0,
                                tuple(goal_figures(self.goals, team).items())))
        return out

    def state_items(self) -> tuple:
        """The judge's state for the state hash."""
        items: tuple = (tuple(self.frags.items()), tuple(sorted(self.down.items())),
                        self.exit_first, self.over)
        if self.goals:  # a match without team objectives hashes as it always did
            items += (self.goal_won, tuple(g.state_items() for g in self.goals))
        return items

    def moved(self) -> tuple[tuple[str, bool], ...]:
        """Objects the goals laid down on the last tick, each with whether it went home."""
        return tuple(row for goal in self.goals for row in goal.moved())
