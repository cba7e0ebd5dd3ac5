"""Doom maps read from WAD files: the directory, map markers and the map lumps.

Three map formats are read into one model: Doom's binary lumps, Hexen's (wider
THINGS and LINEDEFS with five special arguments) and UDMF text maps (TEXTMAP), which
ViZDoom's scenarios use. Coordinates stay in map units (x east, y north); nothing
here knows about the engine. A file that cannot be read raises `WadError`, whose one
line names the file and the lump.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

from world.doom.udmf import UdmfError, parse_udmf
from world.errors import WorldError

# The lumps that follow a map marker, in either binary format (BEHAVIOR marks Hexen).
_BINARY_LUMPS = ("THINGS", "LINEDEFS", "SIDEDEFS", "VERTEXES", "SEGS", "SSECTORS",
                 "NODES", "SECTORS", "REJECT", "BLOCKMAP", "BEHAVIOR", "SCRIPTS")
_NO_SIDE = 0xFFFF
SECRET_SECTOR = 9  # the sector special that marks a secret in every format
# Doom's linedef flags that matter to a player walking or seeing.
_LINE_BLOCKING, _LINE_TWO_SIDED, _LINE_SECRET = 0x0001, 0x0004, 0x0020
# Hexen keeps the activation in bits 10-12 of the flags; these are its values.
_HEXEN_ACTIVATION = ("cross", "use", "monster", "shoot", "push", "projectile")
_UDMF_ACTIVATION = (("playeruse", "use"), ("playercross", "cross"), ("impact", "shoot"),
                    ("playerpush", "push"), ("monstercross", "monster"))


class WadError(WorldError):
    """A WAD file or map that cannot be read; the message names the file and the lump."""


@dataclass(frozen=True)
class Line:
    """A linedef: two vertex indices, its sides (None when absent) and its special.

    `activation` is how a Hexen or UDMF special is triggered ("use", "cross", ...; "" for
    none); Doom-format specials carry their trigger in the special number itself.
    """

    v1: int
    v2: int
    front: int | None
    back: int | None
    special: int
    tag: int
    args: tuple[int, ...]
    blocking: bool
    two_sided: bool
    secret: bool
    activation: str
    repeat: bool


@dataclass(frozen=True)
class Side:
    """A sidedef: the sector it faces and its textures."""

    sector: int
    upper: str
    lower: str
    middle: str


@dataclass(frozen=True)
class Sector:
    """A sector's heights, light, special and tag; `secret` also covers UDMF's flag."""

    floor: float
    ceiling: float
    floor_texture: str
    ceiling_texture: str
    light: int
    special: int
    tag: int
    secret: bool


@dataclass(frozen=True)
class Thing:
    """A placed thing: where, facing (degrees), type and the skills it appears at (1-5)."""

    x: float
    y: float
    angle: int
    type: int
    skills: frozenset[int]
    single: bool
    ambush: bool
    tid: int


@dataclass(frozen=True)
class MapData:
    """One map, as stored: every list indexed as the WAD's lumps index it."""

    name: str
    format: str  # "doom", "hexen" or "udmf"
    vertices: tuple[tuple[float, float], ...]
    lines: tuple[Line, ...]
    sides: tuple[Side, ...]
    sectors: tuple[Sector, ...]
    things: tuple[Thing, ...]


class _Wad:
    """An open WAD: its directory, and lumps read on demand (IWADs run to tens of MB)."""

    def __init__(self, wad: Path):
        self.path = wad
        try:
            with wad.open("rb") as f:
                head = f.read(12)
                if len(head) < 12 or head[:4] not in (b"IWAD", b"PWAD"):
                    raise WadError(f"{wad}: header: not a WAD file (expected IWAD or PWAD)")
                count, offset = struct.unpack_from("<ii", head, 4)
                size = f.seek(0, 2)
                if count < 0 or offset < 12 or offset + 16 * count > size:
                    raise WadError(f"{wad}: directory: {count} entries at offset {offset} "
                                   f"run past the end of the file ({size} bytes)")
                f.seek(offset)
                table = f.read(16 * count)
        except OSError as exc:
            raise WadError(f"{wad}: cannot read the file ({exc.strerror or exc})") from None
        self.entries: list[tuple[str, int, int]] = []
        for i in range(count):
            pos, length, raw = struct.unpack_from("<ii8s", table, 16 * i)
            name = raw.split(b"\0", 1)[0].decode("ascii", "replace").upper()
            if pos < 0 or length < 0 or pos + length > size:
                raise WadError(f"{wad}: lump {name or i}: {length} bytes at offset {pos} "
                               f"run past the end of the file")
            self.entries.append((name, pos, length))

    def read(self, index: int) -> bytes:
        _, pos, length = self.entries[index]
        try:
            with self.path.open("rb") as f:
                f.seek(pos)
                return f.read(length)
        except OSError as exc:
            raise WadError(f"{self.path}: cannot read the file ({exc.strerror or exc})") \
                from None


