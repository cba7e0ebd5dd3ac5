"""`harness doctor`: say what is installed and what is missing, one line each.

Python, the agent sandbox (bubblewrap, tried for real), Chromium (run-page screenshots
and the browser test), cgroups v2, the reference agent (`--stepwise`) and each optional
extra. The extras and their packages are read from the installed package's metadata (or
pyproject.toml in a tree that was never installed), so the list follows pyproject.toml.
Always exits 0: a missing piece is news, not a failure.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import sys
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

from harness.agent.sandbox import BWRAP, bubblewrap_problem
from harness.core.version import PACKAGE, package_version
from harness.suite.stepwise import REFERENCE_AGENT

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
CGROUP_CONTROLLERS = Path("/sys/fs/cgroup/cgroup.controllers")
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


@dataclass(frozen=True)
class Finding:
    """One line of the report.

    Attributes:
        name: What was looked at (`python`, `sandbox`, `extra rl`, ...).
        ok: Whether it is there and works.
        detail: What was found, or what is missing and how to get it.
    """

    name: str
    ok: bool
    detail: str


def requirements() -> tuple[str, list[str]]:
    """The package's Requires-Python and its requirement lines (with their extra markers)."""
    try:
        dist = metadata.distribution(PACKAGE)
        wanted = (dist.metadata.get_all("Requires-Python") or [""])[0]
        return wanted, list(dist.requires or [])
    except metadata.PackageNotFoundError:
        project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
        lines = [f'{r}; extra == "{extra}"'
                 for extra, reqs in project.get("optional-dependencies", {}).items()
                 for r in reqs]
        return project.get("requires-python", ""), list(project["dependencies"]) + lines


def extras(lines: list[str]) -> dict[str, list[str]]:
    """Each extra's distribution names, in the order declared."""
    found: dict[str, list[str]] = {}
    for line in lines:
        extra, name = _EXTRA.search(line), _NAME.match(line)
        if extra and name:
            found.setdefault(extra.group(1), []).append(name.group(0))
    return found


def _installed(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def check_extra(extra: str, names: list[str]) -> Finding:
    """Whether every package of an extra is installed."""
    missing = [n for n in names if _installed(n) is None]
    if missing:
        return Finding(f"extra {extra}", False, f"missing {', '.join(missing)}: "
                       f"pip install -e '.[{extra}]' in a clone "
                       f"(or pip install '{PACKAGE}[{extra}]')")
    return Finding(f"extra {extra}", True, ", ".join(f"{n} {_installed(n)}" for n in names))


def check_python(wanted: str) -> Finding:
    """The running Python against the package's Requires-Python (a `>=X.Y` bound)."""
    bound = re.fullmatch(r"\s*>=\s*(\d+)\.(\d+)\s*", wanted)
    ok = bound is None or sys.version_info[:2] >= (int(bound[1]), int(bound[2]))
    return Finding("python", ok, f"{platform.python_version()} at {sys.executable} "
                   f"(needs {wanted or 'any'})")


def check_bubblewrap() -> Finding:
    """Whether the bwrap program is on PATH."""
    path = shutil.which(BWRAP)
    return Finding("bubblewrap", path is not None, path or
                   f"{BWRAP} not on PATH (Debian: apt-get install bubblewrap); agents run "
                   "unsandboxed and --require-sandbox refuses to play")


def check_sandbox() -> Finding:
    """Whether bubblewrap can make the agent sandbox here (started for real, once)."""
    problem = bubblewrap_problem()
    return Finding("agent sandbox", problem is None, problem or
                   "works: own PID namespace, minimal filesystem, --no-agent-network possible")


def check_chromium() -> Finding:
    """Whether a Chromium is on PATH (tools/screenshots.py and the run-page browser test)."""
    path = next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)
    return Finding("chromium", path is not None, path or
                   "not on PATH (Debian: apt-get install chromium); only the screenshots "
                   "tool and the browser test need it")


def check_cgroups() -> Finding:
    """Whether the unified (v2) cgroup hierarchy is mounted, and its controllers."""
    try:
        controllers = CGROUP_CONTROLLERS.read_text(encoding="utf-8").split()
    except OSError:
        return Finding("cgroups v2", False, f"not mounted ({CGROUP_CONTROLLERS} unreadable); "
                       "the harness does not need it: an agent's memory is capped by an "
                       "address-space limit")
    return Finding("cgroups v2", True, f"mounted, controllers: {' '.join(controllers) or 'none'}")


def check_reference_agent() -> Finding:
    """Whether the reference agent (the stepwise track's) is where the harness looks."""
    if REFERENCE_AGENT.is_file():
        return Finding("reference agent", True, str(REFERENCE_AGENT))
    return Finding("reference agent", False, f"not at {REFERENCE_AGENT}: --stepwise needs a "
                   "clone installed editable (pip install -e '.[rl]')")


CHECKS: tuple[Callable[[], Finding], ...] = (
    check_bubblewrap, check_sandbox, check_chromium, check_cgroups, check_reference_agent)


def findings() -> list[Finding]:
    """Every line of the report, in a stable order: Python, system, then each extra."""
    wanted, lines = requirements()
    return ([check_python(wanted)] + [check() for check in CHECKS]
            + [check_extra(extra, names) for extra, names in extras(lines).items()])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    parser.add_argument("--json", action="store_true",
                        help="print {version, findings: [{name, ok, detail}], ok, missing}")


def run(args: argparse.Namespace) -> int:
    """Print the report; always 0."""
    found = findings()
    missing = [f.name for f in found if not f.ok]
    if args.json:
        json.dump({"version": package_version(), "findings": [asdict(f) for f in found],
                   "ok": len(found) - len(missing), "missing": missing}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    width = max(len(f.name) for f in found)
    print(f"harness {package_version()}")
    for f in found:
        print(f"{'ok' if f.ok else '--'}  {f.name:<{width}}  {f.detail}")
    print(f"{len(found) - len(missing)} of {len(found)} present"
          + (f"; missing: {', '.join(missing)}" if missing else ""))
    return 0
