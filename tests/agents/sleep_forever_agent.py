#!/usr/bin/env python3
"""Spawn a sleeping child, report its pid, then sleep without reading stdin."""

import json
import subprocess
import sys
import time

child = subprocess.Popen(
    [sys.executable, "-c", "import time; time.sleep(60)"],
    stdin=subprocess.DEVNULL,
    stdout=subprocess.DEVNULL,
)
sys.stdout.write(json.dumps({"child_pid": child.pid}) + "\n")
sys.stdout.flush()
time.sleep(60)