def _is_marker(entries: list[tuple[str, int, int]], i: int) -> bool:
    nxt = entries[i + 1][0] if i + 1 < len(entries) else ""
    return nxt == "TEXTMAP" or nxt == "THINGS"


def map_names(wad: Path) -> list[str]:
    """The maps in a WAD, in directory order (E1M1, MAP01, ...)."""
    entries = _Wad(wad).entries
    return [name for i, (name, _, _) in enumerate(entries) if _is_marker(entries, i)]


def load_map(wad: Path, map_name: str) -> MapData:
    """Read one map of a WAD file.

    Raises:
        WadError: the file, its directory or one of the map's lumps is unreadable, or the
            map is not there (the message lists the maps the file has).
    """
    opened = _Wad(wad)
    entries = opened.entries
    wanted = map_name.upper()
    starts = [i for i, (name, _, _) in enumerate(entries)
              if name == wanted and _is_marker(entries, i)]
    if not starts:
        have = ", ".join(map_names(wad)) or "none"
        raise WadError(f"{wad}: map {map_name}: not in this file (maps: {have})")
    first = starts[0] + 1
    if entries[first][0] == "TEXTMAP":
        try:
            return _from_udmf(wanted, parse_udmf(opened.read(first).decode("latin-1")))
        except UdmfError as exc:
            raise WadError(f"{wad}: {wanted} lump TEXTMAP: {exc}") from None
    lumps: dict[str, bytes] = {}
    for index in range(first, len(entries)):
        name = entries[index][0]
        if name not in _BINARY_LUMPS or name in lumps:
            break
        lumps[name] = opened.read(index)
    return _from_binary(wad, wanted, lumps)


def _records(wad: Path, map_name: str, lumps: dict[str, bytes], lump: str,
             fmt: str) -> list[tuple]:
    raw = lumps.get(lump)
    if raw is None:
        raise WadError(f"{wad}: {map_name} lump {lump}: missing")
    size = struct.calcsize(fmt)
    if len(raw) % size:
        raise WadError(f"{wad}: {map_name} lump {lump}: {len(raw)} bytes is not a whole "
                       f"number of {size}-byte records")
    return list(struct.iter_unpack(fmt, raw))


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("ascii", "replace").upper()


def _side(index: int) -> int | None:
    return None if index == _NO_SIDE else index


def _skills(flags: int) -> frozenset[int]:
    # Bits 1, 2 and 4: skills 1-2, 3 and 4-5.
    return frozenset(s for bit, group in ((1, (1, 2)), (2, (3,)), (4, (4, 5)))
                     if flags & bit for s in group)


def _from_binary(wad: Path, name: str, lumps: dict[str, bytes]) -> MapData:
    hexen = "BEHAVIOR" in lumps
    vertices = tuple((float(x), float(y))
                     for x, y in _records(wad, name, lumps, "VERTEXES", "<hh"))
    sides = tuple(Side(sector, _text(up), _text(low), _text(mid))
                  for _, _, up, low, mid, sector
                  in _records(wad, name, lumps, "SIDEDEFS", "<hh8s8s8sH"))
    sectors = tuple(Sector(float(f), float(c), _text(ft), _text(ct), light, special, tag,
                           special == SECRET_SECTOR or bool(special & 0x80 and not hexen))
                    for f, c, ft, ct, light, special, tag
                    in _records(wad, name, lumps, "SECTORS", "<hh8s8shhh"))
    if hexen:
        lines = tuple(
            Line(v1, v2, _side(front), _side(back), special, a[0], tuple(a),
                 bool(flags & _LINE_BLOCKING), bool(flags & _LINE_TWO_SIDED),
                 bool(flags & _LINE_SECRET),
                 _HEXEN_ACTIVATION[(flags >> 10) & 7] if special and (flags >> 10) & 7 < 6
                 else "", bool(flags & 0x0200))
            for v1, v2, flags, special, *a, front, back
            in _records(wad, name, lumps, "LINEDEFS", "<HHHB5BHH"))
        things = tuple(Thing(float(x), float(y), angle, kind, _skills(flags),
                             bool(flags & 0x100), bool(flags & 8), tid)
                       for tid, x, y, _, angle, kind, flags, *_
                       in _records(wad, name, lumps, "THINGS", "<hhhhhhhB5B"))
    else:
        lines = tuple(
            Line(v1, v2, _side(front), _side(back), special, tag, (tag,),
                 bool(flags & _LINE_BLOCKING), bool(flags & _LINE_TWO_SIDED),
                 bool(flags & _LINE_SECRET), "", False)
            for v1, v2, flags, special, tag, front, back
            in _records(wad, name, lumps, "LINEDEFS", "<HHHHHHH"))
        things = tuple(Thing(float(x), float(y), angle, kind, _skills(flags),
                             not flags & 16, bool(flags & 8), 0)
                       for x, y, angle, kind, flags
                       in _records(wad, name, lumps, "THINGS", "<hhhhh"))
    found = MapData(name, "hexen" if hexen else "doom", vertices, lines, sides, sectors,
                    things)
    problem = _problem(found)
    if problem:
        raise WadError(f"{wad}: {name} lump {problem[0]}: {problem[1]}")
    return found


