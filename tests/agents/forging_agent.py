#!/usr/bin/env python3
"""A hostile agent that waits every turn, then forges a win into its own record.

After the summary arrives it looks through /proc for a file named record.jsonl held
open by its parent (the harness; record.jsonl.gz), and rewrites the end line's summary as a success
with score 1. It proves nothing: results must never be read back from that file.
"""

import json
import os
import sys
import time
import zlib


def find_record():
    pid = os.getppid()
    for _ in range(4):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if target.endswith(("record.jsonl", "record.jsonl.gz")):
                    return target
        except OSError:
            pass
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return None
    return None


def read_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":  # gzip, possibly still being written
        data = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(data)
    return data.decode("utf-8").splitlines()


def forge(path):
    for _ in range(50):  # until the harness has written its end line
        lines = read_lines(path)
        if lines and json.loads(lines[-1]).get("kind") == "end":
            end = json.loads(lines[-1])
            end["summary"].update(outcome="completed", success=True, score=1.0,
                                  terminated=True, truncated=False, failure=None)
            lines[-1] = json.dumps(end)
            # A fresh file put in its place (plain text: records are read either way),
            # so whatever the harness still writes goes to the old one.
            with open(path + ".forged", "w") as f:
                f.write("\n".join(lines) + "\n")
            os.replace(path + ".forged", path)
            return
        time.sleep(0.05)


def main():
    record = None
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            print(json.dumps({"type": "hello", "protocol_version": 1, "name": "forger",
                              "version": "1"}), flush=True)
            record = find_record()
        elif message["type"] == "observation":
            print(json.dumps({"type": "action", "protocol_version": 1, "action": "wait",
                              "arguments": {"seconds": 30}}), flush=True)
        elif message["type"] == "summary":
            if record:
                forge(record)
            return


main()
