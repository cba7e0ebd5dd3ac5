"""The match's team objectives beyond frags and the exit: a zone, captures, escorts.

Each is a rule of the level's `match` block (`MatchRules.hold`, `.capture`, `.escort`),
declared once in `GOAL_KINDS` with the endings it wins by, the sentence a player
reads and the figure a record's standings give of it, and judged by its class in `GOALS`.
The match judge (world.match.judge) runs every goal at the end of each tick, from the
world's state alone (who stands where, alive; who holds which flag), so replaying a
match's actions re-derives every hold time and capture; each goal's state is in the
judge's part of the state hash.

Sides are the teams in the order of their first player (p1's team is side 0): a
capture level names one base (and one flag, or one shared flag) per side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from world.errors import InvalidRequestError
from world.level.model import CaptureRule, EscortRule, HoldRule, Level
from world.sim.clock import TICKS_PER_SECOND

if TYPE_CHECKING:
    from world.match.world import MatchWorld
    from world.observe.ids import IdMap
    from world.observe.knowledge import Knowledge


class Goal(Protocol):
    """One team objective of a match, judged every tick."""

    field: str  # its field of the match block, its key in GOAL_KINDS
    ending: str

    def update(self, world: MatchWorld) -> tuple[str, ...]:
        """Judge this tick; the teams that have just met it (several: they draw)."""

    def tally(self, team: str) -> float:
        """A team's measure at the time budget (more is better; frags break ties)."""

    def figure(self, team: str) -> float:
        """A team's measure as the standings give it (its kind's `measure`)."""

    def moved(self) -> tuple[tuple[str, bool], ...]:
        """Objects laid down this tick, each with whether it went home.

        Home, every player knows it is there, as the rules say; elsewhere, it is known
        once seen there.
        """

    def state_items(self) -> tuple:
        """The goal's state for the state hash."""

    def row(self, world: MatchWorld, pid: str, ids: IdMap, known: Knowledge) -> dict[str, Any]:
        """The player's objective row for its view (PROTOCOL.md, "Zones and captures")."""


@dataclass(frozen=True)
class GoalKind:
    """A match rule: the endings it wins by, each with its sentence; what the view says.

    `measure` names the team's figure in a record's standings (a standing's `goals`),
    `label` the same figure's heading on a page or a terminal line.
    """

    endings: dict[str, str]
    sentence: str
    measure: str
    label: str


# The team objectives, keyed by their field of the match block (declared once: the
# judge's endings, the view's rows and PROTOCOL.md's wording come from here).
GOAL_KINDS: dict[str, GoalKind] = {
    "hold": GoalKind(
        {"zone_held": "a team held the zone for the hold time"},
        "Hold {zone}: your side alone in it for {seconds:g} s of game time wins; while a "
        "rival is in it too it counts for nobody.",
        "hold_s", "hold time (s)"),
    "capture": GoalKind(
        {"captures": "a team made the captures that win"},
        "Carry {flag} into {base}: {to_win} capture(s) win. A downed carrier drops the "
        "flag where it fell; your own flag, touched by your side, goes home.",
        "captures", "captures"),
    "escort": GoalKind(
        {"escort_out": "an escorted player reached the exit alive",
         "escort_down": "an escorted player went down, leaving one side's or none"},
        "Bring {who} into {exit} alive: then your side wins; if {pronoun} goes down, your "
        "side loses. Only an escorted player's entry counts.",
        "escorted_standing", "escorted player standing (1 yes, 0 no)"),
}


# A standing's goal figure -> its heading (derived: pages and terminal lines use it).
MEASURE_LABELS = {kind.measure: kind.label for kind in GOAL_KINDS.values()}


def sides(teams: dict[str, str]) -> dict[str, int]:
    """Each team's side number: teams in the order of their first player."""
    out: dict[str, int] = {}
    for team in teams.values():
        out.setdefault(team, len(out))
    return out


