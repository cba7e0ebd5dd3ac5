"""UDMF text maps (the TEXTMAP lump): blocks of `key = value;` assignments.

Only what a map needs is read: top-level assignments (the namespace) are skipped and
each block becomes (block name, {key: value}) in file order. Values are strings,
booleans, integers (decimal or hex) or floats.
"""

from __future__ import annotations

import re

from world.errors import WorldError

_TOKEN = re.compile(r"""
    \s+ | //[^\n]* | /\*.*?\*/                    # blanks and comments: skipped
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>[+-]?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[{}=;])
""", re.S | re.X)


_COMMENT = re.compile(r'("(?:[^"\\]|\\.)*")|//[^\n]*|/\*.*?\*/', re.S)
_BLOCK = re.compile(r"([A-Za-z_]\w*)\s*\{([^{}]*)\}")
_ASSIGN = re.compile(r'([A-Za-z_]\w*)\s*=\s*("(?:[^"\\]|\\.)*"|[^;"{}\s]+)\s*;')
_NUMBER = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][+-]?\d+)?"
                     r"|\.\d+(?:[eE][+-]?\d+)?)")
_WORD = re.compile(r"[A-Za-z_]\w*")


class UdmfError(WorldError):
    """A TEXTMAP that does not parse; the message names the line and what was expected."""


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out, pos, line = [], 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise UdmfError(f"line {line}: unexpected character {text[pos]!r}")
        kind = m.lastgroup
        if kind:
            out.append((kind, m.group(kind), line))
        line += text.count("\n", pos, m.end())
        pos = m.end()
    return out


def _value(kind: str, raw: str) -> object:
    if kind == "string":
        return raw[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if kind == "number":
        if raw.lower().lstrip("+-").startswith("0x"):
            return int(raw, 16)
        return float(raw) if any(c in raw for c in ".eE") else int(raw)
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    return raw


def _fast(text: str) -> list[tuple[str, dict[str, object]]] | None:
    """The blocks read with whole-block patterns, or None if anything does not fit.

    On None the token-by-token reader finds the fault and names its line.
    """
    bare = _COMMENT.sub(lambda m: m.group(1) or " ", text)
    blocks: list[tuple[str, dict[str, object]]] = []
    for name, body in _BLOCK.findall(bare):
        fields: dict[str, object] = {}
        for key, raw in _ASSIGN.findall(body):
            kind = "string" if raw[0] == '"' else "number" if _NUMBER.fullmatch(raw) else \
                "word" if _WORD.fullmatch(raw) else None
            if kind is None:
                return None
            fields[key.lower()] = _value(kind, raw)
        if _ASSIGN.sub("", body).strip():
            return None
        blocks.append((name.lower(), fields))
    outside = _BLOCK.sub("", bare)
    if _ASSIGN.sub("", outside).strip():
        return None
    return blocks


def parse_udmf(text: str) -> list[tuple[str, dict[str, object]]]:
    """The blocks of a TEXTMAP in file order, keys lower-cased as the format asks."""
    quick = _fast(text)
    return quick if quick is not None else read_tokens(text)


def read_tokens(text: str) -> list[tuple[str, dict[str, object]]]:
    """The blocks of a TEXTMAP read token by token: slower, naming the line of a fault."""
    tokens = _tokens(text)
    blocks: list[tuple[str, dict[str, object]]] = []
    block: dict[str, object] | None = None
    i = 0

    def expect(at: int, want: str) -> None:
        if at >= len(tokens) or tokens[at][1] != want:
            got = repr(tokens[at][1]) if at < len(tokens) else "the end of the lump"
            line = tokens[min(at, len(tokens) - 1)][2] if tokens else 1
            raise UdmfError(f"line {line}: expected {want!r}, found {got}")

    while i < len(tokens):
        kind, raw, line = tokens[i]
        if raw == "}" and block is not None:
            block, i = None, i + 1
            continue
        if kind != "word":
            raise UdmfError(f"line {line}: expected a key or a block name, found {raw!r}")
        if i + 1 < len(tokens) and tokens[i + 1][1] == "{" and block is None:
            block = {}
            blocks.append((raw.lower(), block))
            i += 2
            continue
        expect(i + 1, "=")
        if i + 2 >= len(tokens) or tokens[i + 2][0] not in ("string", "number", "word"):
            raise UdmfError(f"line {line}: key {raw} has no value")
        value = _value(tokens[i + 2][0], tokens[i + 2][1])
        expect(i + 3, ";")
        if block is not None:
            block[raw.lower()] = value
        i += 4
    if block is not None:
        raise UdmfError("the last block is not closed with '}'")
    return blocks
