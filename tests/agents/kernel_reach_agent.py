#!/usr/bin/env python3
"""A hostile agent that reaches for the kernel, then prints one JSON report and exits.

`kernel_reach_agent.py [FILE ...]`, more files in $REACH_FILES (colon-separated, so
that naming them on the command line does not make them its own code). It opens for
writing every file under /proc that is not a process's own (sysctls such as
kernel.core_pattern, sysrq-trigger, pressure triggers) and closes each at once, never
writing a byte, so no host value can change. It creates a user namespace in a child,
attaches to the sandbox's pid 1 with PTRACE_SEIZE (which does not stop it), adds a key
to its own thread keyring (gone with the thread), asks for the id of the user keyring
(which outlives the episode), opens its parent's and pid 1's memory (the launcher's), and
reads each FILE. The report says what worked.
"""

import ctypes
import json
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS_ADD_KEY, SYS_KEYCTL, SYS_PTRACE = 248, 250, 101
CLONE_NEWUSER, PTRACE_SEIZE = 0x10000000, 0x4206
KEY_SPEC_THREAD_KEYRING, KEY_SPEC_USER_KEYRING, KEYCTL_GET_KEYRING_ID = -1, -4, 0


def writable_proc_files():
    opened = []
    for root, dirs, files in os.walk("/proc"):
        if root == "/proc":
            dirs[:] = [d for d in dirs if not d.isdigit() and d not in ("self", "thread-self")]
        for name in files:
            path = os.path.join(root, name)
            try:
                if not os.lstat(path).st_mode & 0o222:
                    continue
                fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                continue
            os.close(fd)
            opened.append(path)
    return opened


def result(value):
    return {"ok": value >= 0, "errno": 0 if value >= 0 else ctypes.get_errno()}


def open_for_writing(path):
    try:
        os.close(os.open(path, os.O_RDWR))
    except OSError as exc:
        return {"ok": False, "errno": exc.errno}
    return {"ok": True}


def new_user_namespace():
    pid = os.fork()
    if pid == 0:
        os._exit(0 if libc.unshare(CLONE_NEWUSER) == 0 else 1)
    return {"ok": os.waitpid(pid, 0)[1] == 0}


def main():
    report = {
        "proc_writable": writable_proc_files(),
        "userns": new_user_namespace(),
        "ptrace_pid1": result(libc.syscall(SYS_PTRACE, PTRACE_SEIZE, 1, 0, 0)),
        "add_key": result(libc.syscall(SYS_ADD_KEY, b"user", b"probe", b"x", 1,
                                       KEY_SPEC_THREAD_KEYRING)),
        "user_keyring": result(libc.syscall(SYS_KEYCTL, KEYCTL_GET_KEYRING_ID,
                                            KEY_SPEC_USER_KEYRING, 0)),
        "parent_mem": open_for_writing(f"/proc/{os.getppid()}/mem"),
        "init_mem": open_for_writing("/proc/1/mem"),
        "files": {},
    }
    for path in [*sys.argv[1:], *filter(None, os.environ.get("REACH_FILES", "").split(":"))]:
        try:
            with open(path, "rb") as fh:
                report["files"][path] = {"ok": True, "bytes": len(fh.read())}
        except OSError as exc:
            report["files"][path] = {"ok": False, "error": exc.strerror}
    print(json.dumps(report), flush=True)


main()
