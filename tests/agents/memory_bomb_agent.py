#!/usr/bin/env python3
"""Say hello, then on the first observation reserve memory 64 MiB at a time.

The blocks are never touched, so without a limit they cost address space, not RAM;
it stops at 16 GiB and waits. Under an address-space limit an allocation fails and
the agent dies of the MemoryError.
"""

import json
import sys

blocks = []
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"type": "hello", "protocol_version": 1, "name": "bomb",
                          "version": "1"}), flush=True)
    elif message["type"] == "observation":
        while len(blocks) < 256:
            blocks.append(bytearray(64 << 20))
        print(json.dumps({"type": "action", "protocol_version": 1, "action": "wait",
                          "arguments": {"seconds": 30}}), flush=True)