def teams_problem(level: Level, teams: tuple[str, ...]) -> str | None:
    """Why these teams (one per player, in order) cannot play the level's goals, or None.

    The answer is one line. A capture level needs as many sides as bases; an escort
    level exactly one escorted player on each side.
    """
    rules = level.match
    if rules is None:
        return None
    by_player = {f"p{k}": team for k, team in enumerate(teams, 1)}
    side = sides(by_player)
    if rules.capture is not None and len(side) != len(rules.capture.bases):
        return (f"level {level.id!r}: $.match.capture names {len(rules.capture.bases)} "
                f"bases, one per side, but the match has {len(side)} sides (teams); give "
                f"{len(rules.capture.bases)} teams")
    escorted = [by_player.get(p) for p in rules.escort.players] if rules.escort else []
    if rules.escort is not None and sorted(map(str, escorted)) != sorted(side):
        return (f"level {level.id!r}: $.match.escort names {', '.join(rules.escort.players)}, "
                "but each side (team) needs exactly one escorted player; teams: "
                + ", ".join(f"{p} {t}" for p, t in by_player.items()))
    return None


def _refuse_teams(world: MatchWorld) -> None:
    problem = teams_problem(world.level, tuple(world.teams.values()))
    if problem is not None:
        raise InvalidRequestError(problem)


def _middle(level: Level, area: str) -> tuple[float, float, float]:
    poly = level.area(area).polygon
    return (sum(x for x, _ in poly) / len(poly), level.area_y(area),
            sum(z for _, z in poly) / len(poly))


def _row(world: MatchWorld, ids: IdMap, known: Knowledge, kind: str, text: str,
         area: str | None, targets: list[str], point: bool) -> dict[str, Any]:
    # An objective row as the view's schema has it; the area (and its middle as the
    # point) only once the player knows that area, as for a mission's objectives.
    shown = area if area is not None and area in known.areas else None
    p = world.player
    middle = _middle(world.level, shown) if shown else None
    return {
        "index": 1, "status": "todo", "min_difficulty": world.level.difficulties[0].id,
        "counts": True, "text": text,
        "area": ids.ep("area", shown) if shown else None,
        "area_name": world.level.area(shown).name if shown else None,
        "distance": round(math.dist((p.x, p.y, p.z), middle), 1) if middle else None,
        "kind": kind, "standing": False, "targets": targets,
        "point": [round(c, 1) for c in middle] if middle and point else None,
        "heading_to": None, "located": bool(shown or targets),
    }


def _score_text(what: str, mine: str, best: str) -> str:
    return f" {what} so far: your side {mine}, the best rival side {best}."


class HoldGoal:
    """King of the hill: a side alone in the zone (live players) gathers hold time."""

    field = "hold"
    kind = "hold_zone"
    ending = "zone_held"

    def __init__(self, world: MatchWorld, rule: HoldRule) -> None:
        """Judge the zone from tick 0: every side starts with no hold time."""
        self.rule = rule
        self.need = max(1, round(rule.seconds * TICKS_PER_SECOND))
        self.held = dict.fromkeys(sides(world.teams), 0)

    def update(self, world: MatchWorld) -> tuple[str, ...]:
        """Add a tick to the side alone in the zone; it wins at the hold time."""
        inside = {world.teams[pid] for pid, actor in world.players.items()
                  if actor.alive and world.actor_area(actor) == self.rule.area}
        if len(inside) != 1:
            return ()  # empty, or contested: nobody's
        team = inside.pop()
        self.held[team] += 1
        return (team,) if self.held[team] >= self.need else ()

    def tally(self, team: str) -> float:
        """Hold ticks."""
        return self.held[team]

    def figure(self, team: str) -> float:
        """Hold time in seconds of game time."""
        return round(self.held[team] / TICKS_PER_SECOND, 2)

    def moved(self) -> tuple[tuple[str, bool], ...]:
        """Nothing moves."""
        return ()

    def state_items(self) -> tuple:
        """Every side's hold ticks."""
        return tuple(self.held.items())

    def row(self, world: MatchWorld, pid: str, ids: IdMap, known: Knowledge) -> dict[str, Any]:
        """The zone (its place once known) and every side's hold time, as a scoreboard."""
        team = world.teams[pid]
        best = max((n for t, n in self.held.items() if t != team), default=0)
        zone = world.level.area(self.rule.area).name
        text = GOAL_KINDS["hold"].sentence.format(zone=zone, seconds=self.rule.seconds)
        text += _score_text("Hold time", f"{self.held[team] / TICKS_PER_SECOND:.1f} s",
                            f"{best / TICKS_PER_SECOND:.1f} s")
        return _row(world, ids, known, self.kind, text, self.rule.area, [], True)


