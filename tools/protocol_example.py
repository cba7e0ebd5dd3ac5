"""Write PROTOCOL.md's example exchange from a real episode.

Plays `examples/levels/key_store.json` (easy, seed 0, under a fixed public secret) with
the small scripted agent below, which uses every kind of macro action once (one of them
on purpose invalid), and writes the exchange between PROTOCOL.md's example markers:
start, hello, the first observation in both views, each action with how it ended, and
the summary. The one figure that differs between runs, the wall-clock budget left, is
written as a fixed number (WALL_SHOWN), in the structured view and in the text view
rendered again from it.

Usage:
    python3 tools/protocol_example.py            # rewrite PROTOCOL.md's example
    python3 tools/protocol_example.py --check    # exit 1 when PROTOCOL.md's example is stale
    python3 tools/protocol_example.py --agent    # the scripted agent (the harness runs it)
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "examples" / "levels" / "key_store.json"
PROTOCOL_MD = ROOT / "PROTOCOL.md"
BEGIN = "<!-- example:exchange (python3 tools/protocol_example.py writes it) -->"
END = "<!-- end example -->"
SECRET = bytes(32)  # public on purpose: the example must come out the same every time
WALL_SHOWN = 3599.5  # stands for episode_wall_s_left, the one wall-clock figure


def _plan(view: dict[str, Any], turn: int) -> tuple[str, dict[str, Any]]:
    # Turn by turn, one action of each kind, with ids read from the view.
    area = view["area"] or {"ways_out": []}
    ways = {w["via"]: w for w in area["ways_out"]}
    objects = {o["kind"]: o for o in view.get("objects", [])}
    key = next((c["id"] for c in view["player"]["carried"] if c["kind"] == "key"), None)
    door = view["doors"][0]["id"] if view["doors"] else None
    steps: list[tuple[str, dict[str, Any]]] = [
        ("go_to_area", {"exit_id": ways.get("opening", {"id": "w1"})["id"]}),
        ("go_to_object", {"object_id": objects.get("key", {"id": "o1"})["id"]}),
        ("equip", {"item_id": key}),
        ("attack", {"character_id": "c1"}),  # no character is known: an invalid action
        ("use_item_on", {"item_id": key, "object_id": door}),
        ("shoot_object", {"object_id": door}),
        ("wait", {"seconds": 1}),
        ("go_to_area", {"exit_id": ways.get("door", {"id": "w2"})["id"]}),
    ]
    if turn < len(steps):
        return steps[turn]
    computer = objects.get("computer")
    if turn == len(steps) and computer:
        return "go_to", {"x": computer["position"][0], "z": computer["position"][2]}
    if computer:
        x, _, z = computer["position"]
        return "turn_and_use", {"x": x, "z": z}
    return "wait", {"seconds": 1}


def agent() -> int:
    """The scripted agent: hello, then the plan, one action a turn."""
    def send(message: dict[str, Any]) -> None:
        print(json.dumps({"protocol_version": 1, **message}), flush=True)

    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            send({"type": "hello", "name": "example-agent", "version": "1",
                  "model": None, "description": "PROTOCOL.md's example exchange."})
        elif message["type"] == "observation":
            action, arguments = _plan(message["view"], message["turn"])
            send({"type": "action", "action": action, "arguments": arguments,
                  "notes": f"step {message['turn']}: {action}"})
    return 0


def exchange() -> list[tuple[str, dict[str, Any]]]:
    """The episode's messages in order, each with its schema name."""
    sys.path.insert(0, str(ROOT))
    from harness.core.record import read_record
    from harness.episode.runner import run
    from harness.episode.settings import RunSettings
    from harness.episode.text_view import render_text_view

    settings = RunSettings(grace_s=0.2)  # the default deadlines, as `harness run` has them
    with tempfile.TemporaryDirectory() as folder:
        summary = run(str(LEVEL), f"{sys.executable} {Path(__file__).resolve()} --agent",
                      difficulty="easy", seed=0, out_dir=folder, settings=settings,
                      secret=SECRET)
        record = read_record(summary["run_dir"])
    out: list[tuple[str, dict[str, Any]]] = [("start", record.header["start"]),
                                             ("hello", record.header["hello"])]
    for turn in record.turns:
        observation = turn["observation"]
        observation["budgets"]["episode_wall_s_left"] = WALL_SHOWN
        observation["text"] = render_text_view(observation)  # its header shows that figure
        out += [("observation", observation), ("action", json.loads(turn["raw_action"]))]
    out.append(("summary", record.end["summary"]))
    return out


def _pretty(data: Any, indent: str = "", width: int = 88) -> str:
    # JSON that breaks an object or a list over lines only when it is long to read; each
    # tool definition stays on one line (`harness tools` prints them laid out).
    flat = json.dumps(data, ensure_ascii=False)
    if len(indent) + len(flat) <= width or not isinstance(data, (dict, list)) or not data:
        return flat
    inner = indent + "  "
    if isinstance(data, dict):
        items = [f"{inner}{json.dumps(k)}: "
                 + (_tools(v, inner) if k == "tools" else _pretty(v, inner))
                 for k, v in data.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    return "[\n" + ",\n".join(inner + _pretty(v, inner, width) for v in data) + "\n" + indent + "]"


def _tools(tools: list[Any], indent: str) -> str:
    lines = [indent + "  " + json.dumps(tool, ensure_ascii=False) for tool in tools]
    return "[\n" + ",\n".join(lines) + "\n" + indent + "]"


def _block(data: Any) -> list[str]:
    return ["```json", _pretty(data), "```"]


def render(messages: list[tuple[str, dict[str, Any]]]) -> str:
    """The Markdown between the markers."""
    start, hello, first = messages[0][1], messages[1][1], messages[2][1]
    lines = ["The harness sends `start` (its `tools` list, one definition per action, as "
             "`harness tools` prints it):", "", *_block(start), "",
             "The agent answers `hello`:", "", *_block(hello), "",
             "The first `observation`, with the structured view under `view` and the text "
             "view, rendered from the same data, under `text` (shown here as text):", "",
             *_block({k: v for k, v in first.items() if k != "text"}), "",
             "```text", first["text"], "```", "",
             "Then each turn one `action` and the next observation; shown here are the "
             "action and that observation's `last_result` and `error` (every line is a "
             "whole message in the run; `tick` is the game clock, 30 ticks a second):", ""]
    turns = [m for _, m in messages[3:-1]]
    for action, seen in zip(turns[0::2], turns[1::2], strict=False):
        lines += ["```json", json.dumps(action, ensure_ascii=False), "```",
                  *_block({"turn": seen["turn"], "tick": seen["tick"],
                           "last_result": seen["last_result"], "error": seen["error"]}), ""]
    if len(turns) % 2:
        lines += ["```json", json.dumps(turns[-1], ensure_ascii=False), "```", ""]
    lines += ["The harness closes with `summary`, and the agent exits:", "",
              *_block(messages[-1][1])]
    return "\n".join(lines)


def rewrite(text: str, body: str) -> str:
    """PROTOCOL.md's text with the example block replaced by body."""
    head, rest = text.split(BEGIN, 1)
    return head + BEGIN + "\n" + body + "\n" + END + rest.split(END, 1)[1]


def main(argv: list[str]) -> int:
    """Rewrite or check PROTOCOL.md's example, or play the agent."""
    if "--agent" in argv:
        return agent()
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    fresh = rewrite(text, render(exchange()))
    if "--check" in argv:
        if fresh != text:
            print("PROTOCOL.md's example is stale: run python3 tools/protocol_example.py")
            return 1
        return 0
    PROTOCOL_MD.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
