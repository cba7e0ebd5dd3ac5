"""The browser front of `harness play --web`: a small local server over a `PlaySession`.

Standard library only (http.server): one page (harness/pages/templates/play.html.j2)
that asks `/state` for what to show (long polling), sends `/act` with a typed line or
a button's line, `/quit`, and `/next` after the end. The map is the run page's drawing
(harness/pages/map_svg.py) of what the player knows (harness.play.known), or of the
whole level in a playtest. The server binds 127.0.0.1 unless `--host` says otherwise,
and every request must carry the random token of the printed URL, so another page in
the browser or another user of the machine cannot act for the player.
"""

from __future__ import annotations

import json
import secrets
import sys
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

from harness.episode.result_words import summary_sentence
from harness.pages.endstate import CharacterEnd, EndState
from harness.pages.map_svg import build_maps
from harness.pages.render import render
from harness.play.actions import ActionLineError, action_forms, parse_line, quick_choices, usage
from harness.play.session import PlaySession
from harness.play.text import status_line

POLL_S = 10.0  # longest a /state request waits for something new
MAX_BODY = 64 << 10


class WebFront:
    """The browser as a play front: one server for every episode of the command.

    Args:
        host: The address to bind (127.0.0.1 unless asked).
        port: The port, None for a free one.
        reveal: A playtest (the page says so and draws the whole level).
    """

    def __init__(self, host: str, port: int | None, reveal: bool) -> None:
        self.reveal = reveal
        self.token = secrets.token_urlsafe(16)
        self.session: PlaySession | None = None
        self.more = False
        self._again = False
        self._decided = threading.Event()
        self.message = ""
        self.server = ThreadingHTTPServer((host, port or 0), _handler(self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name="play-web",
                                       daemon=True)
        self.thread.start()
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{self.server.server_address[1]}/?token={self.token}"
        print(f"harness play: open {self.url} in a browser", file=sys.stderr, flush=True)

    def show(self, session: PlaySession, more: bool) -> None:
        """Serve this episode until the person chooses, after its end, to go on or stop."""
        self._decided.clear()
        self.session, self.more, self.message = session, more, ""
        self._decided.wait()

    def again(self) -> bool:
        """Whether the person asked for the next episode."""
        return self._again

    def release(self) -> None:
        """End `show` without a choice from the page: no next episode."""
        self._again = False
        self._decided.set()

    def stop(self) -> None:
        """Stop the server."""
        self.server.shutdown()
        self.server.server_close()

    # What the page asks for.

    def state(self, seq: int) -> dict[str, Any]:
        """What the page shows, once there is news after `seq` (or after POLL_S seconds)."""
        session = self.session
        if session is None:
            time.sleep(0.2)  # the first episode is being set up: ask again soon
            return {"seq": -1, "status": "starting...", "text": "", "ended": False}
        moment = session.wait(seq, POLL_S)
        forms = action_forms(moment.start) if moment.start else {}
        obs = moment.observation
        view = (obs or {}).get("view") or {}
        if moment.summary is not None:
            text = summary_sentence(moment.summary)
        elif obs is None:
            text = "The action is being played..." if moment.start else "Starting..."
        else:
            text = obs.get("text") or ""
        return {
            "seq": moment.seq, "text": text, "ended": moment.summary is not None,
            "more": self.more, "reveal": self.reveal, "message": self.message,
            "status": status_line(moment.start, obs, session.name, self.reveal),
            "history": [list(h) for h in moment.history[-8:]],
            "quick": quick_choices(forms, view) if obs is not None else [],
            "forms": [usage(f) for f in forms.values()],
            "map": self.map_svg(session),
        }

    def map_svg(self, session: PlaySession) -> str:
        """The map drawn as the run page draws it: what is known, or the whole level."""
        known = session.known
        plan = session.revealed if session.revealed is not None else known.plan()
        if plan is None:
            return ""
        end = _start_state(plan) if session.revealed is not None else known.end_state()
        maps = build_maps(plan, end, known.legs(), [])
        return "".join(render("_map.svg.j2", m=m) for m in maps)

    def act(self, body: dict[str, Any]) -> dict[str, Any]:
        """Send the typed line (or a button's) as the turn's action."""
        session = self.session
        moment = session.view() if session else None
        if session is None or moment is None or moment.start is None:
            return {"ok": False, "message": "The episode has not started yet."}
        try:
            action, arguments = parse_line(str(body.get("line", "")), action_forms(moment.start))
        except ActionLineError as exc:
            self.message = str(exc)
            return {"ok": False, "message": self.message}
        if not session.act(action, arguments, str(body.get("notes", ""))):
            return {"ok": False, "message": "Wait: the last action is still being played."}
        self.message = ""
        return {"ok": True, "message": ""}

    def quit(self) -> dict[str, Any]:
        """The person leaves: the episode ends as the player quitting, and counts."""
        if self.session is not None and self.session.view().summary is None:
            self.message = "You quit: the episode ends as the player leaving, and it counts."
            self.session.quit()
        return {"ok": True, "message": self.message}

    def next(self, body: dict[str, Any]) -> dict[str, Any]:
        """After the end: the next episode (`again`), or stop."""
        if self.session is None or self.session.view().summary is None:
            return {"ok": False, "message": "The episode is still being played."}
        self._again = bool(body.get("again")) and self.more
        self._decided.set()
        return {"ok": True, "message": ""}


def _start_state(plan: dict[str, Any]) -> EndState:
    # A playtest draws the level as it starts: its characters where they stand.
    end = EndState()
    for who in plan.get("characters") or []:
        at = who.get("at")
        end.characters[who["id"]] = CharacterEnd(who["id"], who["kind"], who["side"],
                                                 tuple(at) if at else None, seen=True)
    return end


def _handler(front: WebFront) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return  # the terminal is the player's, not a request log

        def _allowed(self, query: dict[str, list[str]]) -> bool:
            given = query.get("token", [""])[0] or self.headers.get("X-Play-Token", "")
            # As bytes: compare_digest refuses a str with other than ASCII in it.
            return secrets.compare_digest(given.encode("utf-8"), front.token.encode("utf-8"))

        def _send(self, status: int, body: str, kind: str) -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def _json(self, value: dict[str, Any]) -> None:
            self._send(HTTPStatus.OK, json.dumps(value), "application/json")

        def do_GET(self) -> None:
            url = urlparse(self.path)
            query = parse_qs(url.query)
            if not self._allowed(query):
                self._send(HTTPStatus.FORBIDDEN, "open the URL harness play printed", "text/plain")
            elif url.path == "/":
                self._send(HTTPStatus.OK, render("play.html.j2", token=front.token,
                                                 reveal=front.reveal), "text/html; charset=utf-8")
            elif url.path == "/state":
                seq = query.get("seq", ["-1"])[0]
                self._json(front.state(int(seq) if seq.lstrip("-").isdigit() else -1))
            else:
                self._send(HTTPStatus.NOT_FOUND, "no such page", "text/plain")

        def do_POST(self) -> None:
            url = urlparse(self.path)
            if not self._allowed(parse_qs(url.query)):
                self._send(HTTPStatus.FORBIDDEN, "open the URL harness play printed", "text/plain")
                return
            try:
                length = max(0, min(int(self.headers.get("Content-Length") or 0), MAX_BODY))
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                body = {}
            body = body if isinstance(body, dict) else {}
            routes: dict[str, Callable[[], dict[str, Any]]] = {
                "/act": lambda: front.act(body), "/quit": front.quit,
                "/next": lambda: front.next(body)}
            if url.path in routes:
                self._json(routes[url.path]())
            else:
                self._send(HTTPStatus.NOT_FOUND, "no such action", "text/plain")

    return Handler
