#!/usr/bin/env python3
"""An agent whose every word tries to break the run page: script tags, closing tags,
attribute-breaking quotes and very long lines, in its hello, notes, stderr and raw lines.

It plays properly otherwise (walks through ways out, waits), sends one invalid line
and reports usage with dollars but no tokens, then plays on until the summary.
"""

import json
import sys

LONG = "W" * 9000  # one unbreakable line, far wider than any screen (notes cap at 20000)
SCRIPT = "<script>window.__pwned = 1; alert('pwned')</script>"
PAYLOADS = [
    SCRIPT,
    "</textarea></pre></details></article><script>window.__pwned = 2</script>",
    "\"><img src=x onerror=\"window.__pwned=3\"> ' onmouseover='window.__pwned=4' x=\"",
    "</script><script>window.__pwned = 5</script><!--",
    "{{ 7 * 7 }} {% if true %}jinja{% endif %} &amp; &lt;b&gt;",
    "\u2028\u2029 line separators and a NUL-free tab\tend",
    LONG,
]


def out(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    start = json.loads(sys.stdin.readline())
    sys.stderr.write("stderr: " + " ".join(PAYLOADS[:5]) + "\n" + LONG + "\n")
    sys.stderr.flush()
    out({"type": "hello", "protocol_version": 1, "name": "hostile " + SCRIPT[:150],
         "version": "\"><script>window.__pwned=6</script>",
         "model": "</textarea><script>window.__pwned=7</script>",
         "description": "'\"><svg onload=\"window.__pwned=8\">" + "D" * 1500})
    assert start["type"] == "start"
    for turn, line in enumerate(sys.stdin):
        message = json.loads(line)
        if message["type"] != "observation":
            break
        notes = PAYLOADS[turn % len(PAYLOADS)] + "\n" + " ".join(PAYLOADS[:-1]) + "\n" + LONG
        if turn == 2:
            sys.stdout.write("not json " + SCRIPT + "\n")
            sys.stdout.flush()
        else:
            ways = (message["view"].get("area") or {}).get("ways_out") or []
            if turn % 2 == 0 and ways:
                action, args = "go_to_area", {"exit_id": ways[turn % len(ways)]["id"]}
            else:
                action, args = "wait", {"seconds": 40}
            out({"type": "action", "protocol_version": 1, "action": action, "arguments": args,
                 "notes": notes, "usage": {"cost_usd": 0.01}})


if __name__ == "__main__":
    main()
