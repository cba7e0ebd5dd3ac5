r"""The JSON Schema validator every schema of the project is checked with.

JSON Schema's `pattern` is an ECMA-262 regular expression, where `$` matches only at the
end of the string. Python's `re`, which jsonschema hands the pattern to, lets `$` match
before a final newline as well, so `"2604\n"` would pass `^[0-9]{1,12}$`: an agent's
argument or a level author's field that the schema means to refuse. The validator here
reads an unescaped `$` outside a character class as the end of the string (`\Z`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators


@cache
def ecma_anchored(pattern: str) -> re.Pattern[str]:
    """The pattern compiled with `$` (unescaped, outside a class) meaning end of string."""
    out, escaped, in_class = [], False, False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        elif char == "$" and not in_class:
            out.append(r"\Z")
            continue
        out.append(char)
    return re.compile("".join(out))


def _pattern(validator: Any, pattern: str, instance: Any,
             schema: dict[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not ecma_anchored(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


# Draft 2020-12 with the pattern keyword as the schemas mean it.
SchemaValidator = validators.extend(Draft202012Validator, {"pattern": _pattern})
