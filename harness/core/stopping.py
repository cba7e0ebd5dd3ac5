"""Stopping on SIGINT, SIGTERM or SIGHUP: finish what was started, leave nothing behind.

`installed` makes these signals raise `Interrupted` in the main thread. While an episode
plays, `held` keeps that from happening in the middle of a tick or of a record line:
the signal is only noted, and the episode asks `requested` between turns and lets it
through (`interruptible`) only while it waits for the agent. Either way the episode
ends with the outcome `interrupted`, its record gets an end line, the agent's process
group is ended and its folders are removed. The command then exits with the
conventional status 128 + the signal number (130 for SIGINT, 143 for SIGTERM, 129 for
SIGHUP, the terminal closing).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(BaseException):
    """The process was asked to stop by a signal.

    A BaseException, like KeyboardInterrupt, so that `except Exception` around a part
    that may fail does not swallow it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        """The signal's name, e.g. "SIGTERM"."""
        return signal.Signals(self.signum).name

    @property
    def exit_status(self) -> int:
        """The conventional exit status of a command stopped by this signal."""
        return 128 + self.signum


class _State:
    pending: int | None = None  # the first stop signal received
    raised = False  # Interrupted was raised once; later signals are only noted
    holding = 0  # depth of `held` blocks
    open_window = False  # inside `interruptible` within a held block


_state = _State()


def _handler(signum: int, _frame: FrameType | None) -> None:
    if _state.pending is None:
        _state.pending = signum
    if _state.raised or (_state.holding and not _state.open_window):
        return  # noted; whoever holds the signal stops at its next safe point
    _state.raised = True
    raise Interrupted(_state.pending)


@contextlib.contextmanager
def installed(signals: tuple[signal.Signals, ...] = SIGNALS) -> Iterator[None]:
    """Within the block, the given signals raise `Interrupted` in the main thread.

    The handlers before it are put back afterwards (a test calling the command line in
    process keeps its own Ctrl-C). Outside the main thread nothing is installed.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {signum: signal.signal(signum, _handler) for signum in signals}
    _reset()
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        _reset()  # a stop belongs to the block: later episodes in this process play on


def _reset() -> None:
    _state.pending, _state.raised, _state.holding, _state.open_window = None, False, 0, False


def requested() -> Interrupted | None:
    """The stop asked for so far, as an exception to raise or report, or None."""
    return None if _state.pending is None else Interrupted(_state.pending)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Note stop signals in this block instead of raising them (except in `interruptible`)."""
    _state.holding += 1
    try:
        yield
    finally:
        _state.holding -= 1


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Inside `held`: a block where a stop may raise at once (a wait that may be long).

    Raises:
        Interrupted: A stop was asked for before or during the block.
    """
    stop = requested()
    if stop is not None:
        _state.raised = True
        raise stop
    _state.open_window = True
    try:
        yield
    finally:
        _state.open_window = False
