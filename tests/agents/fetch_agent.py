#!/usr/bin/env python3
"""Walk to the first key in view with go_to_object, then wait; for target-gone tests."""

import json
import sys


def out(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def action(name, **arguments):
    return {"type": "action", "protocol_version": 1, "action": name, "arguments": arguments}


def main():
    json.loads(sys.stdin.readline())
    out({"type": "hello", "protocol_version": 1, "name": "fetch", "version": "1"})
    sent = False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "summary":
            return
        keys = [o["id"] for o in message["view"]["objects"] if o["kind"] == "key"]
        if keys and not sent:
            sent = True
            out(action("go_to_object", object_id=keys[0]))
        else:
            out(action("wait", seconds=1))


if __name__ == "__main__":
    main()
