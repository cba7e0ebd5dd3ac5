#!/usr/bin/env python3
"""A protocol agent that misbehaves in one chosen way: `protocol_agent.py MODE [TURN]`.

It says hello and waits one second per turn, except that at turn TURN (default 1) it
does what MODE says. Each mode is one entry of the table below.
"""

import json
import os
import sys


def out(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def action(name, **arguments):
    return json.dumps({"type": "action", "protocol_version": 1, "action": name,
                       "arguments": arguments})


def flood_stderr():
    chunk = b"x" * (1 << 16)
    for _ in range(3000):  # about 200 MB
        os.write(2, chunk)
    out(action("wait", seconds=1))


MODES = {
    "good": lambda: out(action("wait", seconds=1)),
    "crash": lambda: (sys.stderr.write("boom: agent failed\n"), sys.exit(3)),
    "exit0": lambda: sys.exit(0),
    "silent": lambda: __import__("time").sleep(3600),
    "not_json": lambda: out("this is not json"),
    "not_object": lambda: out("[1, 2, 3]"),
    "unknown_type": lambda: out('{"type": "dance", "protocol_version": 1}'),
    "unknown_action": lambda: out(action("fly", x=1)),
    "missing_arg": lambda: out(action("go_to", x=1)),
    "extra_arg": lambda: out(action("wait", seconds=1, colour="red")),
    "wrong_type": lambda: out(action("wait", seconds="one")),
    "nan": lambda: out(action("wait", seconds=1).replace("1}", "NaN}")),
    "infinity": lambda: out(action("wait", seconds=1).replace("1}", "1e999}")),
    "out_of_range": lambda: out(action("wait", seconds=-5)),
    "bad_id": lambda: out(action("go_to_object", object_id="o999")),
    "huge_line": lambda: out('{"type": "action", "pad": "' + "x" * (10 << 20) + '"}'),
    "multi_lines": lambda: out(action("wait", seconds=1) + "\n" + action("wait", seconds=2)),
    "late_line": lambda: (out(action("wait", seconds=1)), __import__("time").sleep(0.3),
                          out(action("go_to", x=950, z=400))),
    "flood_stderr": flood_stderr,
    "close_stdout": lambda: (sys.stdout.close(), os.close(1), __import__("time").sleep(3600)),
    "binary": lambda: (os.write(1, b"\xff\xfe\x00garbage\x80\n"), None),
}


def main():
    mode = sys.argv[1]
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    always = len(sys.argv) > 3 and sys.argv[3] == "always"
    start = json.loads(sys.stdin.readline())
    assert start["type"] == "start"
    if mode == "no_hello_crash":
        sys.exit(5)
    if mode == "bad_hello":
        out('{"type": "hello", "protocol_version": 1}')
    if mode == "silent_hello":
        __import__("time").sleep(3600)
    out(json.dumps({"type": "hello", "protocol_version": 1, "name": f"faulty-{mode}",
                    "version": "1"}))
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "summary":
            return
        if message["turn"] == at or (always and message["turn"] >= at):
            MODES[mode]()
        else:
            MODES["good"]()


if __name__ == "__main__":
    main()
