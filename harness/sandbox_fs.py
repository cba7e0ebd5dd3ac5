"""What the agent's filesystem holds inside the sandbox: bubblewrap's mount arguments.

The agent sees the system's programs and libraries read-only (/usr and the /bin, /lib
links, a handful of files from /etc), the Python that runs the harness read-only, its
own code read-only, a private /tmp, its own /proc and a minimal /dev, and its working
directory, writable and removed after the episode. It never sees the harness's
checkout, its packages, the levels, the run directory or the level file being played.

Agent code is bound where it lies, so the absolute paths in its command still work: a
script's directory (its own package, e.g. agents/ with agents/reference/), or for a
program in a `bin` directory the installation around it (a virtualenv, /opt/tool). A
directory that holds anything hidden is never bound whole; then only the file is.
The agent kit (harness/__init__.py, harness/agent_kit.py) is the one piece of the
harness an agent may import, so those two files are bound too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import harness
from world.face import LEVELS_DIR, SCHEMA_DIR

HARNESS_DIR = Path(harness.__file__).resolve().parent
CHECKOUT = HARNESS_DIR.parent
# Hidden from the agent wherever they lie: the code, and the data where the one locator
# finds it (beside the code in a checkout, inside `world` when installed from a wheel).
HIDDEN_DATA = tuple(dict.fromkeys(
    (CHECKOUT / "harness", CHECKOUT / "world", SCHEMA_DIR, LEVELS_DIR)))
# quiz_rules.py: the offline track's blind answerers, which agents/quiz_blind.py runs.
AGENT_KIT = (HARNESS_DIR / "__init__.py", HARNESS_DIR / "agent_kit.py",
             HARNESS_DIR / "quiz_rules.py")
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What programs commonly read from /etc: the loader, names, time zone, TLS roots and
# Debian's alternatives (many /usr/bin programs are links through /etc/alternatives).
ETC_FILES = ("alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime",
             "nsswitch.conf", "passwd", "group", "hosts", "host.conf", "resolv.conf",
             "gai.conf", "services", "protocols", "ssl", "ca-certificates",
             "ca-certificates.conf", "mime.types", "os-release")


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

    def __init__(self, workdir: Path, hidden: Iterable[Path]) -> None:
        self.workdir = Path(workdir).resolve()
        self.hidden = [Path(os.path.realpath(p)) for p in (*HIDDEN_DATA, *hidden)]
        self.bound: list[Path] = [Path("/usr")]
        self.args: list[str] = []

    def visible(self, path: Path) -> bool:
        """Whether a path is already inside something bound."""
        return any(_under(path, root) for root in self.bound)

    def _bindable_dir(self, path: Path) -> bool:
        # Never the checkout itself or an ancestor of anything hidden, nor inside hidden data.
        if _under(CHECKOUT, path) or any(_under(h, path) or _under(path, h) for h in self.hidden):
            return False
        return path != Path("/")

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
        self._bind(folder if self._bindable_dir(folder) else path)

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
        self.args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        for prefix in interpreter_prefixes():
            if not self.visible(prefix):
                self._bind(prefix)
        for text in argv:
            if os.path.isabs(text) and os.path.isfile(text):
                self.add_program_file(Path(text))
                self.add_program_file(Path(os.path.realpath(text)))
        self.args += ["--bind", str(self.workdir), str(self.workdir)]
        # A broad bind (an interpreter prefix holding an installed harness) must not
        # reveal the harness's packages or data: cover them, then put the kit back.
        for hidden in self.hidden:
            if any(h != hidden and h.is_dir() and _under(hidden, h) for h in self.hidden):
                continue  # inside a folder covered whole: a mount there would show its name
            if hidden.is_dir() and self.visible(hidden):
                self.args += ["--tmpfs", str(hidden)]
            elif hidden.exists() and self.visible(hidden):
                self.args += ["--ro-bind", "/dev/null", str(hidden)]
        for kit in AGENT_KIT:
            self.args += ["--ro-bind", str(kit), str(kit)]
        return list(self.args)


def _is_binary(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == b"\x7fELF"
    except OSError:
        return False