class CaptureGoal:
    """Captures: an opposing (or the shared) flag carried into a side's own base scores."""

    field = "capture"
    kind = "capture_flag"
    ending = "captures"

    def __init__(self, world: MatchWorld, rule: CaptureRule) -> None:
        """Every flag at home, no captures yet.

        Raises:
            InvalidRequestError: when the match has another number of sides than bases.
        """
        _refuse_teams(world)
        self.rule, self.world = rule, world
        self.side = sides(world.teams)
        self.captures = dict.fromkeys(self.side, 0)
        self.home = {fid: (o.x, o.z, o.storey, o.area) for fid in rule.flags
                     for o in (world.objects[fid],)}
        self._moved: list[tuple[str, bool]] = []

    def owner(self, flag: str) -> int | None:
        """The side a flag belongs to, or None for the one shared flag."""
        return self.rule.flags.index(flag) if len(self.rule.flags) > 1 else None

    def update(self, world: MatchWorld) -> tuple[str, ...]:
        """Drop the flags of downed carriers, send touched own flags home, count captures.

        Sides reaching the captures that win on the same tick draw.
        """
        self._moved = []
        won: list[str] = []
        for fid in self.rule.flags:
            obj = world.objects[fid]
            actor = world.players.get(obj.holder or "")
            if actor is None:
                continue
            team = world.teams[actor.id]
            side = self.side[team]
            if not actor.alive:
                area = world.actor_area(actor) or actor.area
                self._lay(world, fid, (actor.x, actor.z, actor.storey, area), actor)
            elif self.owner(fid) == side:
                self._lay(world, fid, self.home[fid], actor)
            elif world.actor_area(actor) == self.rule.bases[side]:
                self.captures[team] += 1
                self._lay(world, fid, self.home[fid], actor)
                if self.captures[team] >= self.rule.to_win and team not in won:
                    won.append(team)
        return tuple(won)

    def _lay(self, world: MatchWorld, fid: str, place: tuple, holder: Any) -> None:
        self._moved.append((fid, place == self.home[fid]))
        x, z, storey, area = place
        world.items.move(world.objects[fid], x, z, storey, area, holder)

    def tally(self, team: str) -> float:
        """Captures."""
        return self.captures[team]

    def figure(self, team: str) -> float:
        """Captures."""
        return self.captures[team]

    def moved(self) -> tuple[tuple[str, bool], ...]:
        """The flags laid down this tick: sent home (True) or dropped (False)."""
        return tuple(self._moved)

    def state_items(self) -> tuple:
        """Every side's captures and every flag's place and holder."""
        flags = tuple((fid, o.x, o.z, o.storey, o.holder, o.present)
                      for fid in self.rule.flags for o in (self.world.objects[fid],))
        return tuple(self.captures.items()), flags

    def row(self, world: MatchWorld, pid: str, ids: IdMap, known: Knowledge) -> dict[str, Any]:
        """What to take and where to bring it, as far as the player knows; the captures.

        Targets: the flags that would score, then the player's own side's flag when it
        was last seen away from home, each once known and not seen taken; none while the
        player carries a flag that scores (the row's point is then its base's middle).
        """
        team = world.teams[pid]
        side = self.side[team]
        base = self.rule.bases[side]
        scoring = [f for f in self.rule.flags if self.owner(f) != side]
        carrying = [f for f in scoring if world.objects[f].holder == pid]
        own = [f for f in self.rule.flags if self.owner(f) == side
               and (world.objects[f].x, world.objects[f].z) != self.home[f][:2]]
        targets = [] if carrying else [
            ids.ep("object", f) for f in scoring + own
            if f in known.objects and f not in known.gone and world.objects[f].holder != pid]
        names = " or ".join(world.level.object(f).name or f for f in scoring)
        text = GOAL_KINDS["capture"].sentence.format(
            flag=names, base=world.level.area(base).name, to_win=self.rule.to_win)
        best = max((n for t, n in self.captures.items() if t != team), default=0)
        text += _score_text("Captures", str(self.captures[team]), str(best))
        if carrying:
            text += f" You carry {ids.ep('object', carrying[0])}: take it to your base."
        return _row(world, ids, known, self.kind, text, base, targets, bool(carrying))


