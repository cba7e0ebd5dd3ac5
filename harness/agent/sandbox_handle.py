"""The harness's handle on an agent started through the shim, in bubblewrap or not.

`ShimmedAgent` duck-types what `harness.agent.process.AgentProcess` uses of Popen, and
knows what a plain Popen cannot: whether the agent's PID namespace is gone, and which
limit its warden (`harness.agent.sandbox_shim`) saw end it.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from typing import Any

from harness.agent.launch import group_has_live_members, pid_is_live
from harness.agent.limits import LimitHit, parse_report

_REPORT_WAIT_S = 2.0  # the warden reports just before it exits


@dataclass
class ShimmedAgent:
    """A running agent started through the shim; duck-types what AgentProcess uses of Popen.

    `pid` is the agent's own pid as the harness sees it, leader of its process group;
    `popen` is bubblewrap or, without it, the warden; `warden` the socket on which the
    warden reports which limit ended the agent.
    """

    popen: subprocess.Popen[bytes]
    stdin: Any
    stdout: Any
    pid: int
    init_pid: int | None = None
    namespace: str | None = None
    warden: socket.socket | None = None
    limit_values: dict[str, int] | None = None
    _report: bytes | None = None

    @property
    def stderr(self) -> Any:
        """The agent's stderr pipe (bubblewrap's own messages go there too)."""
        return self.popen.stderr

    def poll(self) -> int | None:
        """The agent's exit status, negative for a signal, None while it runs."""
        code = self.popen.poll()
        if code is None or code < 0:
            return code  # the launcher itself was killed (not by the agent: see docs/sandbox.md)
        # The warden, and bubblewrap after it, exit with the agent's status, or 128+n
        # when signal n killed it.
        return -(code - 128) if 128 < code <= 128 + 64 else code

    @property
    def returncode(self) -> int | None:
        """Like Popen.returncode."""
        return self.poll()

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the agent and, in a sandbox, for its namespace to be gone."""
        deadline = time.monotonic() + (timeout if timeout is not None else 1e9)
        self.popen.wait(timeout)
        while self._namespace_alive():
            if time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(self.popen.args, timeout or 0)
            time.sleep(0.01)
        code = self.poll()
        assert code is not None
        return code

    def limit_hit(self) -> LimitHit | None:
        """The limit that ended the agent, as its warden reported it; None for none."""
        if self._report is None and self.warden is not None and self.poll() is not None:
            self._report = _read_report(self.warden)
            self.warden.close()
            self.warden = None
        return parse_report(self._report or b"", self.limit_values or {})

    def close_warden(self) -> None:
        """Close the report socket (the agent is gone)."""
        if self.warden is not None:
            self.warden.close()
            self.warden = None

    def group_alive(self) -> bool:
        """Whether anything the agent started may still run."""
        if self.init_pid is None:
            return self.popen.poll() is None or group_has_live_members(self.pid)
        return self.popen.poll() is None or self._namespace_alive()

    def signal_group(self, sig: signal.Signals) -> bool:
        """Signal the agent's group; SIGKILL also ends its PID namespace."""
        sent = False
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)
            sent = True
        if sig == signal.SIGKILL and self._namespace_alive():
            assert self.init_pid is not None
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.init_pid, sig)  # the kernel then kills every process inside
                sent = True
        return sent

    def _namespace_alive(self) -> bool:
        if self.init_pid is None:
            return False
        return pid_namespace(self.init_pid) == self.namespace and pid_is_live(self.init_pid)


def _read_report(sock: socket.socket) -> bytes:
    """The warden's one-line report: read until it closes, for at most a short wait."""
    data, deadline = b"", time.monotonic() + _REPORT_WAIT_S
    while len(data) < 4096:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([sock], [], [], left)[0]:
            break
        try:
            chunk = sock.recv(4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    return data


def pid_namespace(pid: int) -> str | None:
    """The id of the PID namespace a process is in, or None when it is gone."""
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None
