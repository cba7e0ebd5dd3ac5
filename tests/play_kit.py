"""The play tests' shared set-up: a short winning game of outpost and a scripted player.

`WIN` finishes outpost at difficulty easy, seed 0, under `SECRET` (found from the
reference agent's record of the same episode: its keycard, terminal and vault moves,
without its detours), in 15 decisions. `ScriptedFront` is a play front whose "person"
types those lines, so the command's own code runs without a terminal or a browser.
"""

from __future__ import annotations

from typing import Any

from harness.play.actions import action_forms, parse_line

SECRET = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
WIN = ("go_to_area w2", "attack c1", "go_to_object d2", "wait 0.6", "go_to_object o4",
       "go_to_area w4", "go_to_area w3", "shoot_object o7", "go_to_object o8", "wait 0.6",
       "go_to_area w8", "go_to_object o9", "go_to_object d6", "wait 0.6", "go_to_area w9")
PLAY_ARGS = ("outpost", "--difficulty", "easy", "--seed", "0", "--secret", SECRET)


class ScriptedFront:
    """A front that plays `lines` (then quits if the episode still runs)."""

    def __init__(self, lines: tuple[str, ...] = WIN, notes: str = "") -> None:
        self.lines, self.notes = lines, notes
        self.sessions: list[Any] = []

    def show(self, session: Any, more: bool) -> None:
        self.sessions.append(session)
        seq, left = -1, list(self.lines)
        while True:
            moment = session.wait(seq, 5.0)
            seq = moment.seq
            if moment.summary is not None:
                return
            if moment.observation is None:
                continue
            if not left:
                session.quit()
                continue
            action, arguments = parse_line(left.pop(0), action_forms(moment.start))
            session.act(action, arguments, self.notes)

    def again(self) -> bool:
        return True

    def release(self) -> None:
        return None

    def stop(self) -> None:
        return None
