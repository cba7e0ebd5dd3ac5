#!/usr/bin/env python3
"""Try to connect to 127.0.0.1:PORT and report the result as one line, then wait."""

import json
import socket
import sys

try:
    with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5):
        report = {"connected": True, "error": None}
except OSError as exc:
    report = {"connected": False, "error": exc.strerror or str(exc)}
print(json.dumps(report), flush=True)
sys.stdin.read()
