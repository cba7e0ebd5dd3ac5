"""The terminal front of `harness play`: a prompt_toolkit screen over a `PlaySession`.

prompt_toolkit (not curses, not Textual): it is small, pure Python, keeps working off
the main thread (it polls the terminal's size there, so resizing redraws), completes
typed words from a menu, and turns colour off by itself when NO_COLOR is set; every
mark also has a character or an attribute (reverse, bold), so nothing depends on
colour. The screen: a status line, the text view, a map of what the player knows, the
last actions with their results, the action line (Tab lists actions, then the ids the
view offers) and a notes line (the action's `notes`). Ctrl-C quits: the episode ends
as the player leaving, and it counts.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.output import create_output
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame, TextArea

from harness.episode.result_words import summary_sentence
from harness.play.actions import ActionLineError, action_forms, id_choices, parse_line, usage
from harness.play.session import PlaySession
from harness.play.text import ascii_map, legend, revealed_lines, status_line

HELP = ("Enter: send the action  Tab: actions and ids  F2: notes <-> action  "
        "PgUp/PgDn: scroll the view  Ctrl-C: quit (the episode ends and counts)")
# Attributes first: they survive a monochrome terminal and NO_COLOR.
STYLE = Style.from_dict({"status": "reverse bold", "error": "bold underline",
                         "help": "reverse", "ended": "bold reverse", "frame.label": "bold"})
HISTORY_LINES = 4


class _Words(Completer):
    """Completes the action name, then its arguments: ids the view offers, NAME= words."""

    def __init__(self, screen: TerminalScreen) -> None:
        self.screen = screen

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterable[Completion]:
        forms = self.screen.forms
        if not document.text_before_cursor.strip() and not complete_event.completion_requested:
            return  # the menu opens on an empty line only when asked for (Tab)
        words = document.text_before_cursor.split(" ")
        word = words[-1]
        if len(words) == 1:
            for name, form in forms.items():
                if name.startswith(word):
                    yield Completion(name, -len(word), display_meta=usage(form))
            return
        form = forms.get(words[0])
        if form is None:
            return
        given = [w for w in words[1:-1] if w and "=" not in w]
        required = form.required
        view = (self.screen.session.view().observation or {}).get("view") or {}
        if len(given) < len(required):
            for ident, meta in id_choices(required[len(given)].name, view):
                if ident.startswith(word):
                    yield Completion(ident, -len(word), display_meta=meta)
        for param in form.params:
            if not param.required and f"{param.name}=".startswith(word):
                yield Completion(f"{param.name}=", -len(word), display_meta=param.help)


class TerminalScreen:
    """One episode on the terminal: built for a session, `run` until the player closes it."""

    def __init__(self, session: PlaySession, reveal: bool, more: bool) -> None:
        self.session, self.name, self.reveal = session, session.name, reveal
        self.more = more
        self.again = False
        self.forms: dict[str, Any] = {}
        self.message = ""
        self.scroll = 0
        self.action = TextArea(prompt="action> ", multiline=False, completer=_Words(self),
                               complete_while_typing=True, accept_handler=self._send)
        self.notes = TextArea(prompt="notes>  ", multiline=False,
                              accept_handler=self._back_to_action)
        self.view_window = Window(FormattedTextControl(self._view_text), wrap_lines=True,
                                  get_vertical_scroll=lambda _w: self.scroll)
        body = HSplit([
            Window(FormattedTextControl(self._status), height=1),
            VSplit([Frame(self.view_window, title="what you perceive"),
                    Frame(Window(FormattedTextControl(self._map_text), wrap_lines=False),
                          title="map of what you know", width=50)]),
            Window(FormattedTextControl(self._history), height=HISTORY_LINES + 1),
            self.action, self.notes,
            Window(FormattedTextControl(lambda: [("class:help", HELP)]), height=1),
        ])
        root = FloatContainer(body, floats=[Float(xcursor=True, ycursor=True,
                                                  content=CompletionsMenu(max_height=12))])
        stdin, stdout = _terminal()
        self.app: Application[None] = Application(
            layout=Layout(root, focused_element=self.action), key_bindings=self._keys(),
            style=STYLE, full_screen=True, mouse_support=False,
            input=create_input(stdin), output=create_output(stdout))

    def _keys(self) -> KeyBindings:
        keys = KeyBindings()

        @keys.add("c-c")
        def _quit(event: KeyPressEvent) -> None:
            if self.session.view().summary is not None:
                self.again = False
                event.app.exit()
                return
            self.message = "You quit: the episode ends as the player leaving, and it counts."
            self.session.quit()

        @keys.add("f2")
        def _switch(event: KeyPressEvent) -> None:
            target = self.notes if event.app.layout.has_focus(self.action) else self.action
            event.app.layout.focus(target)

        @keys.add("pageup")
        def _up(_event: KeyPressEvent) -> None:
            self.scroll = max(0, self.scroll - 10)

        @keys.add("pagedown")
        def _down(_event: KeyPressEvent) -> None:
            self.scroll += 10

        return keys

    # What is drawn.

    def _status(self) -> list[tuple[str, str]]:
        moment = self.session.view()
        return [("class:status", status_line(moment.start, moment.observation, self.name,
                                             self.reveal).ljust(400))]

    def _view_text(self) -> list[tuple[str, str]]:
        moment = self.session.view()
        if moment.summary is not None:
            then = ("Enter: the next episode (the level is read again); q then Enter, or "
                    "Ctrl-C: stop" if self.more else "Enter (or Ctrl-C): close")
            return [("class:ended", f"Episode over: {summary_sentence(moment.summary)}\n"),
                    ("", then + "\n")]
        if moment.observation is None:
            return [("", "The action is being played..." if moment.start else "Starting...")]
        return [("", moment.observation.get("text") or "")]

    def _map_text(self) -> list[tuple[str, str]]:
        rows = self.app.output.get_size().rows if hasattr(self, "app") else 24
        # A playtest lists the whole level below the map: the map leaves it room.
        room = rows - (46 if self.session.revealed is not None else 26)
        lines = ascii_map(self.session.known, 46, max(6, min(30, room)))
        text = "\n".join(lines) if lines else "(nothing known yet)"
        shown = [("", text + "\n\n" + legend().replace("  ", "\n"))]
        if self.session.revealed is not None:
            shown.append(("class:ended", "\n\n" + "\n".join(revealed_lines(
                self.session.revealed))))
        return shown

    def _history(self) -> list[tuple[str, str]]:
        rows = [("", f"> {action}  ->  {result}\n")
                for action, result in self.session.view().history[-HISTORY_LINES:]]
        return [*rows, ("class:error", self.message)]

    # What the keys do.

    def _send(self, buffer: Any) -> bool:
        moment = self.session.view()
        if moment.summary is not None:
            self.again = self.more and buffer.text.strip().lower() != "q"
            self.app.exit()
            return False
        if moment.start is not None and not self.forms:
            self.forms = action_forms(moment.start)
        try:
            action, arguments = parse_line(buffer.text, self.forms)
        except ActionLineError as exc:
            self.message = str(exc)
            return True  # keep the line to fix it
        if not self.session.act(action, arguments, self.notes.text):
            self.message = "Wait: the last action is still being played."
            return True
        self.message, self.scroll = "", 0
        self.notes.text = ""
        return False

    def _back_to_action(self, _buffer: Any) -> bool:
        self.app.layout.focus(self.action)
        return True  # the notes stay until an action carries them

    def _follow(self) -> None:
        # Redraws on news from the episode, and on a new terminal size: off the main
        # thread there is no SIGWINCH, and prompt_toolkit's own poll misses a resize in
        # its first half second.
        seq, size = -1, self.app.output.get_size()
        while not self.app.is_done:
            moment = self.session.wait(seq, 0.5)
            if moment.start is not None and not self.forms:
                self.forms = action_forms(moment.start)
            now = self.app.output.get_size()
            if moment.seq != seq or now != size:
                seq, size = moment.seq, now
                self.app.invalidate()

    def run(self) -> None:
        """Show the episode until the player closes it after its end (in this thread)."""
        follower = threading.Thread(target=self._follow, name="play-follow", daemon=True)
        follower.start()
        self.app.run(handle_sigint=False)


def _terminal() -> tuple[Any, Any]:
    # Standard input and output are the terminal unless redirected; then the
    # controlling terminal itself, so `harness play ... > log` still shows the screen.
    if sys.stdin.isatty() and sys.stdout.isatty():
        return sys.stdin, sys.stdout
    return open("/dev/tty"), open("/dev/tty", "w")


class TerminalFront:
    """The terminal as a play front: one screen per episode."""

    def __init__(self, reveal: bool) -> None:
        """Check that there is a terminal to play in, before any episode is made.

        Raises:
            OSError: No terminal (the message says to play in a browser instead).
        """
        self.reveal = reveal
        self._again = False
        self._screen: TerminalScreen | None = None
        try:
            for stream in _terminal():
                if stream not in (sys.stdin, sys.stdout):
                    stream.close()
        except OSError as exc:
            raise OSError(f"no terminal to play in ({exc.strerror or exc}); play in a "
                          "browser with --web") from None

    def show(self, session: PlaySession, more: bool) -> None:
        """Show the episode until the person closes it."""
        self._screen = TerminalScreen(session, self.reveal, more)
        self._screen.run()
        self._again = self._screen.again

    def release(self) -> None:
        """Close the screen without asking (a signal came where the command runs)."""
        app = self._screen.app if self._screen is not None else None
        if app is not None and app.is_running and app.loop is not None:
            app.loop.call_soon_threadsafe(app.exit)

    def again(self) -> bool:
        """Whether the person asked for the next episode."""
        return self._again

    def stop(self) -> None:
        """Nothing to release: each screen leaves the terminal as it found it."""
