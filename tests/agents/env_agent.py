#!/usr/bin/env python3
"""Report its environment, working directory and the directory's contents."""

import json
import os
import sys

report = {"env": dict(os.environ), "cwd": os.getcwd(), "listing": os.listdir(".")}
sys.stdout.write(json.dumps(report) + "\n")
sys.stdout.flush()
sys.stdin.read()
