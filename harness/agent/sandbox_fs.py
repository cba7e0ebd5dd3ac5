"""What the agent's filesystem holds inside the sandbox: bubblewrap's mount arguments.

The agent sees the system's programs and libraries read-only (/usr and the /bin, /lib
links, a handful of files from /etc), the Python that runs the harness read-only, its
own code read-only, its own /proc (the host's parts of it read-only) and a minimal
/dev, and a private /tmp and working directory, each a tmpfs of its own of the disk
limit. It never sees the harness's checkout, its packages, the levels, the run
directory or the level file being played. What it sees is an allow-list: a home folder
or one above it is never bound whole, and in a folder bound for its code every
dot-entry (.git, .env, caches, tokens) is covered.

Agent code is bound where it lies, so the absolute paths in its command still work: a
script's directory (its own package, e.g. agents/ with agents/reference/), or for a
program in a `bin` directory the installation around it (a virtualenv, /opt/tool). A
directory that holds anything hidden is never bound whole; then only the file is.
The agent kit (harness/__init__.py, harness/agent/kit.py) is the one piece of the
harness an agent may import, so those two files are bound too.
"""

from __future__ import annotations

import os
import pwd
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import harness
from harness.core.seal import key_file
from world.face import LEVELS_DIR, SCHEMA_DIR

HARNESS_DIR = Path(harness.__file__).resolve().parent
CHECKOUT = HARNESS_DIR.parent
# Hidden from the agent wherever they lie: the code, and the data where the one locator
# finds it (beside the code in a checkout, inside `world` when installed from a wheel).
HIDDEN_DATA = tuple(dict.fromkeys(
    (CHECKOUT / "harness", CHECKOUT / "world", SCHEMA_DIR, LEVELS_DIR)))
# quiz_rules.py: the offline track's blind answerers, which agents/quiz_blind.py runs.
# Each with the __init__.py of its package, which holds only a docstring.
AGENT_KIT = (HARNESS_DIR / "__init__.py", HARNESS_DIR / "agent" / "__init__.py",
             HARNESS_DIR / "agent" / "kit.py", HARNESS_DIR / "offline" / "__init__.py",
             HARNESS_DIR / "offline" / "quiz_rules.py")
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What programs commonly read from /etc: the loader, names, time zone, TLS roots and
# Debian's alternatives (many /usr/bin programs are links through /etc/alternatives).
ETC_FILES = ("alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime",
             "nsswitch.conf", "passwd", "group", "hosts", "host.conf", "resolv.conf",
             "gai.conf", "services", "protocols", "ssl", "ca-certificates",
             "ca-certificates.conf", "mime.types", "os-release")
# The parts of the sandbox's /proc that are the host's, not the agent's: a root agent
# without capabilities may still write sysctls (kernel.core_pattern runs a program as
# root outside every namespace), sysrq and interrupt settings. Bound read-only over
# the fresh /proc; the files that show kernel memory, keys or timers are covered.
PROC_READ_ONLY = ("sys", "sysrq-trigger", "irq", "bus", "fs", "pressure", "acpi", "driver")
# Where the sandbox mounts its own things: never under a folder bound for code.
OWN_MOUNTS = ("/tmp", "/dev", "/proc", "/etc")
PROC_COVERED = ("kcore", "keys", "key-users", "timer_list", "sched_debug", "latency_stats")


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def interpreter_prefixes() -> list[Path]:
    """The installations of the Python that runs the harness (a venv and its base)."""
    seen: list[Path] = []
    real = Path(os.path.realpath(sys.executable))
    for text in (sys.prefix, sys.base_prefix, str(real.parents[1])):
        path = Path(os.path.realpath(text))
        if path not in seen:
            seen.append(path)
    return seen


def interpreter_bin() -> str:
    """The directory of the harness's Python, first on the agent's PATH in the sandbox."""
    return str(Path(sys.executable).parent)


