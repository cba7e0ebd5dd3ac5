"""Level references, which every command resolves here.

A reference is a shipped level id, a level file, a generated name
`TEMPLATE@SEED[?name=value&...]` (world/generate), a level of a secret held-out set
`TEMPLATE@secret:N[?name=value&...]#I` (the I-th of N levels whose seeds are drawn from
the harness's secret, harness/core/keys.py), or a Doom mission `doom:NAME` (world/doom/tasks;
played on ViZDoom).

A generated level played with a secret gets an id drawn from it (`TEMPLATE_<token>`),
which names neither its seed nor its parameters.

A generated level is built once and carried whole: the record's header stores its content
and what produced it, so replay and pages never run the generator again.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.core.keys import SecretError, level_token, parse_secret, set_seeds
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
    parse_name,
    parse_names,
    read_level_json,
)

_SECRET_SET = re.compile(r"^(?P<template>[^@?#/]+)@secret:(?P<count>[^?#]*)"
                         r"(?:\?(?P<query>[^#]*))?(?:#(?P<index>.*))?$")
MAX_SET = 100_000  # levels one secret set may hold, as many as a range TEMPLATE@A-B


class UsageError(Exception):
    """A mistake in what was asked for (unknown level or difficulty, unusable agent)."""


def given_secret(text: str | None) -> bytes | None:
    """The secret a `--secret` flag gives (hex, or a file holding it); None without one.

    Raises:
        UsageError: Neither a secret nor a file holding one.
    """
    try:
        return None if text is None else parse_secret(text)
    except SecretError as exc:
        raise UsageError(str(exc)) from None


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


def resolve(ref: str, secret: bytes | None = None) -> ResolvedLevel:
    """Load and check the level a reference names.

    Args:
        ref: A level id, file, generated name, secret-set level or Doom mission.
        secret: The harness's secret: a generated level's id is drawn from it, and a
            secret set's seeds. Without it a generated level keeps its public id
            (`harness check`, `harness generate`) and a secret set cannot be drawn.

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
        member = secret_member(ref)
        try:
            name = parse_name(ref if member is None else _member_name(member, secret), TEMPLATES)
            made = generate(name, None if secret is None
                            else f"{name.template}_{level_token(secret, name.text())}")
        except GenerateError as exc:
            raise UsageError(str(exc)) from exc
        generated = {**made.origin(), "level": made.data}
        if member is not None:  # the set and the index name it; its seed stays secret
            del generated["seed"]
            generated.update(name=member.text(), set={"name": member.set_name,
                                                      "index": member.index})
        return ResolvedLevel(_checked(ref, made.data, generated["name"]),
                             str(generated["name"]), generated)
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
    """Expand ranges and secret sets into one name per level; other refs stay.

    `maze@0-99` gives one generated name per seed, `maze@secret:100` one per index
    (`maze@secret:100#0` ...).

    Raises:
        UsageError: A generated name that cannot be parsed.
    """
    out: list[str] = []
    for ref in refs:
        if _SECRET_SET.match(ref):
            member = secret_member(ref, whole=True)
            assert member is not None
            out.extend(SecretMember(member.template, member.count, member.params, i).text()
                       for i in range(member.count))
        elif is_generated(ref) and not Path(ref).is_file():
            try:
                out.extend(n.text() for n in parse_names(ref, TEMPLATES))
            except GenerateError as exc:
                raise UsageError(str(exc)) from exc
        else:
            out.append(ref)
    return out


@dataclass(frozen=True)
class SecretMember:
    """One level of a secret held-out set: the set (template, size, parameters), an index."""

    template: str
    count: int
    params: str  # the canonical parameters, as a generated name writes them after '?'
    index: int

    @property
    def set_name(self) -> str:
        """The set's name, as results and pages show it."""
        return f"{self.template}@secret:{self.count}" + (f"?{self.params}" if self.params else "")

    def text(self) -> str:
        """The level's public name: the set's and its index."""
        return f"{self.set_name}#{self.index}"


def secret_member(ref: str, whole: bool = False) -> SecretMember | None:
    """The secret-set level a reference names (None: not a secret set).

    Args:
        ref: `TEMPLATE@secret:N[?...]#I`.
        whole: The reference names the whole set, `TEMPLATE@secret:N[?...]`, instead
            (index 0 returned).

    Raises:
        UsageError: A malformed size or index, or a template or parameter that cannot be
            used.
    """
    match = _SECRET_SET.match(ref)
    if match is None:
        return None
    count_text, index_text = match["count"], match["index"]
    form = "TEMPLATE@secret:N[?name=value&...]" + ("" if whole else "#INDEX")
    if not count_text.isdigit() or not 1 <= int(count_text) <= MAX_SET:
        raise UsageError(f"{ref!r}: a secret set is {form}, N a size from 1 to {MAX_SET}")
    count = int(count_text)
    if whole != (index_text is None):
        raise UsageError(f"{ref!r}: " + ("name the whole set here, without #INDEX" if whole
                                         else f"a level of a secret set is {form}"))
    index = 0 if index_text is None else int(index_text) if index_text.isdigit() else -1
    if not 0 <= index < count:
        raise UsageError(f"{ref!r}: the index {index_text!r} is not a whole number from 0 "
                         f"to {count - 1}")
    query = f"?{match['query']}" if match["query"] is not None else ""
    try:  # the parameters checked and written as a generated name writes them
        probe = parse_name(f"{match['template']}@0{query}", TEMPLATES)
    except GenerateError as exc:
        raise UsageError(str(exc)) from exc
    return SecretMember(probe.template, count, probe.text().partition("?")[2], index)


def _member_name(member: SecretMember, secret: bytes | None) -> str:
    if secret is None:
        raise UsageError(f"{member.text()!r}: a secret set's levels are drawn from the "
                         "harness's secret: play it with harness eval (the suite's secret) "
                         "or harness run --secret")
    seed = _set_seeds(secret, member.template, member.params, member.count)[member.index]
    return f"{member.template}@{seed}" + (f"?{member.params}" if member.params else "")


@functools.lru_cache(maxsize=16)
def _set_seeds(secret: bytes, template: str, params: str, count: int) -> list[int]:
    # A set is drawn whole once per process, not once per level.
    return set_seeds(secret, template, params, count)


def member_seed(ref: str, secret: bytes) -> int | None:
    """The level seed of a secret-set level (None: not one); for an operator who asks."""
    member = secret_member(ref)
    if member is None:
        return None
    return _set_seeds(secret, member.template, member.params, member.count)[member.index]
