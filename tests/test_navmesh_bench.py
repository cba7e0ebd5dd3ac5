"""The path-search benchmarks: `harness navmesh-bench` figures and benchmarks/navmesh.py."""

import importlib.util
import json

from tests.shared import NAVMESH_DATA, ROOT
from world.navmesh.bench import bench
from world.navmesh.polyanya_format import read_mesh, read_scenarios
from world.navmesh.query import PathFinder

DATA = NAVMESH_DATA


def _script():
    spec = importlib.util.spec_from_file_location("navmesh_benchmark", ROOT / "benchmarks" /
                                                  "navmesh.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_reports_wall_and_processor_time_and_exactness():
    finder = PathFinder(read_mesh(DATA / "arena.mesh"))
    result = bench(finder, read_scenarios(DATA / "arena.scen")[:100])
    assert result["queries"] == 100
    assert result["failures"] == 0.0
    assert result["within_0_1pct"] == 1.0
    assert 1.0 <= result["worst_ratio"] <= 1.000001
    for kind in ("", "cpu_"):
        assert 0.0 < result[f"{kind}p50_ms"] <= result[f"{kind}p99_ms"]
        assert result[f"{kind}mean_ms"] > 0.0


def test_benchmark_script_runs_shipped_meshes_and_skips_missing_ones(tmp_path, capsys):
    _script().main(["--only", "arena", "aurora", "--limit", "20", "--data", str(tmp_path)])
    out = json.loads(capsys.readouterr().out)
    assert out["arena"]["queries"] == 20 and out["arena"]["within_0_1pct"] == 1.0
    assert "aurora.mesh not found" in out["aurora"]["skipped"]


def test_benchmark_script_reads_a_mesh_from_the_data_folder(tmp_path, capsys, monkeypatch):
    # The merged Aurora case reads aurora-merged.mesh with aurora.scen from the folder.
    for name, source in (("aurora-merged.mesh", "aurora-west.mesh"),
                         ("aurora.scen", "aurora-west.scen")):
        (tmp_path / name).write_text((DATA / source).read_text())
    monkeypatch.setenv("NAVMESH_DATA", str(tmp_path))
    _script().main(["--only", "aurora-merged", "--limit", "30"])
    out = json.loads(capsys.readouterr().out)["aurora-merged"]
    assert out["queries"] == 30 and out["failures"] == 0.0 and out["within_0_1pct"] == 1.0
