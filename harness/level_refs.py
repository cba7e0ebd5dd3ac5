"""Level references, which every command resolves here.

A reference is a shipped level id, a level file, a generated name
`TEMPLATE@SEED[?name=value&...]` (world/generate), or a Doom mission `doom:NAME`
(world/doom/tasks; played on ViZDoom).

A generated level is built once and carried whole: the record's header stores its content
and what produced it, so replay and pages never run the generator again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from world.face import (
    DOOM_EXTRA_MESSAGE,
    LEVELS_DIR,
    TEMPLATES,
    GenerateError,
    Level,
    LevelError,
    WorldError,
    check_level,
    doom_available,
    generate,
    is_doom,
    is_generated,
    load_mission,
    parse_level,
    parse_names,
    read_level_json,
)


class UsageError(Exception):
    """A mistake in what was asked for (unknown level or difficulty, unusable agent)."""


@dataclass(frozen=True)
class ResolvedLevel:
    """A checked level and where it came from.

    Attributes:
        level: The level.
        source: The file's absolute path, or the canonical generated name.
        generated: For a generated level, what produced it (name, template, seed,
            params, generator_version) and its content under `level`; else None.
    """

    level: Level
    source: str
    generated: dict[str, Any] | None = None


def shipped_ids() -> list[str]:
    """The ids of the shipped levels, sorted."""
    return sorted(p.stem for p in LEVELS_DIR.glob("*.json"))


def resolve(ref: str) -> ResolvedLevel:
    """Load and check the level a reference names.

    Raises:
        UsageError: No such level or template, bad parameters, or a level `harness check`
            rejects (its messages).
    """
    if is_doom(ref):
        if not doom_available():
            raise UsageError(DOOM_EXTRA_MESSAGE)
        try:
            mission = load_mission(ref)
        except WorldError as exc:
            raise UsageError(str(exc)) from exc
        return ResolvedLevel(mission, mission.id)  # type: ignore[arg-type]
    if is_generated(ref) and not Path(ref).is_file():
        try:
            made = generate(ref)
        except GenerateError as exc:
            raise UsageError(str(exc)) from exc
        generated = {**made.origin(), "level": made.data}
        return ResolvedLevel(_checked(ref, made.data, made.name), made.name, generated)
    path = Path(ref)
    if not path.is_file():
        candidate = LEVELS_DIR / f"{ref}.json"
        if not candidate.is_file():
            raise UsageError(f"no level {ref!r}: not a file, not a level id (known: "
                             f"{', '.join(shipped_ids()) or 'none'}) and not a generated "
                             f"name TEMPLATE@SEED (templates: {', '.join(TEMPLATES)})")
        path = candidate
    try:
        data = read_level_json(path)
    except LevelError as exc:
        raise UsageError(f"level {ref!r} is not valid:\n{exc}") from exc
    return ResolvedLevel(_checked(ref, data, str(path)), str(path.resolve()))


def _checked(ref: str, data: Any, file: str) -> Level:
    # The same checks as `harness check`, on the level loaded once.
    try:
        level = parse_level(data, file)
    except LevelError as exc:
        raise UsageError(f"level {ref!r} is not valid:\n{exc}") from exc
    report = check_level(level, file=file)
    if not report.ok:
        found = "\n".join(str(p) for p in report.problems)
        raise UsageError(f"level {ref!r} is not valid:\n{found}")
    return level


def from_header(header: dict[str, Any]) -> ResolvedLevel:
    """The level a record's header names.

    Its stored generated content when it has one, else its file when that is still
    there, else its id.

    Raises:
        UsageError: The level cannot be found or is no longer valid.
    """
    generated = header.get("generated")
    if isinstance(generated, dict):
        name = str(generated.get("name", header.get("level", "")))
        return ResolvedLevel(_checked(name, generated.get("level"), name), name, generated)
    source = str(header.get("level_source") or "")
    if is_doom(source):
        return resolve(source)
    return resolve(source if source and Path(source).is_file() else str(header.get("level", "")))


def expand(refs: list[str]) -> list[str]:
    """Expand ranges (`maze@0-99`) into one generated name per seed; other refs stay.

    Raises:
        UsageError: A generated name that cannot be parsed.
    """
    out: list[str] = []
    for ref in refs:
        if is_generated(ref) and not Path(ref).is_file():
            try:
                out.extend(n.text() for n in parse_names(ref, TEMPLATES))
            except GenerateError as exc:
                raise UsageError(str(exc)) from exc
        else:
            out.append(ref)
    return out
