r"""Bounds on what an agent's text can do to the harness: nesting, quoting, odd characters.

Everything an agent writes is untrusted. These helpers keep it from costing the harness
more than a fixed amount: a line nested deeper than `MAX_DEPTH` is refused before the
recursive parser sees it, an error message quotes at most `QUOTE_CHARS` of any value
and is at most `MESSAGE_CHARS` long, unpaired surrogates (which JSON's `\ud800` escape
can smuggle in) become visible text, and control characters are shown, not emitted,
on pages.
"""

from __future__ import annotations

import re
import zlib
from pathlib import Path
from typing import Any

# Exit status of every command given a file that is not what it should be (a record,
# snapshot, results file, quiz file or level that is unreadable, damaged or over a cap);
# for `harness replay` it is "unusable", never 1 ("diverged").
BAD_INPUT_EXIT = 2
# Deepest nesting of arrays and objects accepted in one agent line (messages use 4).
MAX_DEPTH = 64
# Characters of an offending value quoted in an error message.
QUOTE_CHARS = 200
# Longest error message made from an agent's line; the rest is cut with a marker.
MESSAGE_CHARS = 600

# A JSON string (skipped whole, so brackets inside strings do not count) or a bracket.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_SURROGATE = re.compile("[\ud800-\udfff]")
# Characters HTML calls parse errors or that terminals act on: C0 controls but tab,
# newline and carriage return, DEL, C1 controls, unpaired surrogates, U+FFFE and U+FFFF.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def too_deep(text: str) -> bool:
    """Whether arrays and objects in a JSON text nest deeper than `MAX_DEPTH`, without parsing it.

    Brackets inside strings do not count. On text that is not JSON the answer only has
    to hold for its valid beginning, which is all a parser reads.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif token in "]}":
            depth -= 1
    return False


def quote(value: Any, limit: int = QUOTE_CHARS) -> str:
    """A value's repr for an error message, cut to `limit` characters with its full length.

    Args:
        value: Any value, typically something the agent sent.
        limit: Characters of the repr kept.

    Returns:
        The repr, or its start followed by "...[N characters]".
    """
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}...[{len(text)} characters]"


def cap_message(text: str, limit: int = MESSAGE_CHARS) -> str:
    """An error message cut to `limit` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}...[{len(text)} characters]"


def shorten_quoted(message: str, value: Any) -> str:
    """A library's message about `value` with the value's repr shortened where it appears.

    jsonschema writes the whole offending instance into its messages ("'xxx...' is too
    long"), so a megabyte of notes would become a megabyte of error.
    """
    text = repr(value)
    if len(text) > QUOTE_CHARS and text in message:
        message = message.replace(text, quote(value))
    return cap_message(message)


def _visible_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def clean_strings(data: Any) -> Any:
    r"""Replace unpaired surrogates in every string and key of decoded JSON by `\udxxx` text.

    Such strings cannot be written as UTF-8, so left alone they would break whatever
    writes them next (the record, a page, the next message to the agent).

    Args:
        data: Decoded JSON data.

    Returns:
        The same data with every unpaired surrogate spelt out as six characters.
    """
    if isinstance(data, str):
        return _SURROGATE.sub(_visible_surrogate, data)
    if isinstance(data, list):
        return [clean_strings(v) for v in data]
    if isinstance(data, dict):
        return {clean_strings(k): clean_strings(v) for k, v in data.items()}
    return data


def may_hold_surrogates(text: str) -> bool:
    r"""Whether a JSON text can hold an unpaired surrogate (only a \uD800-\uDFFF escape can)."""
    return "\\ud" in text or "\\uD" in text


def visible(text: str) -> str:
    r"""Text with control characters and unpaired surrogates shown as escapes (`\x1b`).

    Args:
        text: Any text, for a page.

    Returns:
        Text holding only characters HTML accepts as they are.
    """
    return _UNPRINTABLE.sub(_escape_one, text)


def _escape_one(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class TooLargeError(ValueError):
    """A file (or its inflated gzip content) over its cap."""


def read_capped(path: str | Path, cap: int) -> bytes:
    """A file's bytes, gzip inflated when it is gzip, never holding more than `cap` of them.

    Raises:
        OSError: The file cannot be read.
        TooLargeError: More than `cap` bytes, on disk or once inflated.
        ValueError: Damaged gzip data (a stream cut off at its end still reads).
    """
    with open(path, "rb") as handle:
        data = handle.read(cap + 1)
    if data[:2] == b"\x1f\x8b":
        inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
        try:
            data = inflater.decompress(data, cap + 1)
        except zlib.error as exc:
            raise ValueError(f"damaged gzip data ({exc})") from None
    if len(data) > cap:
        raise TooLargeError(f"larger than {cap} bytes")
    return data
