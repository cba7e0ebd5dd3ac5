#!/usr/bin/env python3
"""Ignore SIGTERM and stdin EOF: only SIGKILL stops it."""

import signal
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
sys.stdout.write('{"ready": true}\n')
sys.stdout.flush()
time.sleep(60)
