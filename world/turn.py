"""One turn of an episode, as the world plays it: the contract every driver steps through.

A driver (the live episode, replay, snapshots, the stepwise chain, the Gymnasium
environments) holds a `Session` and calls `step(action)` once per turn. The world runs
the action or refuses it (a `WorldFault`: an unknown id or a refused request, and the
world is exactly as it was), then builds the view of the moment after it, judges the
mission and hashes its state, and hands all of it back as one `Turn`. A session's
first turn (`turn`, the moment before any action) is built before its first step, so
no driver has to ask for a view before acting: building the view is where the player
takes in what it sees, which the next action plans with, and it happens inside the
step, once per moment.

A session may be lean (`Stepping.lean`, the Raw environment's, which steps the world a
few ticks at a time and reads arrays, not views): its turns build the view, the status,
the state hash and the result only when first asked, and only while the session is still
at that moment (`Later`); asked after the next step, they refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from world.errors import InvalidRequestError, UnknownIdError, WorldError
from world.observe.status import GameStatus

if TYPE_CHECKING:
    from world.objectives.score import MissionReport

# The world's refusals of an action and the fault code each is reported under, declared
# once (the protocol's error codes hold the same names).
FAULT_CODES: Mapping[type[WorldError], str] = MappingProxyType({
    UnknownIdError: "unknown_id",
    InvalidRequestError: "refused_request",
})
_REFUSALS = tuple(FAULT_CODES)


@dataclass(frozen=True)
class WorldFault:
    """An action the world refused: its code (`FAULT_CODES`) and message, in episode ids."""

    code: str
    message: str

    @classmethod
    def of(cls, error: WorldError) -> WorldFault:
        """The fault of one of the world's refusals."""
        code = next(c for kind, c in FAULT_CODES.items() if isinstance(error, kind))
        return cls(code, str(error))


T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Later(Generic[T_co]):
    """A part of a lean session's turn, built when first asked (see the module docstring)."""

    __slots__ = ("_build",)

    def __init__(self, build: Callable[[], T_co]) -> None:
        self._build = build

    def build(self) -> T_co:
        """The part, built now (`RuntimeError` once the session has moved on)."""
        return self._build()


@dataclass(frozen=True)
class Turn:
    """One moment of an episode, after the step that led to it.

    Attributes (`view`, `status`, `state_hash` and `result` are properties: a lean
    session's turn builds them when first asked):
        tick: Game ticks since the start.
        view: The structured view of the moment (plain data, episode ids only).
        status: The mission as the world judges it (the summary's figures).
        state_hash: The digest of everything that decides what happens next.
        result: The executed action's result (plain data, episode ids), or None when
            no action ran (the first turn, a turn without an action, a refusal).
        fault: The world's refusal of the action, or None.
        report: The mission report the player may see (the view's and a reward's
            figures); None for a world that has none (Doom).
        raw: The raw-control track's observation arrays of the moment (player,
            objectives, their mask, rays); None on other tracks.
    """

    tick: int
    view_: dict[str, Any] | Later[dict[str, Any]]
    status_: GameStatus | Later[GameStatus]
    state_hash_: str | Later[str]
    result_: dict[str, Any] | Later[dict[str, Any]] | None = None
    fault: WorldFault | None = None
    report: MissionReport | None = None
    raw: Mapping[str, Any] | None = None

    def _part(self, name: str, value: T | Later[T]) -> T:
        if isinstance(value, Later):
            value = value.build()
            object.__setattr__(self, name, value)  # built once: the turn stays one moment
        return value

    @property
    def view(self) -> dict[str, Any]:
        """The structured view of the moment."""
        return self._part("view_", self.view_)

    @property
    def status(self) -> GameStatus:
        """The mission as the world judges it."""
        return self._part("status_", self.status_)

    @property
    def state_hash(self) -> str:
        """The digest of everything that decides what happens next."""
        return self._part("state_hash_", self.state_hash_)

    @property
    def result(self) -> dict[str, Any] | None:
        """The executed action's result, or None."""
        return self._part("result_", self.result_)


