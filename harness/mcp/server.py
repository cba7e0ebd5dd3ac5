"""One episode served over the Model Context Protocol: the MCP client is the agent.

`McpEpisode` joins an MCP server (the official SDK's low-level `Server`) to an ordinary
episode (harness.episode.live) through an in-process agent side (harness.agent.local): the
episode sends start, observations and the summary as it does to any agent, and each
action tool call becomes the agent's action line, parsed, bounded and judged as a
process's line is. The record, its page and its replay are those of `harness run`.

Tools: `mission` (the start message: brief, budgets, units), `observe` (the text view,
the observation as structured content), one tool per
action of the track (the schemas of the start message's tools, as `harness tools
--format mcp` prints them) and `summary` (the summary once the episode has ended).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server

from harness.agent.local import LocalAgent
from harness.core.protocol import PROTOCOL_VERSION
from harness.core.version import package_version
from harness.episode.live import EpisodeSpec, run_episode
from harness.episode.result_words import result_sentence, summary_sentence
from harness.mcp.tools_cmd import tools

OBSERVE, MISSION, SUMMARY = "observe", "mission", "summary"
_POLL_S = 0.01
_NAME_KEEP, _VERSION_KEEP = 200, 100  # the hello schema's bounds

INSTRUCTIONS = (
    "One episode of a 3D mission. Call observe to see the current turn (text view, and "
    "the observation as structured content), then one action tool per turn; its result "
    "says how the action ended and shows the next turn. Each turn has a decision "
    "timeout, as for any agent. When the episode ends, summary gives the outcome.")


def isolation(transport: str) -> dict[str, object]:
    """The record's isolation block for an MCP client: nothing of it is isolated by the harness."""
    return {"sandbox": "external", "pid_namespace": False, "filesystem": "host",
            "network": "shared", "memory_limit_mb": None,
            "reason": f"the agent is an MCP client outside the harness ({transport}): its "
                      "process, files and network are its own; only its tool calls reach "
                      "the episode"}


def _tool(name: str, description: str) -> types.Tool:
    return types.Tool(name=name, description=description,
                      input_schema={"type": "object", "properties": {},
                                    "additionalProperties": False})


def _text(*parts: str) -> list[types.ContentBlock]:
    return [types.TextContent(type="text", text=p) for p in parts]


