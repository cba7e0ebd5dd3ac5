"""The few lines that turn a launcher into the agent: run as `python -I -S -c SOURCE`.

The harness starts this with its source on the command line (inside bubblewrap, or as
a plain child when bubblewrap is missing); it imports nothing from the harness.
Arguments: the descriptor of a Unix socket, the memory limit in bytes (0 for none),
then the agent's argv.

Over the socket it receives the agent's stdin and stdout pipes. They come this way,
not as inherited descriptors, so that bubblewrap's own monitor process never holds a
copy: when the agent closes its stdout the harness sees end of file at once. It sends
back the read end of a close-on-exec pipe (with its credentials, which give the harness
its pid as seen from outside a PID namespace): that pipe reaches end of file when the
exec succeeds and carries the reason when it fails. Then it limits the address space,
restores default signal dispositions (Python ignores SIGPIPE; the launcher may ignore
others) and becomes the agent.
"""

import os
import resource
import signal
import socket
import sys

_RESET = ("SIGPIPE", "SIGXFSZ", "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2")


def main() -> None:
    """Receive the pipes, report back, limit memory and exec the agent."""
    sock_fd, limit, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    sock = socket.socket(fileno=sock_fd)
    _msg, fds, _flags, _addr = socket.recv_fds(sock, 16, 2)
    if len(fds) != 2:
        sys.stderr.write("harness sandbox: the agent's pipes never arrived\n")
        os._exit(126)
    os.dup2(fds[0], 0)
    os.dup2(fds[1], 1)
    if os.getsid(0) != os.getpid():
        os.setsid()  # the agent leads its own session and group, as outside a sandbox
    err_r, err_w = os.pipe()  # both close-on-exec
    socket.send_fds(sock, [b"r"], [err_r])
    # Nothing but stdin, stdout, stderr and the exec-error pipe reaches the agent.
    os.closerange(3, err_w)
    os.closerange(err_w + 1, max(65536, os.sysconf("SC_OPEN_MAX")))
    for name in _RESET:
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        if limit > 0:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.execvp(argv[0], argv)
    except OSError as exc:
        os.write(err_w, (exc.strerror or str(exc)).encode("utf-8", "replace"))
    os._exit(127)


if __name__ == "__main__":
    main()