def _from_udmf(name: str, blocks: list[tuple[str, dict]]) -> MapData:
    def of(kind: str) -> list[dict]:
        return [fields for block, fields in blocks if block == kind]

    def num(fields: dict, key: str, default: float = 0) -> float:
        value = fields.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UdmfError(f"field {key} = {value!r} is not a number")
        return value

    vertices = tuple((float(num(v, "x")), float(num(v, "y"))) for v in of("vertex"))
    sides = tuple(Side(int(num(s, "sector")), str(s.get("texturetop", "-")).upper(),
                       str(s.get("texturebottom", "-")).upper(),
                       str(s.get("texturemiddle", "-")).upper()) for s in of("sidedef"))
    sectors = tuple(Sector(float(num(s, "heightfloor")), float(num(s, "heightceiling")),
                           str(s.get("texturefloor", "")).upper(),
                           str(s.get("textureceiling", "")).upper(),
                           int(num(s, "lightlevel", 160)), int(num(s, "special")),
                           int(num(s, "id")),
                           int(num(s, "special")) == SECRET_SECTOR or s.get("secret") is True)
                    for s in of("sector"))
    lines = []
    for ln in of("linedef"):
        args = tuple(int(num(ln, f"arg{i}")) for i in range(5))
        activation = next((word for key, word in _UDMF_ACTIVATION if ln.get(key) is True), "")
        back = ln.get("sideback")
        lines.append(Line(int(num(ln, "v1")), int(num(ln, "v2")), int(num(ln, "sidefront")),
                          None if back is None or back == -1 else int(num(ln, "sideback")),
                          int(num(ln, "special")), int(num(ln, "id", args[0])), args,
                          ln.get("blocking") is True, ln.get("twosided") is True,
                          ln.get("secret") is True, activation,
                          ln.get("repeatspecial") is True))
    things = tuple(Thing(float(num(t, "x")), float(num(t, "y")), int(num(t, "angle")),
                         int(num(t, "type")),
                         frozenset(s for s in range(1, 6) if t.get(f"skill{s}") is True),
                         t.get("single") is True, t.get("ambush") is True, int(num(t, "id")))
                   for t in of("thing"))
    found = MapData(name, "udmf", vertices, tuple(lines), sides, sectors, things)
    problem = _problem(found)
    if problem:
        raise UdmfError(problem[1])
    return found


def _problem(found: MapData) -> tuple[str, str] | None:
    """The first index a line or side holds that points at nothing: (lump, message)."""
    for i, ln in enumerate(found.lines):
        for field, value, limit in (("v1", ln.v1, len(found.vertices)),
                                    ("v2", ln.v2, len(found.vertices)),
                                    ("front side", ln.front, len(found.sides)),
                                    ("back side", ln.back, len(found.sides))):
            if value is not None and not 0 <= value < limit:
                return "LINEDEFS", f"linedef {i}: {field} {value} is out of range (0-{limit - 1})"
        if ln.front is None:
            return "LINEDEFS", f"linedef {i}: no front side"
    for i, side in enumerate(found.sides):
        if not 0 <= side.sector < len(found.sectors):
            return "SIDEDEFS", (f"sidedef {i}: sector {side.sector} is out of range "
                                f"(0-{len(found.sectors) - 1})")
    return None
