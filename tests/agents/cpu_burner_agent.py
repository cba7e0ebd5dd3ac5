#!/usr/bin/env python3
"""Say hello, then on the first observation compute forever (until its CPU limit)."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "hello", "protocol_version": 1, "name": "burner",
                          "version": "1"}), flush=True)
    else:
        n = 0
        while True:
            n += 1
