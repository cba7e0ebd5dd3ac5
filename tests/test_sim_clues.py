"""Decoys and objectives revealed by a note (issue 37): words read decide, guessing loses.

The world's rules (a decoy is taken only by hand and fails its objective; an objective a
note reveals is neither listed nor done before the note is read), the checker's rules
(a decoy alike in kind and name, in another area, its real one's area named in a note; a
revealed objective after every shown one), the view (look-alikes all listed as targets,
no point that says which is real), the reference agent's reading, and whole episodes
both ways: the reference agent, which reads, wins; the greedy baseline, which never
reads, takes a copy or leaves with the revealed task undone. Each record replays.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

from harness.episode import runner
from harness.episode.replay import replay
from harness.episode.runner import RunSettings
from tests.level_factory import short_copy
from tests.shared import SHIPPED_AGENTS, python_agent, shipped_path
from world.levelcheck.checker import check_data
from world.observe.session import WorldSession

SETTINGS = RunSettings(decision_timeout_s=20.0, episode_timeout_s=150.0)
Change = Callable[[dict], None]


def _turns(record: str) -> list[dict]:
    with gzip.open(record, "rt", encoding="utf-8") as lines:
        return [json.loads(x) for x in lines]


def _judged(game: WorldSession) -> dict[str, str]:
    game.world.step()
    return {o.id: o.status for o in game.report().objectives}


def _take(game: WorldSession, object_id: str) -> None:
    world = game.world
    obj = world.objects[object_id]
    x, z, storey = obj.spot
    world.teleport(world.player.id, x + 40, z, storey)
    world.items.use(world.player, obj)


def test_a_decoy_is_not_taken_by_walking_over_it_and_taking_it_fails(session) -> None:
    game = session("museum_heist", "easy", 0)
    world = game.world
    decoy = world.objects["idol_copy_w"]
    x, z, storey = decoy.spot
    world.teleport(world.player.id, x, z, storey)
    world.step()
    assert decoy.present, "walking over a look-alike chose it"
    _take(game, "idol_copy_w")
    assert _judged(game)["take_idol"] == "failed"
    assert game.report().outcome == "failed"


def test_the_real_one_taken_by_hand_does_the_objective(session) -> None:
    game = session("museum_heist", "normal", 1)
    _take(game, "idol")
    assert _judged(game)["take_idol"] == "done"


def test_look_alikes_first_seen_together_are_numbered_by_place(session) -> None:
    from world.observe.reveal import look_alike_rows

    game = session("museum_heist", "hard", 2)
    game.known.objects.update({"idol", "idol_copy_w", "idol_copy_r"})
    rows = look_alike_rows(game.world, game.ids, "idol", game.known)
    by_place = sorted(["idol", "idol_copy_w", "idol_copy_r"],
                      key=lambda o: game.world.objects[o].spot)
    assert rows == [game.ids.ep("object", o) for o in by_place]
    assert game.view()["objectives"][0]["targets"] == rows


def test_an_objective_a_note_reveals_is_listed_and_done_only_once_read(session) -> None:
    game = session("night_orders", "easy", 0)
    texts = [o["text"] for o in game.view()["objectives"]]
    assert texts == ["Get into the foreman's office."]
    _take(game, "ledger")  # taken before the orders are read: not yet a task
    assert _judged(game)["take_ledger"] == "todo"
    assert all(o["objective"] is False for o in game.view()["objects"])
    world = game.world
    world.items.use(world.player, world.objects["orders"])
    listed = game.view()["objectives"]
    assert [o["index"] for o in listed] == [1, 2]
    assert listed[1]["text"] == "Take the payroll ledger from the cold store."
    assert _judged(game)["take_ledger"] == "done"  # held when it became known


def test_no_exit_warning_tells_of_an_objective_not_yet_revealed(session) -> None:
    game = session("night_orders", "easy", 0)
    world = game.world
    office = world.level.area("office").polygon[0]
    world.teleport(world.player.id, office[0] + 300, office[1] + 300)
    world.step()  # the office reached: only the task the orders reveal is open
    world.teleport(world.player.id, 300, 1500)  # a look into the rail gate, judged never
    game.view()
    world.teleport(world.player.id, 900, 1500)  # the boiler room beside it
    assert game.view()["exit"]["distance"] is not None
    assert game.view()["exit"]["warning"] is None
    world.items.use(world.player, world.objects["orders"])
    assert game.view()["exit"]["warning"] is not None


def test_the_raw_track_lists_no_objective_before_it_is_revealed(shipped_level) -> None:
    from world.raw.session import RawGame

    game = RawGame(shipped_level("night_orders"), "easy", 0)
    assert int(game.raw_observation()["objectives_mask"].sum()) == 1
    game.world.items.use(game.world.player, game.world.objects["orders"])
    assert int(game.raw_observation()["objectives_mask"].sum()) == 2


def _problems(level: str, change: Change) -> list[tuple[str, str]]:
    data = json.loads(shipped_path(level).read_text())
    change(data)
    return [(p.path, p.message) for p in check_data(data).problems]


def _obj(data: dict, oid: str) -> dict:
    return next(o for o in data["objects"] if o["id"] == oid)


def test_the_checker_wants_decoys_that_only_words_tell_apart() -> None:
    def renamed(data):
        _obj(data, "idol_copy_w")["name"] = "green idol"

    def same_room(data):
        _obj(data, "idol_copy_w").update(area="east_gallery", at=[1900, 700])

    def unnamed_room(data):
        _obj(data, "memo")["text"] = "Curator's memo: the real jade idol is back on its plinth."

    def not_a_key(data):
        _obj(data, "idol_copy_w")["decoy_of"] = "memo"

    assert ("$.objects[5].name", "a decoy has the name of the thing it copies "
            "('jade idol'), or it is no decoy") in _problems("museum_heist", renamed)
    assert any(p.endswith("decoy_of") and "different areas" in m
               for p, m in _problems("museum_heist", same_room))
    assert any(p.endswith("decoy_of") and "no note names 'east gallery'" in m
               for p, m in _problems("museum_heist", unnamed_room))
    assert any(p.endswith("decoy_of") for p, _ in _problems("museum_heist", not_a_key))


def test_the_checker_wants_revealed_objectives_last_and_named_by_a_note() -> None:
    def by_a_switch(data):
        data["objectives"][1]["revealed_by"] = "cold_keypad"

    def shown_after(data):
        data["objectives"].append({"id": "leave", "kind": "reach_area", "area": "garage",
                                   "text": "Go to the garage."})

    def waits_on_it(data):
        data["objectives"][0]["after"] = ["take_ledger"]

    assert any(p == "$.objectives[1].revealed_by"
               for p, _ in _problems("night_orders", by_a_switch))
    assert any(p == "$.objectives[2]" and "must come before" in m
               for p, m in _problems("night_orders", shown_after))
    assert any(p == "$.objectives[0].after" and "revealed only by a note" in m
               for p, m in _problems("night_orders", waits_on_it))

    def orders_locked_away(data):  # behind the keypad whose code only they give
        _obj(data, "orders").update(area="cold_store", at=[1300, 1300])

    assert any(p == "$.objectives[1].revealed_by"
               for p, _ in _problems("night_orders", orders_locked_away))


def test_the_reference_agent_keeps_only_the_look_alike_its_note_calls_real() -> None:
    from agents.reference.clues import told_apart
    from agents.reference.memory import AreaNote, Memory

    mem = Memory()
    mem.areas = {"a1": AreaNote("Great hall", "ground",
                                {"w1": {"to": "a2", "to_name": "West gallery"},
                                 "w2": {"to": "a3", "to_name": "East gallery"}})}
    mem.objects = {"o4": {"id": "o4", "name": "jade idol", "area": "a2"},
                   "o9": {"id": "o9", "name": "jade idol", "area": "a3"}}
    obj = {"kind": "collect_item", "targets": ["o4", "o9"], "index": 1}
    assert told_apart(mem, obj)["targets"] == []  # alike, and no word on which is real
    mem.notes = {"o2": "Curator's memo: the real jade idol is back in the East gallery. "
                       "The idols in the West gallery are copies."}
    assert told_apart(mem, obj)["targets"] == ["o9"]


def _play(tmp_path: Path, level: str | Path, agent: str, difficulty: str = "easy") -> dict:
    summary = runner.run(str(level), python_agent(SHIPPED_AGENTS / agent),
                         difficulty=difficulty, seed=0, out_dir=tmp_path, settings=SETTINGS)
    report = replay(summary["record"])
    assert report.verified, report.divergence
    return summary


def test_the_reader_tells_the_idols_apart_and_the_view_never_does(tmp_path: Path) -> None:
    summary = _play(tmp_path, "museum_heist", "reference_agent.py")
    assert summary["success"], summary["reason"]
    turns = [x for x in _turns(summary["record"]) if x["kind"] == "turn"]
    views = [t["observation"]["view"] for t in turns]
    both = [v for v in views if len(v["objectives"][0]["targets"]) > 1]
    assert both, "the agent never knew two idols at once"
    # Every idol known is a target, none has a point that would say which is real.
    assert all(v["objectives"][0]["point"] is None for v in views)
    assert all(o["objective"] for v in both for o in v["objects"] if o["name"] == "jade idol")
    # The bay code, read early, is keyed in tens of decisions later: kept by the agent,
    # since no view after the reading shows it again.
    read = next(i for i, t in enumerate(turns) if "5082" in json.dumps(t["result"] or {}))
    keyed = next(i for i, t in enumerate(turns) if t["action"]
                 and t["action"]["action"] == "enter_code")
    assert keyed - read >= 20, (read, keyed)
    assert not any("5082" in json.dumps(t["observation"]) for t in turns[read + 2:])
    # The run page's map marks the copies as decoys (the map is the record's, not the view's).
    page = (Path(summary["record"]).parent / "index.html").read_text(encoding="utf-8")
    assert page.count("jade idol&#39;, a decoy") + page.count("jade idol', a decoy") == 2


def test_taking_the_first_idol_seen_loses(tmp_path: Path) -> None:
    level = short_copy(tmp_path / "level", "museum_heist", max_decisions=30)
    summary = _play(tmp_path, level, "greedy_agent.py")
    assert not summary["success"]
    statuses = {o["text"]: o["status"] for o in summary["objectives"]}
    assert statuses["Take the jade idol."] == "failed"
    turns = [x for x in _turns(summary["record"]) if x["kind"] == "turn"]
    assert any(c.endswith("was a decoy, not the real one")
               for t in turns for c in (t["result"] or {}).get("changes", ()))


def test_the_reader_learns_the_task_the_orders_add(tmp_path: Path) -> None:
    summary = _play(tmp_path, "night_orders", "reference_agent.py")
    assert summary["success"], summary["reason"]
    turns = [x for x in _turns(summary["record"]) if x["kind"] == "turn"]
    counts = [len(t["observation"]["view"]["objectives"]) for t in turns]
    read = next(i for i, t in enumerate(turns) if (t["result"] or {}).get("read")
                and "payroll" in json.dumps(t["result"]["read"]))
    assert set(counts[:read + 1]) == {1} and set(counts[read + 1:]) == {2}
    assert "what you read added an objective" in turns[read]["result"]["changes"]
    page = (Path(summary["record"]).parent / "index.html").read_text(encoding="utf-8")
    assert "what you read added an objective" in page
    assert any(t["action"] and t["action"]["action"] == "enter_code" for t in turns[read:])


def test_leaving_once_the_shown_task_is_done_loses(tmp_path: Path) -> None:
    level = short_copy(tmp_path / "level", "night_orders", max_decisions=40)
    summary = _play(tmp_path, level, "greedy_agent.py")
    assert not summary["success"]
    statuses = [o["status"] for o in summary["objectives"]]
    assert statuses == ["done", "todo"], summary["reason"]
