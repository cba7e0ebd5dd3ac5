#!/usr/bin/env python3
"""A hostile agent that tries to reach past its sandbox, then plays by waiting.

`snooping_agent.py TOKEN LEVEL_FILE RUN_DIR`: before anything else it reads every
environment and command line it can find under /proc, lists every open file there,
reads LEVEL_FILE, the shipped levels and the harness's own source, tries to write into
RUN_DIR and every folder in it, and starts a grandchild in a new session (a double
fork) whose command line carries TOKEN and which would sleep for ten minutes. It
writes what it found as one line `REPORT {json}` on stderr, then says hello and waits
every turn (or, without a start message, just waits for stdin to close).
"""

import json
import os
import sys
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]


def attempt(fn):
    try:
        return {"ok": True, "value": fn()}
    except OSError as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {exc.strerror or exc}"}


def read(path, limit=200_000):
    with open(path, "rb") as fh:
        return fh.read(limit).decode("utf-8", "replace")


def proc_survey():
    pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    found = {"pids": pids, "environ": {}, "cmdline": {}, "fds": {}}
    for pid in pids:
        found["environ"][pid] = attempt(lambda p=pid: read(f"/proc/{p}/environ"))
        found["cmdline"][pid] = attempt(lambda p=pid: read(f"/proc/{p}/cmdline"))
        found["fds"][pid] = attempt(lambda p=pid: [
            os.readlink(f"/proc/{p}/fd/{fd}") for fd in os.listdir(f"/proc/{p}/fd")])
    found["parent_environ"] = attempt(lambda: read(f"/proc/{os.getppid()}/environ"))
    return found


def write_into(folder):
    written = []
    for target in [Path(folder), *sorted(p for p in Path(folder).glob("*") if p.is_dir())]:
        (target / "planted.txt").write_text("the agent was here")
        written.append(str(target))
    return written


def spawn_grandchild(token):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c",
                                      "import time; time.sleep(600)", token])
        os._exit(0)
    os.wait()


def main():
    token, level_file, run_dir = sys.argv[1:4]
    report = {
        "proc": proc_survey(),
        "level_file": attempt(lambda: len(read(level_file))),
        "shipped_level": attempt(lambda: len(read(CHECKOUT / "levels" / "outpost.json"))),
        "levels_dir": attempt(lambda: os.listdir(CHECKOUT / "levels")),
        "harness_source": attempt(lambda: len(read(CHECKOUT / "harness" / "episode" / "live.py"))),
        "world_source": attempt(lambda: os.listdir(CHECKOUT / "world")),
        "schemas": attempt(lambda: os.listdir(CHECKOUT / "schemas")),
        "agent_kit": attempt(lambda: len(read(CHECKOUT / "harness" / "agent" / "kit.py"))),
        "run_dir_listing": attempt(lambda: os.listdir(run_dir)),
        "run_dir_write": attempt(lambda: write_into(run_dir)),
    }
    spawn_grandchild(token)
    sys.stderr.write("REPORT " + json.dumps(report) + "\n")
    sys.stderr.flush()
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "start":
            reply = {"type": "hello", "protocol_version": 1, "name": "snooper", "version": "1"}
        elif message.get("type") == "observation":
            reply = {"type": "action", "protocol_version": 1, "action": "wait",
                     "arguments": {"seconds": 30}}
        else:
            continue
        print(json.dumps(reply), flush=True)
    time.sleep(0.2)


main()