class MountPlan:
    """Builds bubblewrap's filesystem arguments for one agent.

    Args:
        workdir: The agent's private working directory (bound writable).
        hidden: Further paths the agent must not see (the run directory, the level file).
    """

    def __init__(self, workdir: Path, hidden: Iterable[Path], disk_limit_mb: int = 0) -> None:
        self.workdir = Path(workdir).resolve()
        self.disk_limit_mb = disk_limit_mb
        # The seal key's folder too, wherever $XDG_STATE_HOME puts it: whoever holds the
        # key can seal a record the harness did not finish.
        keys = (key_file().parent,)
        self.hidden = [Path(os.path.realpath(p)) for p in (*HIDDEN_DATA, *keys, *hidden)]
        self.bound: list[Path] = [Path("/usr")]
        self.code_dirs: list[Path] = []
        self.args: list[str] = []

    def visible(self, path: Path) -> bool:
        """Whether a path is already inside something bound."""
        return any(_under(path, root) for root in self.bound)

    def _bindable_dir(self, path: Path) -> bool:
        # Never the checkout itself or an ancestor of anything hidden, nor inside hidden
        # data; never a home folder or above one (caches, credentials, other projects).
        if _under(CHECKOUT, path) or any(_under(h, path) or _under(path, h) for h in self.hidden):
            return False
        # Nor a folder holding one of the sandbox's own mounts: bound over them it would
        # show the host's /tmp (other users' files, a suite kept there) or all of /etc,
        # and the warden would count the host's disk as the agent's memory.
        if any(_under(Path(own), path) for own in (self.workdir, *OWN_MOUNTS)):
            return False
        return path != Path("/") and not any(_under(home, path) for home in home_folders())

    def _bind(self, path: Path) -> None:
        self.args += ["--ro-bind", str(path), str(path)]
        self.bound.append(path)

    def add_program_file(self, path: Path) -> None:
        """Make one of the agent's files visible: its directory if safe, else the file."""
        if self.visible(path) or not path.is_file():
            return
        if any(_under(path, h) for h in self.hidden):
            return  # a level file or the harness's own source passed as an argument
        folder = path.parent
        if folder.name in ("bin", "sbin") and _is_binary(path):
            folder = folder.parent  # an installation: bin/ needs its lib/ and share/
        if not self._bindable_dir(folder):
            self._bind(path)
            return
        self._bind(folder)
        self.code_dirs.append(folder)

    def _tmpfs(self, where: str) -> list[str]:
        size = ["--size", str(self.disk_limit_mb << 20)] if self.disk_limit_mb else []
        return [*size, "--tmpfs", where]

    def build(self, argv: Sequence[str]) -> list[str]:
        """The mount arguments for an agent with this argv (program first, absolute)."""
        self.args = ["--ro-bind", "/usr", "/usr"]
        for link in SYSTEM_LINKS:
            if os.path.islink(link):
                self.args += ["--symlink", os.readlink(link), link]
            elif os.path.isdir(link):
                self._bind(Path(link))
        for name in ETC_FILES:
            self.args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
        # /dev's own tmpfs is read-only, with /dev/shm a bounded tmpfs of its own that
        # the warden counts: else files there would be memory no limit sees.
        self.args += ["--proc", "/proc", "--dev", "/dev", *self._tmpfs("/dev/shm"),
                      "--remount-ro", "/dev", *self._tmpfs("/tmp")]
        for name in PROC_READ_ONLY:
            self.args += ["--ro-bind-try", f"/proc/{name}", f"/proc/{name}"]
        for name in PROC_COVERED:
            if os.path.exists(f"/proc/{name}"):
                self.args += ["--ro-bind", "/dev/null", f"/proc/{name}"]
        for prefix in interpreter_prefixes():
            if not self.visible(prefix):
                self._bind(prefix)
        for text in argv:
            if os.path.isabs(text) and os.path.isfile(text):
                self.add_program_file(Path(text))
                self.add_program_file(Path(os.path.realpath(text)))
        self._cover_dot_entries()
        # Its working folder is a tmpfs of its own inside the sandbox, not the host's
        # folder: filling it fills only its own bounded space, never the harness's disk.
        self.args += self._tmpfs(str(self.workdir))
        # A broad bind (an interpreter prefix holding an installed harness) must not
        # reveal the harness's packages or data: cover them, then put the kit back.
        covered = []
        for hidden in self.hidden:
            if any(h != hidden and h.is_dir() and _under(hidden, h) for h in self.hidden):
                continue  # inside a folder covered whole: a mount there would show its name
            if hidden.is_dir() and self.visible(hidden):
                self.args += ["--tmpfs", str(hidden)]
                covered.append(hidden)
            elif hidden.exists() and self.visible(hidden):
                self.args += ["--ro-bind", "/dev/null", str(hidden)]
        for kit in AGENT_KIT:
            self.args += ["--ro-bind", str(kit), str(kit)]
        for folder in covered:  # read-only once the kit's mount points are made in it
            self.args += ["--remount-ro", str(folder)]
        # Bubblewrap's root is a tmpfs of no size that nobody counts (/, /etc, /root):
        # read-only once every mount point is made in it.
        self.args += ["--remount-ro", "/"]
        return list(self.args)

    def _cover_dot_entries(self) -> None:
        # An agent's folder shows its code, not what tools keep beside it: every
        # dot-entry (.git, .env, .cache, a token) is covered unless it was bound itself.
        for folder in self.code_dirs:
            try:
                names = sorted(n for n in os.listdir(folder) if n.startswith("."))
            except OSError:
                continue
            for name in names:
                entry = folder / name
                if entry.is_symlink() or any(_under(b, entry) for b in self.bound):
                    continue  # a link shows only what is bound anyway
                if entry.is_dir():
                    self.args += _empty_folder(entry)
                else:
                    self.args += ["--ro-bind", "/dev/null", str(entry)]


def _empty_folder(path: Path) -> list[str]:
    # Read-only, or it would be a tmpfs the agent could fill without bound.
    return ["--tmpfs", str(path), "--remount-ro", str(path)]


def home_folders() -> list[Path]:
    """The home folders of the user running the harness ($HOME and the password file's)."""
    found = []
    for text in (os.environ.get("HOME"), _passwd_home()):
        if text and os.path.isabs(text):
            found.append(Path(os.path.realpath(text)))
    return found


def _passwd_home() -> str | None:
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        return None


def _is_binary(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == b"\x7fELF"
    except OSError:
        return False
