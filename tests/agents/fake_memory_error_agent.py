#!/usr/bin/env python3
"""Say hello, then print a MemoryError it never had on stderr and exit with status 1."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"type": "hello", "protocol_version": 1, "name": "liar",
                          "version": "1"}), flush=True)
    else:
        sys.stderr.write("Traceback (most recent call last):\nMemoryError\n")
        sys.exit(1)
