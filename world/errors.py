"""Typed errors of the world package, each naming what was wrong and what is allowed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LevelProblem:
    """One problem found in a level file: where it is and what is wrong."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.message}"


class WorldError(Exception):
    """Base class of every error the world raises on purpose."""


class LevelError(WorldError):
    """A level file that cannot be used; carries every problem found, not just the first."""

    def __init__(self, problems: list[LevelProblem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in problems))


class UnknownIdError(WorldError, KeyError):
    """An id that does not exist in this episode."""

    def __init__(self, kind: str, given: object, allowed: list[str] | tuple[str, ...]):
        self.kind, self.given, self.allowed = kind, given, tuple(allowed)
        shown = ", ".join(self.allowed[:20]) + (" ..." if len(self.allowed) > 20 else "")
        super().__init__(f"no {kind} with id {given!r}; known {kind} ids: {shown or 'none'}")

    def __str__(self) -> str:
        return str(self.args[0])


class InvalidRequestError(WorldError, ValueError):
    """A call the world refuses: the message names the value and what is allowed."""