class McpEpisode:
    """An episode whose agent is the MCP client of `server`.

    Args:
        spec: The episode (its `command` names the transport for the record).
        transport: How the client reaches the server, for the record's isolation.
    """

    def __init__(self, spec: EpisodeSpec, transport: str) -> None:
        self.spec = spec
        self.agent = LocalAgent(self._on_message, ["mcp", transport], isolation(transport),
                                spec.settings.max_line_bytes)
        self._lock = threading.Lock()
        self.start: dict[str, Any] | None = None
        self.observation: dict[str, Any] | None = None  # the turn awaiting its action
        self.summary: dict[str, Any] | None = None
        self._in_flight = False
        self.client: dict[str, str] = {}
        self.connected = threading.Event()
        self.summary_read = threading.Event()  # the client has been told how it ended
        self.actions = tools("mcp", spec.track.name)
        self.server: Server[Any] = Server(
            "mission-harness", version=package_version(), instructions=INSTRUCTIONS,
            on_list_tools=self._list_tools, on_call_tool=self._call_tool)

    # The episode's side (its thread).

    def play(self, wait: Callable[[], bool] | None = None) -> dict[str, Any] | None:
        """Wait for the client's first request, then play the episode; its summary, or None.

        Args:
            wait: Called while no client has come; returns False to give up (the
                transport closed before any request).
        """
        while not self.connected.wait(0.1):
            if wait is not None and not wait():
                return None
        # The page links the agent's log, as for any run: an MCP client has none here.
        (self.spec.run_dir / "agent_stderr.log").touch()
        return run_episode(self.spec, agent=self.agent)

    def _on_message(self, message: dict[str, Any]) -> None:
        with self._lock:
            kind = message.get("type")
            if kind == "start":
                self.start = message
                self.agent.send(self._hello())
            elif kind == "observation":
                self.observation = message
            elif kind == "summary":
                self.summary = message

    def _hello(self) -> dict[str, Any]:
        name = self.client.get("name") or "mcp-client"
        version = self.client.get("version", "")
        return {"type": "hello", "protocol_version": PROTOCOL_VERSION,
                "name": name[:_NAME_KEEP], "version": version[:_VERSION_KEEP],
                "model": None, "description": "An MCP client, playing through harness mcp."}

    # The client's side (the server's event loop).

    def _note_client(self, ctx: Any) -> None:
        if self.connected.is_set():
            return
        info = getattr(getattr(ctx.session, "client_params", None), "client_info", None)
        if info is not None:
            self.client = {"name": str(info.name or ""), "version": str(info.version or "")}
        self.connected.set()

    async def _list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        self._note_client(ctx)
        return types.ListToolsResult(tools=[
            _tool(OBSERVE, "The current turn: the text view, and the observation message as "
                  "structured content. Free: it is not a decision."),
            _tool(MISSION, "The mission: level, brief and budgets as text, the start message "
                  "as structured content. Free: it is not a decision."),
            *[types.Tool.model_validate(t) for t in self.actions],
            _tool(SUMMARY, "The episode's summary (outcome, score, objectives) once it has "
                  "ended; an error while it is still being played."),
        ])

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams
                         ) -> types.CallToolResult:
        self._note_client(ctx)
        if params.name == OBSERVE:
            await self._until(lambda: self.observation is not None or self.summary is not None)
            return self._observe()
        if params.name == MISSION:
            await self._until(lambda: self.start is not None)
            return self._mission()
        if params.name == SUMMARY:
            if self.summary is None:
                return types.CallToolResult(content=_text(
                    "The episode is still being played: call observe and an action tool."),
                    is_error=True)
            return self._ended()
        return await self._act(params.name, params.arguments)

    async def _until(self, ready: Callable[[], bool]) -> None:
        # The episode answers every line (next observation or summary) within its own
        # deadlines; the bound only keeps a handler from outliving a stuck harness.
        give_up = time.monotonic() + self.spec.settings.episode_timeout_s
        while not ready() and time.monotonic() < give_up:
            await anyio.sleep(_POLL_S)

    def _observe(self) -> types.CallToolResult:
        with self._lock:
            obs = self.observation
        if obs is None:
            return self._ended()
        return types.CallToolResult(content=_text(obs["text"]), structured_content={
            "ended": False, "observation": {k: v for k, v in obs.items() if k != "text"}})

    def _mission(self) -> types.CallToolResult:
        start = self.start or {}
        budgets = ", ".join(f"{k.replace('_', ' ')} {v}"
                            for k, v in (start.get("budgets") or {}).items())
        text = (f"Mission {start.get('level')} ({start.get('title')}), difficulty "
                f"{start.get('difficulty')}, seed {start.get('seed')}.\n{start.get('brief')}\n"
                f"Budgets: {budgets}.")
        return types.CallToolResult(content=_text(text), structured_content={"start": start})

    def _ended(self) -> types.CallToolResult:
        summary = self.summary or {}
        self.summary_read.set()
        return types.CallToolResult(content=_text(summary_sentence(summary)),
                                    structured_content={"ended": True, "summary": summary})

    async def _act(self, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        await self._until(lambda: self.observation is not None or self.summary is not None
                          or self._in_flight)
        with self._lock:
            if self._in_flight:
                return types.CallToolResult(content=_text(
                    "Another action of this turn is being played; one action per turn."),
                    is_error=True)
            if self.summary is not None:
                return types.CallToolResult(content=self._ended().content, is_error=True,
                                            structured_content={"ended": True,
                                                                "summary": self.summary})
            self.observation, self._in_flight = None, True
            self.agent.send({"type": "action", "protocol_version": PROTOCOL_VERSION,
                             "action": name, "arguments": arguments or {}})
        try:
            await self._until(lambda: self.observation is not None or self.summary is not None)
        finally:
            self._in_flight = False
        with self._lock:
            obs = self.observation
        if obs is None:
            return self._ended()
        sentence = result_sentence(obs.get("last_result"), obs.get("error"))
        return types.CallToolResult(
            content=_text(sentence, obs["text"]), is_error=bool(obs.get("error")),
            structured_content={"ended": False, "result": sentence,
                                "observation": {k: v for k, v in obs.items() if k != "text"}})
