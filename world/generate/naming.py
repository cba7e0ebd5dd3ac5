"""Generated level names: `TEMPLATE@SEED[?name=value&...]`, and ranges `TEMPLATE@A-B[?...]`.

A name is accepted wherever a level id is. Parameter values are text on the command line;
each is read as its declared type and the whole set checked against the template's
schema, so every mistake names the template, the parameter and what is allowed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

from world.generate.template import Template, describe_param

_NAME = re.compile(r"^(?P<template>[^@?]*)@(?P<seeds>[^?]*)(?:\?(?P<query>.*))?$")
# Level seeds span 63 bits: a secret set draws from all of them, so tabulating every
# level a template makes (a millisecond each) to recognise one from its first view is
# out of reach.
MAX_SEED = 2**63 - 1
MAX_RANGE = 100_000  # seeds one range may name


class GenerateError(ValueError):
    """A generated level name or parameter that cannot be used (the message says why)."""


@dataclass(frozen=True)
class GeneratedName:
    """One parsed generated level name: a template, a seed and the parameters given."""

    template: str
    seed: int
    params: tuple[tuple[str, Any], ...]  # given ones only, sorted by name

    def text(self) -> str:
        """The canonical name (parameters sorted, values as JSON)."""
        query = "&".join(f"{k}={_value_text(v)}" for k, v in self.params)
        return f"{self.template}@{self.seed}" + (f"?{query}" if query else "")


def _value_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def is_generated(ref: str) -> bool:
    """Whether a level reference is a generated name rather than an id or a path."""
    return "@" in ref and "/" not in ref and not ref.endswith(".json")


def parse_names(ref: str, templates: dict[str, Template]) -> list[GeneratedName]:
    """Parse `TEMPLATE@SEED[?...]` or `TEMPLATE@A-B[?...]` into one name per seed.

    Raises:
        GenerateError: Unknown template, bad seed or range, or bad parameters.
    """
    match = _NAME.match(ref)
    if match is None:
        raise GenerateError(f"{ref!r}: a generated level is named TEMPLATE@SEED or "
                            "TEMPLATE@FIRST-LAST, optionally followed by ?name=value&...")
    template = template_named(match["template"], templates)
    # A parameter given at its default names the same level as one left out.
    params = tuple((k, v) for k, v in parse_params(template, _query_pairs(ref, match["query"]))
                   if template.params[k]["default"] != v)
    return [GeneratedName(template.name, seed, params)
            for seed in _seeds(ref, match["seeds"])]


def parse_name(ref: str, templates: dict[str, Template]) -> GeneratedName:
    """Parse a name that must name exactly one seed."""
    names = parse_names(ref, templates)
    if len(names) != 1:
        raise GenerateError(f"{ref!r} names {len(names)} seeds; one level needs one seed "
                            "(TEMPLATE@SEED)")
    return names[0]


def template_named(name: str, templates: dict[str, Template]) -> Template:
    """The template of that name, or a GenerateError naming the templates there are."""
    if name not in templates:
        raise GenerateError(f"no template {name!r} (templates: {', '.join(sorted(templates))})")
    return templates[name]


def _query_pairs(ref: str, query: str | None) -> list[str]:
    if query is None:
        return []
    pairs = [p for p in query.split("&") if p]
    if not pairs:
        raise GenerateError(f"{ref!r}: nothing after '?'; give name=value pairs joined by &")
    return pairs


def _seeds(ref: str, text: str) -> list[int]:
    if text.startswith("secret:"):
        raise GenerateError(f"{ref!r}: a secret held-out set's seeds are drawn from the "
                            "harness's secret: harness eval plays it (harness run --secret "
                            "plays one of its levels, TEMPLATE@secret:N#INDEX)")
    parts = text.split("-")
    if len(parts) not in (1, 2) or not all(p.isdigit() for p in parts):
        raise GenerateError(f"{ref!r}: the seed {text!r} is not a whole number from 0 to "
                            f"{MAX_SEED} or a range FIRST-LAST of them")
    low, high = int(parts[0]), int(parts[-1])
    if high > MAX_SEED:
        raise GenerateError(f"{ref!r}: seed {high} is above {MAX_SEED}")
    if high < low:
        raise GenerateError(f"{ref!r}: the range {text!r} ends before it starts")
    if high - low + 1 > MAX_RANGE:
        raise GenerateError(f"{ref!r}: the range names {high - low + 1} seeds; at most "
                            f"{MAX_RANGE} at once")
    return list(range(low, high + 1))


def parse_params(template: Template, pairs: list[str]) -> tuple[tuple[str, Any], ...]:
    """Read `name=value` texts as the template declares them and check them.

    Raises:
        GenerateError: A malformed pair, an unknown or repeated name, or a value outside
            what the parameter allows; the message lists the template's parameters.
    """
    allowed = "; ".join(describe_param(k, v) for k, v in template.params.items()) or "none"
    given: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise GenerateError(f"template {template.name!r}: parameter {pair!r} is not "
                                f"name=value (parameters: {allowed})")
        if name not in template.params:
            raise GenerateError(f"template {template.name!r} has no parameter {name!r} "
                                f"(parameters: {allowed})")
        if name in given:
            raise GenerateError(f"template {template.name!r}: parameter {name!r} is given twice")
        given[name] = _typed(template, name, text, allowed)
    errors = sorted(Draft202012Validator(template.schema()).iter_errors(given),
                    key=lambda e: list(map(str, e.path)))
    if errors:
        where = ".".join(map(str, errors[0].path)) or "parameters"
        raise GenerateError(f"template {template.name!r}: {where}: {errors[0].message} "
                            f"(parameters: {allowed})")
    return tuple(sorted(given.items()))


def _typed(template: Template, name: str, text: str, allowed: str) -> Any:
    kind = template.params[name].get("type")
    try:
        if kind == "integer":
            return int(text)
        if kind == "number":
            value = float(text)
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError(text)
            return int(value) if value.is_integer() else value
        if kind == "boolean":
            return {"true": True, "false": False}[text.lower()]
    except (ValueError, KeyError):
        raise GenerateError(f"template {template.name!r}: parameter {name!r} must be "
                            f"{'true or false' if kind == 'boolean' else 'a ' + str(kind)}, "
                            f"not {text!r} (parameters: {allowed})") from None
    return text