class EscortGoal:
    """Escorts: a side wins when its escorted player enters the exit alive, loses when down."""

    field = "escort"
    kind = "escort_player"

    def __init__(self, world: MatchWorld, rule: EscortRule) -> None:
        """Every escorted player standing; one per side.

        Raises:
            InvalidRequestError: when a side has no escorted player or more than one.
        """
        _refuse_teams(world)
        self.escorted = {world.teams[p]: p for p in rule.players}  # team -> its escorted
        assert world.level.match is not None and world.level.match.exit is not None
        self.exit = world.level.match.exit
        self.down: set[str] = set()  # teams whose escorted player went down
        self.ending = "escort_out"

    def update(self, world: MatchWorld) -> tuple[str, ...]:
        """The sides whose escorted player is in the exit alive, or the one side left."""
        out = []
        for team, pid in self.escorted.items():
            actor = world.players[pid]
            if not actor.alive:
                self.down.add(team)
            elif world.actor_area(actor) == self.exit:
                out.append(team)
        if out:
            self.ending = "escort_out"
            return tuple(out)
        left = [t for t in self.escorted if t not in self.down]
        if len(left) <= 1 and self.down:
            self.ending = "escort_down"
            return tuple(left) or tuple(self.escorted)  # every one down: all draw
        return ()

    def tally(self, team: str) -> float:
        """1 while the side's escorted player stands."""
        return 0 if team in self.down else 1

    def figure(self, team: str) -> float:
        """1 while the side's escorted player stands, 0 once it went down."""
        return self.tally(team)

    def moved(self) -> tuple[tuple[str, bool], ...]:
        """Nothing moves."""
        return ()

    def state_items(self) -> tuple:
        """The sides whose escorted player went down."""
        return tuple(sorted(self.down))

    def row(self, world: MatchWorld, pid: str, ids: IdMap, known: Knowledge) -> dict[str, Any]:
        """Who to bring out and where; targets the escorted teammate once seen."""
        vip = self.escorted[world.teams[pid]]
        mine = vip == pid
        who = "yourself" if mine else f"your side's escorted player ({vip})"
        text = GOAL_KINDS["escort"].sentence.format(
            who=who, exit=world.level.area(self.exit).name, pronoun="you" if mine else "it")
        if mine:
            text += " You are your side's escorted player."
        targets = [] if mine or vip not in known.characters else [ids.ep("character", vip)]
        return _row(world, ids, known, self.kind, text, self.exit, targets, True)


# Match block field -> the goal that judges it (each class names its field).
GOALS: dict[str, Any] = {cls.field: cls for cls in (HoldGoal, CaptureGoal, EscortGoal)}


def goal_figures(goals: tuple[Goal, ...], team: str) -> dict[str, float]:
    """A team's figure of every goal, by its kind's `measure`, in `GOALS` order."""
    return {GOAL_KINDS[g.field].measure: g.figure(team) for g in goals}


def make_goals(world: MatchWorld) -> tuple[Goal, ...]:
    """The goals the world's level declares, in `GOALS` order."""
    rules = world.level.match
    if rules is None:
        return ()
    return tuple(GOALS[name](world, getattr(rules, name)) for name in GOALS
                 if getattr(rules, name) is not None)
