"""Generated levels show the agent nothing of their seed; secret held-out sets (34).

The hostile test tries what an agent did against the old ids: hash every seed's name the
way the level id was made and look for the id it was shown.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.compare.results import level_categories
from harness.core.keys import SECRET_FILE, set_seeds, write_secret
from harness.core.level_refs import UsageError, expand, resolve, secret_member
from harness.core.record import read_record
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.shared import ROOT, TEST_SECRET
from world.face import TEMPLATES, parse_name
from world.generate.registry import level_id

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)
WAITER = f"{sys.executable} {ROOT / 'tests' / 'agents' / 'brief_wait_agent.py'} 1"
SECRET = bytes.fromhex("a7" * 32)


def _public_id_search(shown: str, template: str, seeds: range, query: str = "") -> int | None:
    # What an agent did in 0.01 s: the id was a public function of the name.
    for seed in seeds:
        if level_id(parse_name(f"{template}@{seed}{query}", TEMPLATES)) == shown:
            return seed
    return None


def test_no_string_of_the_start_message_leads_back_to_the_seed(tmp_path) -> None:
    summary = run("maze@7003?rooms=12", WAITER, difficulty="easy", seed=0, out_dir=tmp_path,
                  settings=FAST, secret=SECRET)
    record = read_record(summary["run_dir"])
    start = record.header["start"]
    assert start["level"].startswith("maze_")
    assert _public_id_search(start["level"], "maze", range(7100), "?rooms=12") is None
    # The old id gave it away at once; the search is a fair one.
    old = level_id(parse_name("maze@7003?rooms=12", TEMPLATES))
    assert _public_id_search(old, "maze", range(7100), "?rooms=12") == 7003
    shown = json.dumps({k: v for k, v in start.items() if k != "tools"})
    assert "7003" not in shown and "rooms" not in shown and record.header["level_hash"] \
        not in shown
    assert all("7003" not in json.dumps(t["observation"]) for t in record.turns)
    assert replay(summary["run_dir"]).verified


def test_a_generated_level_s_id_is_drawn_from_the_secret() -> None:
    one = resolve("maze@5", SECRET).level
    assert resolve("maze@5", SECRET).level.id == one.id  # the same secret: the same level
    assert resolve("maze@5", TEST_SECRET).level.id != one.id
    assert resolve("maze@5").level.id == level_id(parse_name("maze@5", TEMPLATES))  # no secret


def test_a_secret_set_expands_to_indexed_names_and_draws_its_seeds_from_the_secret() -> None:
    names = expand(["maze@secret:4?rooms=12"])
    assert names == [f"maze@secret:4?rooms=12#{i}" for i in range(4)]
    seeds = set_seeds(SECRET, "maze", "rooms=12", 4)
    assert len(set(seeds)) == 4 and seeds == set_seeds(SECRET, "maze", "rooms=12", 6)[:4]
    assert seeds != set_seeds(TEST_SECRET, "maze", "rooms=12", 4)
    found = resolve(names[2], SECRET)
    assert found.source == "maze@secret:4?rooms=12#2"
    assert found.generated is not None and "seed" not in found.generated
    assert found.generated["set"] == {"name": "maze@secret:4?rooms=12", "index": 2}
    plain = resolve(f"maze@{seeds[2]}?rooms=12", SECRET).level
    assert plain.content_hash == found.level.content_hash  # the set's level is that seed's
    assert level_categories(names[2]) == TEMPLATES["maze"].categories  # harness compare


@pytest.mark.parametrize("ref, message", [
    ("maze@secret:0", "a size from 1"), ("maze@secret:3#3", "from 0 to 2"),
    ("maze@secret:3?rooms=1#0", "rooms"), ("nope@secret:3#0", "no template"),
])
def test_bad_secret_set_names_are_refused_with_one_line(ref, message) -> None:
    with pytest.raises(UsageError, match=message):
        resolve(ref, SECRET)


def test_a_secret_set_cannot_be_drawn_without_a_secret() -> None:
    assert secret_member("maze@secret:3#1") is not None
    with pytest.raises(UsageError, match="harness eval"):
        resolve("maze@secret:3#1")


def _eval(out: Path, *extra: str) -> int:
    return main(["eval", "--agent", WAITER, "--levels", "crossing@secret:2",
                 "--difficulties", "easy", "--seeds", "1", "--jobs", "1",
                 "--decision-timeout", "20", "--out", str(out), *extra])


def test_an_eval_of_a_secret_set_shows_its_name_and_indexes_never_its_seeds(tmp_path
                                                                            ) -> None:
    out = tmp_path / "suite"
    assert _eval(out) == 0
    secret_file = out / SECRET_FILE
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    secret = bytes.fromhex(secret_file.read_text().strip())
    seeds = set_seeds(secret, "crossing", "", 2)
    results = json.loads((out / "results.json").read_text())
    levels = [row["level"] for row in results["episodes"]]
    assert levels == ["crossing@secret:2#0", "crossing@secret:2#1"]
    shown = "".join((out / f).read_text() for f in ("results.json", "results.md", "index.html"))
    assert all(f"crossing@{s}" not in shown and f'"seed": {s}' not in shown for s in seeds)
    for row in results["episodes"]:
        assert replay(row["run_dir"]).verified
        header = read_record(row["run_dir"]).header
        assert "seed" not in header["generated"] and str(seeds[0]) not in header["level"]
    # Resumed from the folder, with its secret: nothing is played again, the same seeds.
    made = [Path(row["run_dir"]).stat().st_mtime_ns for row in results["episodes"]]
    assert _eval(out, "--show-seeds") == 0
    again = json.loads((out / "results.json").read_text())
    assert [Path(row["run_dir"]).stat().st_mtime_ns for row in again["episodes"]] == made
    assert [again["suite"]["generated"][lv]["seed"] for lv in levels] == seeds
    # An operator plays one of its episodes again from the folder's secret.
    first = results["episodes"][0]
    rerun = run(levels[0], WAITER, difficulty="easy", seed=0, out_dir=tmp_path / "again",
                settings=FAST, secret=secret)
    assert ([t["state_hash"] for t in read_record(rerun["run_dir"]).turns]
            == [t["state_hash"] for t in read_record(first["run_dir"]).turns])
    # A folder whose secret is lost (a new one made in its place) is refused, not
    # resumed under another.
    secret_file.unlink()
    write_secret(secret_file, SECRET)
    assert _eval(out) == 2
