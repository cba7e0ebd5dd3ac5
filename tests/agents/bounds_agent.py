#!/usr/bin/env python3
"""An agent that sends values built to cost the harness memory or break its output:
`bounds_agent.py MODE MARK`, MODE one of the table below.

MARK is only there so a test can find the agent's process and check it is gone. Every
mode finishes with a walk east, which completes the test's fake mission.
"""

import json
import os
import sys

NOTES_MB = "N" * 1_000_000  # far over the 20,000-character limit, under the line limit
ODD = ("\\ud800 lone \\udfff, a pair \\ud83d\\ude00, NUL \\u0000 ESC \\u001b[31m BEL \\u0007 "
       "DEL \x7f C1 \\u0085")


def action(name, notes=None, **arguments):
    message = {"type": "action", "protocol_version": 1, "action": name, "arguments": arguments}
    if notes is not None:
        message["notes"] = notes
    return json.dumps(message)


def deep(turn):
    if turn == 1:
        return "[" * 200_000 + "]" * 200_000
    if turn == 2:
        return '{"type": "action", "pad": ' + "[" * 65 + "]" * 65 + "}"
    return None


def big_notes(turn):
    # Four turns in five carry a megabyte of notes.
    return action("wait", notes=NOTES_MB, seconds=1) if turn % 5 != 4 and turn < 20 else None


def odd_text(turn):
    # Written by hand so the JSON escapes reach the harness as the agent spelt them.
    if turn == 1:
        return '{"type": "action", "protocol_version": 1, "action": "' + ODD + '", "arguments": {}}'
    if turn == 2:
        return ('{"type": "action", "protocol_version": 1, "action": "wait", '
                '"arguments": {"seconds": 1}, "notes": "' + ODD + '"}')
    return None


MODES = {"deep": (deep, 3), "big_notes": (big_notes, 20), "odd_text": (odd_text, 3)}


def out(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main():
    play, last = MODES[sys.argv[1]]
    os.write(2, b"raw controls on stderr: \x00 \x1b[2J \x07 \x7f end\n")
    start = json.loads(sys.stdin.readline())
    assert start["type"] == "start"
    name = "bounds " + (ODD if sys.argv[1] == "odd_text" else sys.argv[1])
    out('{"type": "hello", "protocol_version": 1, "version": "1", "name": "' + name + '"}')
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "summary":
            return
        turn = message["turn"]
        text = play(turn)
        if turn >= last:
            text = action("go_to", x=950, z=400)
        out(text or action("wait", seconds=1))


if __name__ == "__main__":
    main()
