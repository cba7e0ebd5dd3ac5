"""The installed package's name and version, which `--version`, pages and servers report."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

PACKAGE = "mission-harness"


def package_version() -> str:
    """The installed package's version ("0+unknown" when run from an uninstalled tree)."""
    try:
        return version(PACKAGE)
    except PackageNotFoundError:
        return "0+unknown"
