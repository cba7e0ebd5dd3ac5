"""`harness export LEVEL_OR_RECORD`: write a level (and a run's walked path) as a 3D model.

A level id or file gives its floors, walls, doors, windows and stairs; a record or run
directory gives its level's model plus the path the player walked (each turn's route,
as the run page draws it). glTF binary (`.glb`) opens in any glTF viewer; Wavefront
`.obj` in most modelling tools. Each piece is a named object `kind/storey/id`.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.core.level_refs import from_header
from harness.core.record import RecordError, is_run_dir
from harness.episode.runner import UsageError, resolve_level
from harness.pages.load import load_run
from harness.pages.map_svg import plan_bounds
from harness.pages.trace import as_point, keep_on_map, turn_legs
from world.face import Level, Solid, is_doom, level_solids, path_solid

if TYPE_CHECKING:
    import trimesh

FORMATS = ("glb", "obj")
METRES_PER_UNIT = 0.01  # world units are about a centimetre; glTF counts metres
# Colours (RGBA) so the kinds tell apart in a viewer; the path stands out.
COLOURS = {"floor": (150, 150, 140, 255), "wall": (205, 200, 190, 255),
           "door": (150, 95, 45, 255), "window": (120, 180, 230, 160),
           "stairs": (120, 120, 160, 255), "path": (230, 40, 40, 255)}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("source", metavar="LEVEL_OR_RECORD",
                        help="a level id or file, or a record file or its run directory")
    parser.add_argument("--format", choices=FORMATS, default="glb",
                        help="glb (glTF binary, the default) or obj (Wavefront)")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="where to write (default: LEVEL.FORMAT here, or model.FORMAT "
                             "in the run directory)")


def is_record(source: str) -> bool:
    """Whether the argument names a record (a record file or a run directory)."""
    path = Path(source)
    return is_run_dir(path) or path.name.endswith((".jsonl.gz", ".jsonl"))


def run_solids(source: str) -> tuple[Level, list[Solid], Path]:
    """A record's level model plus its walked path, and the run directory.

    Raises:
        RecordError: Not a readable record.
        UsageError: Its level cannot be loaded.
    """
    run = load_run(source)
    level = _record_level(run.record.header)
    final = as_point((run.record.end or {}).get("final_position"))
    legs = turn_legs(run.record.turns, final)
    if run.plan is not None:
        legs, _ = keep_on_map(legs, plan_bounds(run.plan))  # records are untrusted
    route = [p for leg in legs for p in leg.route]
    walked = path_solid(route)
    return level, level_solids(level) + ([walked] if walked else []), run.run_dir


def _record_level(header: dict[str, Any]) -> Level:
    # The 3D model is built from the level itself: the record's map is a plan view.
    try:
        level = from_header(header).level
    except UsageError as exc:
        raise UsageError(f"the record's level could not be loaded: "
                         f"{str(exc).splitlines()[0]}") from None
    if level.content_hash != str(header.get("level_hash", "")):
        print(f"harness export: the level file has changed since this run (content hash "
              f"{level.content_hash[:12]}, the run used {str(header.get('level_hash'))[:12]}"
              "): the model shows the current file", file=sys.stderr)
    return level


def build_scene(solids: list[Solid]) -> trimesh.Scene:
    """The solids as one scene in metres, each a named, coloured node."""
    # Start-up cost: every command's module is imported to build the parser, and
    # trimesh takes over a second to import; only an export needs it.
    import trimesh

    scene = trimesh.Scene()
    for solid in solids:
        mesh = solid.mesh.copy()
        mesh.apply_scale(METRES_PER_UNIT)
        # One colour a piece, given per vertex: glTF stores vertex colours, and turning
        # face colours into them needs scipy, which the core install does not have. The
        # model's meshes are never textured, so their visuals are always plain colours.
        visual = mesh.visual
        if not isinstance(visual, trimesh.visual.ColorVisuals):
            raise TypeError(f"{solid.name}: a textured mesh; the export colours plain ones")
        visual.vertex_colors = COLOURS[solid.kind]
        scene.add_geometry(mesh, geom_name=solid.name, node_name=solid.name)
    return scene


def summary(level: Level, solids: list[Solid]) -> str:
    """A line of counts: storeys and each kind of piece."""
    counts = collections.Counter(s.kind for s in solids)
    kinds = ", ".join(f"{counts[k]} {k}" for k in COLOURS if counts[k])
    return f"{len(level.storeys)} storeys: {kinds}"


def _doom_record(source: str) -> bool:
    return is_doom(str(load_run(source).record.header.get("level_source", "")))


def run(args: argparse.Namespace) -> int:
    """Export; 0 when written, 2 for an unknown level, an unreadable record or a bad --out."""
    try:
        if is_doom(args.source) or (is_record(args.source) and _doom_record(args.source)):
            raise UsageError("a Doom mission has no 3D model to export: its map is read from "
                             "the WAD, and its run page draws it")
        if is_record(args.source):
            level, solids, run_dir = run_solids(args.source)
            default = run_dir / f"model.{args.format}"
        else:
            level, _ = resolve_level(args.source)
            solids, default = level_solids(level), Path(f"{level.id}.{args.format}")
    except (RecordError, UsageError) as exc:
        print(f"harness export: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else default
    try:
        data = build_scene(solids).export(file_type=args.format)
        out.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    except OSError as exc:
        print(f"harness export: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"{out}: {summary(level, solids)}")
    return 0
