#!/usr/bin/env python3
"""Crash before writing anything on stdout."""

import sys

sys.stderr.write("crash_agent: something went badly wrong\n")
sys.exit(3)
