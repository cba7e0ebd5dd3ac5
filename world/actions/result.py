"""What one macro action did: how it ended, what it cost and what happened meanwhile.

Ids inside a result are level ids. The sentence in `detail` is kept as a template whose
`{name}` fields are ids listed in `refs`, so that whoever shows the result to an agent
can write the ids in its own numbering (`describe(rename)`), never the level's names.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from world.actions.catalog import catalog
from world.sim.events import Event

Point3 = tuple[float, float, float]


def _identity(name: str) -> str:
    return name


@dataclass(frozen=True)
class DoorBlock:
    """A door that stands in the way.

    Attributes:
        door: The door's id.
        state: "closed" or "locked".
        key: Id of the key object a lock needs, if it needs one.
        key_area: Area where that key lies, only when the player could know it.
        panel: Id of the panel that opens the door, if it has one.
    """

    door: str
    state: str
    key: str | None = None
    key_area: str | None = None
    panel: str | None = None

    def to_dict(self, rename: Callable[[str], str | None] = _identity) -> dict[str, Any]:
        """Plain JSON data, ids passed through `rename` (None: not to be named)."""

        def opt(value: str | None) -> str | None:
            return None if value is None else rename(value)

        return {
            "door": rename(self.door),
            "state": self.state,
            "key": opt(self.key),
            "key_area": opt(self.key_area),
            "panel": opt(self.panel),
        }


@dataclass(frozen=True)
class ActionResult:
    """How one macro action ended.

    Attributes:
        action: The action's name (one of `catalog().action_names`).
        args: The arguments it was called with.
        end_reason: One of `catalog().end_reason_names`.
        ticks: Game ticks the action ran (0 when nothing ran).
        distance_moved: Ground distance the player walked, in world units.
        events: World events recorded from the action's first tick to its last.
        adjusted_target: Where a moved target was put (x, y, z), or None.
        adjusted_by: How far the target was moved, in world units (0 when not moved).
        door: The door standing in the way, for door_closed ends.
        detail_template: The plain-words sentence, with `{name}` fields for ids.
        refs: The ids the template's fields stand for.
        capped: Whether an explicit time limit was cut to the cap.
        time_limit_ticks: The time limit the action ran under.
        path: Where the player walked, from the start to the last tick, sampled and
            simplified (`world.actions.trail`); empty when no tick ran. Drawn by pages,
            never shown to the agent.
    """

    action: str
    args: Mapping[str, Any]
    end_reason: str
    ticks: int
    distance_moved: float
    detail_template: str
    events: tuple[Event, ...] = ()
    adjusted_target: Point3 | None = None
    adjusted_by: float = 0.0
    door: DoorBlock | None = None
    refs: Mapping[str, str] = field(default_factory=dict)
    capped: bool = False
    time_limit_ticks: int = 0
    path: tuple[tuple[int, int, int], ...] = ()

    def __post_init__(self) -> None:
        if self.end_reason not in catalog().end_reason_names:
            raise ValueError(f"undeclared end reason {self.end_reason!r}")
        object.__setattr__(self, "args", MappingProxyType(dict(self.args)))
        object.__setattr__(self, "refs", MappingProxyType(dict(self.refs)))

    @property
    def detail(self) -> str:
        """The sentence with level ids written in."""
        return self.describe()

    def describe(self, rename: Callable[[str], str] = _identity) -> str:
        """The sentence with every id passed through `rename`.

        Args:
            rename: Maps a level id to the id the reader knows it by.

        Returns:
            The plain-words sentence.
        """
        return self.detail_template.format_map({k: rename(v) for k, v in self.refs.items()})

    def to_dict(self, rename: Callable[[str], str] = _identity) -> dict[str, Any]:
        """Plain JSON data for the record and the next observation.

        Args:
            rename: Maps a level id to the id the reader knows it by (identity by
                default). Applied to ids in the detail, the door block and events.

        Returns:
            A dict of JSON-serialisable values.
        """

        def opt(value: str | None) -> str | None:
            return None if value is None else rename(value)

        target = self.adjusted_target
        return {
            "action": self.action,
            "args": dict(self.args),
            "end_reason": self.end_reason,
            "ticks": self.ticks,
            "distance_moved": round(self.distance_moved, 2),
            "events": [
                {
                    "tick": e.tick,
                    "kind": e.kind,
                    "subject": rename(e.subject),
                    "other": opt(e.other),
                    "amount": None if e.amount is None or not math.isfinite(e.amount)
                    else e.amount,
                    "detail": e.detail,
                }
                for e in self.events
            ],
            "adjusted_target": None if target is None else [round(c, 2) for c in target],
            "adjusted_by": round(self.adjusted_by, 2),
            "door": None if self.door is None else self.door.to_dict(rename),
            "detail": self.describe(rename),
            "capped": self.capped,
            "time_limit_ticks": self.time_limit_ticks,
            "path": [list(p) for p in self.path],
        }
