#!/usr/bin/env python3
"""An agent that plays with any model behind an OpenAI-compatible chat API.

Run it as the harness's agent, for example:

    harness run outpost --agent "python3 agents/llm_agent.py --base-url \
http://127.0.0.1:8080/v1 --model my-model"

It speaks only the harness protocol: JSON lines on stdin and stdout. Logs go to
stderr (stdout is the protocol channel). `--help` lists every setting and the
environment variable that can set it instead.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

# The building blocks live beside this script, so it runs from any working directory.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from llm.client import ChatClient, RetryPolicy
from llm.config import ConfigError, load_config
from llm.player import Player

log = logging.getLogger("llm_agent")


class Session:
    """Dispatches incoming protocol messages to the player, one handler per type."""

    def __init__(self, player: Player, out: TextIO) -> None:
        self.player = player
        self.out = out
        self.done = False
        self.handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any] | None]] = {
            "start": player.start,
            "observation": player.decide,
            "summary": self._summary,
        }

    def _summary(self, message: dict[str, Any]) -> None:
        totals = self.player.totals
        log.info("episode over: %s; %d requests sent, %d answered, %s input and %s output "
                 "tokens", message.get("outcome", "?"), self.player.client.attempts,
                 totals.requests, totals.input_tokens, totals.output_tokens)
        self.done = True

    def handle(self, line: str) -> None:
        """Handle one line from the runner, writing the reply if there is one."""
        try:
            message = json.loads(line)
        except json.JSONDecodeError as exc:
            log.error("ignoring a line that is not JSON: %s", exc)
            return
        kind = message.get("type") if isinstance(message, dict) else None
        handler = self.handlers.get(kind)  # type: ignore[arg-type]
        if handler is None:
            log.warning("ignoring a message of unknown type %r", kind)
            return
        reply = handler(message)
        if reply is not None:
            self.out.write(json.dumps(reply, separators=(",", ":")) + "\n")
            self.out.flush()


def main(argv: list[str] | None = None) -> int:
    """Run one episode over stdin/stdout.

    Args:
        argv: Command-line arguments; None reads sys.argv.

    Returns:
        The exit status.
    """
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="%(asctime)s llm_agent %(levelname)s %(message)s")
    # Anything printed by mistake must not corrupt the protocol channel.
    protocol_out, sys.stdout = sys.stdout, sys.stderr
    try:
        config = load_config(argv)
    except ConfigError as exc:
        log.error("bad configuration: %s", exc)
        return 2
    client = ChatClient(config.base_url, config.api_key, config.timeout_s,
                        RetryPolicy(config.retries, config.backoff_s, config.max_backoff_s))
    log.info("model %s at %s", config.model, config.base_url)
    session = Session(Player(config, client), protocol_out)
    for line in sys.stdin:
        if line.strip():
            session.handle(line)
        if session.done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