class Session(Protocol):
    """One episode's world, as every driver sees it: one `step` per turn."""

    @property
    def tick(self) -> int:
        """Game ticks since the start."""
        ...

    @property
    def turn(self) -> Turn:
        """The latest turn: the start's before any step, then the last step's."""
        ...

    def step(self, action: Mapping[str, Any] | None) -> Turn:
        """Play one turn: run `{"action", "arguments"}` (None: no action), then look.

        A refusal is the turn's `fault`, never an exception; the world is unchanged.
        """
        ...

    def plan(self) -> dict[str, Any]:
        """The level as a page draws it, in the map's own ids (a record header's `map`).

        Derived from the level, difficulty and episode key alone; never shown to the agent.
        """
        ...

    def ids_given(self) -> dict[str, str]:
        """Every episode id handed out so far and the map's id of the same thing.

        Never shown to the agent.
        """
        ...


class Stepping:
    """`step` and `turn` for a session that can act, view, judge and hash (a mixin).

    A subclass gives `tick`, `act(action, arguments)` (raising `UnknownIdError` or
    `InvalidRequestError` when it refuses), `view()`, `status()` and `state_hash()`;
    `seen_report()` may give the report its last view was built from, `raw_arrays` the
    raw track's arrays. A lean one (`lean`) gives `lean_report()`, the report without a
    view, and may put off writing its result (`_act` returning a `Later`).
    """

    _turn: Turn | None = None
    # A lean session builds its turns' view, status, hash and result when first asked.
    lean: bool = False
    # Steps played so far: a lean turn's parts are built only while it is the latest.
    _moment: int = 0

    @property
    def turn(self) -> Turn:
        """The latest turn (the start's is built when first needed, before any action)."""
        if self._turn is None:
            self._turn = self._look(None, None)
        return self._turn

    def step(self, action: Mapping[str, Any] | None) -> Turn:
        """Play one turn (see `Session.step`)."""
        self.turn  # noqa: B018  the start is looked at before the first action
        done: dict[str, Any] | Callable[[], dict[str, Any]] | None = None
        fault = None
        if action is not None:
            try:
                done = self._act(str(action["action"]), dict(action["arguments"]))
            except _REFUSALS as exc:
                fault = WorldFault.of(exc)
        # The next moment begins once the action ran or was refused: an action that
        # raised (a caller's malformed input) leaves the latest turn as it was.
        self._moment += 1
        result = self.later(done) if callable(done) else done
        self._turn = self._look(result, fault)
        return self._turn

    def _act(self, action: str, arguments: dict[str, Any]
             ) -> dict[str, Any] | Callable[[], dict[str, Any]]:
        # A lean session may run the action now and write its result when asked.
        return self.act(action, arguments)

    def later(self, build: Callable[[], T]) -> Later[T]:
        """`build` put off until asked, refused once this session has stepped on."""
        moment = self._moment

        def built() -> T:
            if self._moment != moment:
                raise RuntimeError("a lean turn's view, status, hash and result are built "
                                   "only before the next step: ask for them then")
            return build()

        return Later(built)

    def _look(self, result: dict[str, Any] | Later[dict[str, Any]] | None,
              fault: WorldFault | None) -> Turn:
        if self.lean:
            report = self.lean_report()
            return Turn(self.tick, self.later(self.view), self.later(self.status),
                        self.later(self.state_hash), result, fault, report,
                        self.raw_arrays(report))
        view = self.view()
        report = self.seen_report()
        return Turn(self.tick, view, self.status(), self.state_hash(), result, fault,
                    report, self.raw_arrays(report))

    def raw_arrays(self, report: MissionReport | None) -> Mapping[str, Any] | None:
        """The raw-control track's arrays of the moment, from its report (None: no such track)."""
        return None

    def lean_report(self) -> MissionReport | None:
        """A lean turn's report, built without its view (None: the world has none)."""
        return None

    def seen_report(self) -> MissionReport | None:
        """The report the last view was built from (None: the world has none)."""
        return None

    # What a subclass provides (declared for the type checker).
    tick: Any

    def act(self, action: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Execute one action given in episode ids; its result in episode ids."""
        raise NotImplementedError

    def view(self) -> dict[str, Any]:
        """Build the structured view now (what the player learns from it is remembered)."""
        raise NotImplementedError

    def status(self) -> GameStatus:
        """The mission status now."""
        raise NotImplementedError

    def state_hash(self) -> str:
        """A digest of everything that determines what happens next."""
        raise NotImplementedError
