"""`harness play`: a person's episode is recorded, replays and is compared as a human.

The fronts are swapped for a scripted player (tests/play_kit.py), so the command's own
code (session, results, reveal, hot reload, quitting) runs in a second or two; the real
terminal and browser are driven in tests/test_play_terminal.py and
tests/browser/test_play_browser.py.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from harness.cli import main
from harness.compare.report import markdown
from harness.compare.results import CompareError, compare, load_episodes, results_files
from harness.core.record import read_record
from harness.episode.replay import replay
from harness.mcp.tools_cmd import tools
from harness.pages.map_svg import build_maps
from harness.play import play_cmd
from harness.play import tui as play_tui
from harness.play.actions import ActionLineError, action_forms, id_choices, parse_line
from harness.play.session import HUMAN_COMMAND, REVEAL_COMMAND
from harness.play.text import ascii_map
from harness.play.web import WebFront
from tests.play_kit import PLAY_ARGS, WIN, ScriptedFront
from tests.shared import shipped_path


def _play(monkeypatch, front, *args: str) -> int:
    monkeypatch.setattr(play_cmd, "_front", lambda _args: front)
    return main(["play", *args])


def _runs(out):
    return sorted(p.parent for p in out.rglob("record.jsonl.gz"))


def test_a_won_game_is_recorded_replays_and_compares_as_human(tmp_path, monkeypatch):
    out = tmp_path / "mine"
    front = ScriptedFront(notes="heading in")
    assert _play(monkeypatch, front, *PLAY_ARGS, "--name", "ada", "--out", str(out)) == 0
    [run_dir] = _runs(out)
    record = read_record(run_dir)
    assert record.end["summary"]["success"] is True
    assert record.header["agent_command"] == HUMAN_COMMAND
    assert record.header["hello"]["name"] == "ada"
    assert record.turns[0]["action"]["notes"] == "heading in"
    assert (run_dir / "index.html").is_file() and (run_dir / "record.seal").is_file()
    assert replay(run_dir).verified

    comparison = compare(*load_episodes(results_files([out])))
    [agent] = comparison["agents"]
    assert agent["agent"]["label"] == "ada (human)" and agent["agent"]["kind"] == "human"
    assert agent["overall"]["successes"] == 1 and agent["overall"]["success_ci95"][0] > 0
    assert "| ada (human) |" in markdown(comparison)

    # The map of what the player knows: drawn as the run page draws it, and as text.
    known = front.sessions[0].known
    plan = known.plan()
    assert {a["id"] for a in plan["areas"]} >= {"a1", "a2"}
    assert build_maps(plan, known.end_state(), known.legs(), [])
    assert any("@" in line for line in ascii_map(known, 40, 12))


def test_quitting_ends_the_episode_and_counts(tmp_path, monkeypatch):
    out = tmp_path / "mine"
    assert _play(monkeypatch, ScriptedFront(WIN[:2]), *PLAY_ARGS, "--out", str(out)) == 0
    rows = json.loads((out / "results.json").read_text())["episodes"]
    assert [(r["outcome"], r["success"], r["decisions"]) for r in rows] == \
        [("agent_crashed", False, 2)]
    episodes, left_out = load_episodes(results_files([out]))
    assert len(episodes) == 1 and left_out == 0


class BrokenFront(ScriptedFront):
    """A front that breaks after two actions: the harness's failure, not the person's."""

    def show(self, session, more):
        self.sessions.append(session)
        seq, left = -1, list(self.lines)
        while left:
            moment = session.wait(seq, 5.0)
            seq = moment.seq
            if moment.observation is not None and moment.summary is None:
                action, arguments = parse_line(left.pop(0), action_forms(moment.start))
                session.act(action, arguments, self.notes)
        raise RuntimeError("the screen went away")


def test_a_front_that_breaks_leaves_a_record_but_no_row(tmp_path, monkeypatch):
    out = tmp_path / "mine"
    assert _play(monkeypatch, BrokenFront(WIN[:2]), *PLAY_ARGS, "--out", str(out)) == 0
    [run_dir] = _runs(out)
    assert read_record(run_dir).end is not None
    assert not (out / "results.json").exists()


def test_a_playtest_is_marked_and_never_reaches_the_results(tmp_path, monkeypatch):
    out = tmp_path / "mine"
    front = ScriptedFront(WIN[:1])
    assert _play(monkeypatch, front, *PLAY_ARGS, "--reveal", "--out", str(out)) == 0
    [run_dir] = _runs(out)
    assert run_dir.relative_to(out).parts[0] == "playtest"
    assert read_record(run_dir).header["agent_command"] == REVEAL_COMMAND
    assert "not a scored run" in read_record(run_dir).header["hello"]["description"]
    assert not (out / "results.json").exists()
    assert {a["name"] for a in front.sessions[0].revealed["areas"]} >= {"Vault", "Office"}


def test_compare_refuses_a_playtest_row_and_an_unknown_kind(tmp_path):
    row = {"level": "outpost", "difficulty": "easy", "seed": 0, "outcome": "completed",
           "success": True, "score": 1.0, "decisions": 3, "game_time_s": 1.0, "reveal": True}
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"suite": {"agent": HUMAN_COMMAND, "kind": "human"},
                                "episodes": [row]}))
    with pytest.raises(CompareError, match="playtest"):
        load_episodes([path])
    path.write_text(json.dumps({"suite": {"agent": "x", "kind": "robot"}, "episodes": []}))
    with pytest.raises(CompareError, match=r"suite\.kind 'robot' is not one of program, human"):
        load_episodes([path])


def test_each_episode_reads_the_level_file_afresh(tmp_path, monkeypatch):
    level = tmp_path / "outpost.json"
    level.write_text(shipped_path("outpost").read_text())

    class Editing(ScriptedFront):
        def show(self, session, more):
            super().show(session, more)
            data = json.loads(level.read_text())
            data["title"] = "Edited between episodes"
            level.write_text(json.dumps(data))

    out = tmp_path / "mine"
    args = (str(level), "--difficulty", "easy", "--episodes", "2", "--out", str(out))
    assert _play(monkeypatch, Editing(()), *args) == 0
    titles = sorted(read_record(r).header["start"]["title"] for r in _runs(out))
    assert titles == ["Edited between episodes", "Hillside outpost"]


def test_a_program_suite_folder_is_refused(tmp_path, monkeypatch, capsys):
    (tmp_path / "results.json").write_text(json.dumps({"suite": {"agent": "x"},
                                                       "episodes": []}))
    assert _play(monkeypatch, ScriptedFront(), *PLAY_ARGS, "--out", str(tmp_path)) == 2
    assert "not of harness play" in capsys.readouterr().err


def test_without_prompt_toolkit_it_says_how_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "harness.play.tui", None)
    assert main(["play", *PLAY_ARGS, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'mission-harness[play]'" in err and "--web" in err


def test_typed_lines_and_the_ids_offered(shipped_level):
    forms = action_forms({"tools": tools("openai", "macro")})
    assert parse_line("go_to_object o2", forms) == ("go_to_object", {"object_id": "o2"})
    assert parse_line("go_to x=10 z=-5 use_on_way=yes", forms) == \
        ("go_to", {"x": 10.0, "z": -5.0, "use_on_way": True})
    for bad, words in (("fly o1", "no action 'fly'"), ("wait", "wait needs seconds"),
                       ("wait soon", "seconds must be a number"),
                       ("equip o1 o2", "one too many"), ("attack c1 speed=2", "no argument")):
        with pytest.raises(ActionLineError, match=words):
            parse_line(bad, forms)
    view = {"area": {"ways_out": [{"id": "w1", "to": "a2", "via": "door"}]},
            "doors": [{"id": "d1", "state": "open"}], "objects": [{"id": "o3", "kind": "key"}],
            "player": {"carried": [{"id": "o1", "kind": "weapon"}]}}
    assert [i for i, _ in id_choices("exit_id", view)] == ["w1", "d1"]
    assert [i for i, _ in id_choices("item_id", view)] == ["o1", "o3"]


def test_the_web_front_answers_only_with_its_token(tmp_path):
    front = WebFront("127.0.0.1", None, reveal=False)
    try:
        base = front.url.split("?")[0]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(base, timeout=5)
        assert refused.value.code == 403
        # A token with other than ASCII in it is refused too (not a handler's traceback).
        with pytest.raises(urllib.error.HTTPError) as odd:
            urllib.request.urlopen(base + "?token=%C3%A9", timeout=5)
        assert odd.value.code == 403
        with urllib.request.urlopen(front.url, timeout=5) as page:
            assert b"Map of what you know" in page.read()
        assert front.server.server_address[0] == "127.0.0.1"
    finally:
        front.stop()


def test_ctrl_c_where_the_web_front_runs_ends_the_episode_and_counts(tmp_path, monkeypatch):
    made: list = []
    real = play_cmd._front
    monkeypatch.setattr(play_cmd, "_front", lambda args: made.append(real(args)) or made[-1])

    def press_ctrl_c() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            session = made[0].session if made else None
            if session is not None and session.view().observation is not None:
                os.kill(os.getpid(), signal.SIGINT)
                return
            time.sleep(0.05)

    threading.Thread(target=press_ctrl_c, daemon=True).start()
    out = tmp_path / "mine"
    assert main(["play", *PLAY_ARGS, "--web", "--out", str(out)]) == 0
    rows = json.loads((out / "results.json").read_text())["episodes"]
    assert [(r["outcome"], r["decisions"]) for r in rows] == [("agent_crashed", 0)]


def test_without_a_terminal_it_says_to_use_the_browser(tmp_path, monkeypatch, capsys):
    def no_terminal():
        raise OSError(6, "No such device or address")

    monkeypatch.setattr(play_tui, "_terminal", no_terminal)
    out = tmp_path / "mine"
    assert main(["play", *PLAY_ARGS, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no terminal to play in (No such device or address)" in err and "--web" in err
    assert not out.exists()  # nothing played, nothing written


def test_a_generated_level_is_named_in_rows_and_folders_as_eval_names_it(tmp_path):
    # Its id is drawn from the episode's secret, fresh for each episode: the rows and the
    # run folders use the canonical name, as `harness eval` does, so they line up.
    from harness.core import keys, level_refs
    from harness.suite.plan import Episode
    names = set()
    for _ in range(2):
        found = level_refs.resolve("maze@3", keys.new_secret())
        name = play_cmd._row_level(found.level, found.source, found.generated)
        names.add(name)
        run_dir = play_cmd.run_dir_for(tmp_path, found.level, name, "easy", 0, reveal=False)
        assert run_dir.parent == Episode("maze@3", "easy", 0).folder(tmp_path)
    assert names == {"maze@3"}
    shipped = level_refs.resolve("outpost", keys.new_secret())
    assert play_cmd._row_level(shipped.level, shipped.source, shipped.generated) == "outpost"
