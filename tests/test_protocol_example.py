"""PROTOCOL.md's example exchange: every message validates, and it is what the tool writes.

tools/protocol_example.py plays one real episode (key_store, easy, seed 0, a fixed
public secret) and writes the exchange between PROTOCOL.md's markers.
"""

from __future__ import annotations

import importlib.util
import json
import re

from harness.core.protocol import schema_errors
from tests.shared import ROOT

_SPEC = importlib.util.spec_from_file_location("protocol_example",
                                               ROOT / "tools" / "protocol_example.py")
assert _SPEC and _SPEC.loader
example = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(example)


def _documented() -> str:
    text = (ROOT / "PROTOCOL.md").read_text(encoding="utf-8")
    assert example.BEGIN in text and example.END in text
    return text.split(example.BEGIN, 1)[1].split(example.END, 1)[0]


def test_protocol_example_is_what_the_tool_writes_and_every_message_validates() -> None:
    messages = example.exchange()
    for name, message in messages:
        assert schema_errors(name, message) == [], (name, message)
    kinds = [m["action"] for name, m in messages if name == "action"]
    assert sorted(set(kinds)) == sorted(("go_to", "go_to_area", "go_to_object", "turn_and_use",
                                        "attack", "shoot_object", "equip", "use_item_on",
                                        "wait"))
    assert messages[-1][1]["outcome"] == "completed"
    assert _documented() == "\n" + example.render(messages) + "\n", \
        "PROTOCOL.md's example is stale: run python3 tools/protocol_example.py"


def test_every_whole_message_shown_in_protocol_md_validates() -> None:
    shown = _documented()
    whole = [json.loads(b) for b in re.findall(r"```json\n(.*?)\n```", shown, flags=re.S)]
    whole = [m for m in whole if "type" in m]
    text = re.findall(r"```text\n(.*?)\n```", shown, flags=re.S)
    for message in whole:  # the observation's text view is shown apart, as text
        if message["type"] == "observation":
            message.setdefault("text", text[0])
    assert {m["type"] for m in whole} == {"start", "hello", "observation", "action", "summary"}
    for message in whole:
        assert schema_errors(message["type"], message) == [], message
