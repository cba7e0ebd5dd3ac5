"""A suite's progress as people expect it: one updating line on a terminal, lines elsewhere.

On a terminal the line is redrawn in place (a carriage return, never a newline until
the suite ends) and cut to the terminal's width, so it never wraps into a second line:
a bar, episodes done out of all, how many of those played now succeeded, the time
left, harness errors and the rate (the parts at the end are left off first when the
terminal is narrow). Elsewhere (a pipe, a log file, CI) each finished
episode is one plain line, which a log reader can grep. Quiet, nothing is drawn; the
command prints its one final line itself.

A few lines of our own rather than tqdm or rich: the suite already knows done and
total, and the line must say what those libraries do not (successes, harness errors,
the last episode's outcome) without adding a dependency to the core install.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from harness.core.protocol import OUTCOMES

BAR = 20
# Used when the stream's terminal will not say how wide it is.
DEFAULT_COLUMNS = 80


def duration(seconds: float) -> str:
    """A short human duration: 42s, 3m05s, 2h07m."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class Progress:
    """Draws a suite's progress; called by `harness.suite.plan.run_suite` as episodes finish."""

    def __init__(self, stream: TextIO | None = None, quiet: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Draw on `stream` (standard error by default); `quiet` draws nothing."""
        self.stream = stream or sys.stderr
        self.quiet, self.clock = quiet, clock
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = clock()
        self.kept = 0  # finished by an earlier run in this folder
        self.played = self.succeeded = self.errors = 0

    def _columns(self) -> int:
        try:
            return os.get_terminal_size(self.stream.fileno()).columns or DEFAULT_COLUMNS
        except (OSError, ValueError, AttributeError):
            return DEFAULT_COLUMNS

    def line(self, done: int, total: int, row: dict[str, Any] | None,
             width: int | None = None) -> str:
        """The progress line for `done` of `total` episodes (`row`: the latest one).

        With `width`, the last parts are left off until the line fits (the bar and the
        counts always stay, cut if they must).
        """
        filled = BAR * done // max(total, 1)
        parts = [f"[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total} episodes"]
        if self.played:
            parts.append(f"{self.succeeded}/{self.played} succeeded "
                         f"({self.succeeded / self.played:.0%})")
        elapsed = self.clock() - self.start
        finished = done - self.kept  # the rate counts only what this run played
        rate = finished / elapsed if finished > 0 and elapsed > 0 else 0.0
        if rate:
            parts.append(f"{duration((total - done) / rate)} left" if done < total
                         else f"took {duration(elapsed)}")
        if self.errors:
            parts.append(f"{self.errors} harness error{'s' if self.errors > 1 else ''}")
        if rate:
            parts.append(f"{rate * 60:.1f}/min" if rate < 1 else f"{rate:.1f}/s")
        if row is not None and done < total:
            parts.append(f"last {row['level']}/{row['difficulty']}/s{row['seed']}: "
                         f"{row['outcome']}")
        while width is not None and len(parts) > 1 and len(" · ".join(parts)) > width:
            parts.pop()
        return " · ".join(parts)

    def __call__(self, done: int, total: int, row: dict[str, Any] | None) -> None:
        """Count the latest episode and redraw (row None: the suite starts)."""
        if row is None:
            self.start, self.kept = self.clock(), done
            if done and not self.quiet:
                # Episodes finished by an earlier run of this suite are kept: say so, since
                # a changed agent behind the same command line would otherwise go unnoticed.
                self.stream.write(f"{done} of {total} episodes were finished by an earlier "
                                  "run in this folder and are kept; use a new --out to play "
                                  "them again.\n")
        else:
            outcome = OUTCOMES.get(str(row.get("outcome")))
            if outcome is not None and outcome.by_harness:
                self.errors += 1
            else:
                self.played += 1
                self.succeeded += bool(row.get("success") is True)
        if self.quiet:
            return
        if self.tty:
            width = self._columns() - 1  # the last column would wrap on some terminals
            text = self.line(done, total, row, width)
            self.stream.write("\r" + text[:width].ljust(width)
                              + ("\n" if done == total else ""))
        else:
            self.stream.write(self.line(done, total, row) + "\n")
        self.stream.flush()
