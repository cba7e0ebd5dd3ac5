#!/usr/bin/env python3
"""Wait two seconds a turn for argv[1] turns, then leave (the record keeps what it saw)."""

import json
import sys

sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol_version": 1, "name": "brief-wait", "version": "1"}),
      flush=True)
for _turn, _line in zip(range(int(sys.argv[1])), sys.stdin, strict=False):
    print(json.dumps({"type": "action", "protocol_version": 1, "action": "wait",
                      "arguments": {"seconds": 2}}), flush=True)
