"""`harness export`: a level, and a run's walked path, as a 3D model read back with trimesh."""

from __future__ import annotations

import collections
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import shapely
import trimesh
from shapely.geometry import LineString

from harness.cli import main
from harness.core.record import read_record, record_text
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from harness.levels.export_cmd import METRES_PER_UNIT
from tests.shared import ROOT, SHIPPED_AGENTS, python_agent, shipped
from world.level.geometry3d import FLOOR_THICKNESS, PATH_LIFT, WALL_THICKNESS, wall_heights

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)


def export(capsys, tmp_path: Path, source: str, fmt: str) -> trimesh.Scene:
    out = tmp_path / f"model.{fmt}"
    assert main(["export", source, "--format", fmt, "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"{out}: ")
    if fmt == "obj":  # one OBJ object per piece, kept apart as the file names them
        return trimesh.load_scene(str(out), split_objects=True, group_material=False)
    return trimesh.load_scene(str(out))


def by_kind(scene: trimesh.Scene) -> dict[str, list[str]]:
    kinds = collections.defaultdict(list)
    for name in scene.geometry:
        kinds[name.split("/")[0]].append(name)
    return kinds


def units(mesh: trimesh.Trimesh) -> np.ndarray:
    return mesh.bounds / METRES_PER_UNIT


@pytest.mark.parametrize(("level_id", "fmt"),
                         [("outpost", "glb"), ("outpost", "obj"),
                          # the largest level: seconds of meshes, in the whole suite
                          pytest.param("facility", "glb", marks=pytest.mark.slow)])
def test_level_model_matches_the_level(capsys, tmp_path, level_id, fmt):
    level = shipped(level_id)
    scene = export(capsys, tmp_path, level_id, fmt)
    kinds = by_kind(scene)
    exits = collections.Counter(e.kind for e in level.exits)
    assert sorted(kinds["floor"]) == sorted(f"floor/{a.storey}/{a.id}" for a in level.areas)
    assert sorted(kinds["door"]) == sorted(
        f"door/{level.area(e.areas[0]).storey}/{e.id}" for e in level.exits if e.kind == "door")
    assert len(kinds["window"]) == exits["window"]
    assert len(kinds["stairs"]) == len(level.stairs)
    assert "path" not in kinds  # a level has no walked path

    # Storeys: each floor's top is its storey's height, and every storey has walls.
    tops = {round(float(units(scene.geometry[n])[1][1]), 3) for n in kinds["floor"]}
    assert tops == {float(s.y) for s in level.storeys}
    assert {n.split("/")[1] for n in kinds["wall"]} == {s.id for s in level.storeys}

    # Bounds: the plan's extent (walls stand on its edges), from below the lowest floor
    # to the top of the highest storey's walls.
    plan = np.array([p for a in level.areas for p in a.polygon])
    top = max(level.storeys, key=lambda s: s.y)
    low, high = scene.bounds / METRES_PER_UNIT
    half = WALL_THICKNESS / 2
    np.testing.assert_allclose([low[0], low[2]], plan.min(axis=0) - half, atol=0.5)
    np.testing.assert_allclose([high[0], high[2]], plan.max(axis=0) + half, atol=0.5)
    assert low[1] == pytest.approx(min(s.y for s in level.storeys) - FLOOR_THICKNESS, abs=0.01)
    assert high[1] == pytest.approx(top.y + wall_heights(level)[top.id], abs=0.01)


def test_walls_stand_on_area_edges_and_leave_openings_open(capsys, tmp_path):
    level = shipped("outpost")
    scene = export(capsys, tmp_path, "outpost", "glb")
    heights = wall_heights(level)
    for storey in level.storeys:
        outline = shapely.unary_union([LineString([*a.polygon, a.polygon[0]])
                                       for a in level.areas if a.storey == storey.id])
        openings = [LineString(e.segment) for e in level.exits
                    if e.kind == "opening" and level.area(e.areas[0]).storey == storey.id]
        for name in by_kind(scene)["wall"]:
            if name.split("/")[1] != storey.id:
                continue
            low, high = units(scene.geometry[name])
            centre = shapely.Point((low[0] + high[0]) / 2, (low[2] + high[2]) / 2)
            assert outline.distance(centre) < 1.0, name
            assert storey.y - 0.01 <= low[1] and high[1] <= storey.y + heights[storey.id] + 0.01
            assert all(gap.distance(centre) > 1.0 for gap in openings), f"{name} in an opening"


# The module-scoped runs below are played once: the tests that read them share a worker.
pytestmark = pytest.mark.xdist_group("export")


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs")
    agent = python_agent(SHIPPED_AGENTS / "reference_agent.py")
    return Path(run("outpost", agent, seed=1, out_dir=out, settings=FAST)["run_dir"])


def test_record_model_adds_the_walked_path(capsys, tmp_path, reference_run):
    record = read_record(reference_run)
    level = shipped("outpost")
    scene = export(capsys, tmp_path, str(reference_run / "record.jsonl.gz"), "glb")
    assert len(by_kind(scene)["floor"]) == len(level.areas)
    low, high = units(scene.geometry["path/-/route"])
    # The walk starts at the level's start and ends where the end line says, above the floor.
    walked = [record.turns[0]["observation"]["view"]["player"]["position"],
              record.end["final_position"]]
    for x, y, z in walked:
        assert low[0] - 1 <= x <= high[0] + 1 and low[2] - 1 <= z <= high[2] + 1
        assert low[1] - 1 <= y + PATH_LIFT <= high[1] + 1
    assert high[1] - low[1] > 100  # it climbed the stairs to the upper storey
    # The default file lies beside the record.
    assert main(["export", str(reference_run), "--format", "obj"]) == 0
    assert (reference_run / "model.obj").is_file()


def test_export_refuses_what_it_cannot_draw(capsys, tmp_path, reference_run):
    assert main(["export", "no_such_level"]) == 2
    assert "no level 'no_such_level'" in capsys.readouterr().err
    # A record whose level is gone: the message says so, and nothing is written.
    lines = [json.loads(line) for line in record_text(reference_run).splitlines()]
    lines[0]["level"], lines[0]["level_source"] = "vanished", str(tmp_path / "vanished.json")
    moved = tmp_path / "run" / "record.jsonl"
    moved.parent.mkdir()
    moved.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["export", str(moved)]) == 2
    assert "level could not be loaded" in capsys.readouterr().err
    assert not (moved.parent / "model.glb").exists()
    assert main(["export", "outpost", "--out", str(tmp_path / "missing" / "x.glb")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_only_export_imports_trimesh() -> None:
    # trimesh takes over a second to import; every other command starts without it,
    # though the parser imports every command's module.
    code = ("import sys, harness.cli; harness.cli.build_parser(); "
            "print(sorted({'trimesh'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
