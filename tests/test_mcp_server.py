"""`harness mcp`: one episode played by the MCP SDK's own client, in process and over stdio."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the optional extra mcp")

import anyio
from mcp import Client, StdioServerParameters

from agents.reference.brain import Brain
from harness.core.record import read_record
from harness.episode.replay import replay
from harness.episode.settings import RunSettings
from harness.mcp.mcp_cmd import episode_spec
from harness.mcp.server import McpEpisode
from harness.mcp.tools_cmd import tools
from tests.shared import ROOT, TEST_SECRET

pytestmark = pytest.mark.timeout(60)


def _episode(out: Path, difficulty: str = "easy", **settings: Any) -> McpEpisode:
    spec = episode_spec("outpost", "mcp (in-process)", difficulty=difficulty, out_dir=out,
                        settings=RunSettings(**settings))
    return McpEpisode(spec, "in-process")


def _serve(episode: McpEpisode, client_side) -> dict[str, Any]:
    # The episode plays in a thread, as `harness mcp` plays it beside its server.
    box: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: box.update(summary=episode.play()))
    thread.start()
    try:
        anyio.run(client_side)
    finally:
        episode.agent.leave()
        thread.join(30)
    return box["summary"]


def test_the_sdk_client_plays_outpost_to_the_end_and_the_record_replays(tmp_path):
    episode = _episode(tmp_path)
    seen: dict[str, Any] = {}

    async def client_side() -> None:
        async with Client(episode.server) as client:
            listed = (await client.list_tools()).tools
            seen["tools"] = {t.name: t.input_schema for t in listed}
            seen["early"] = await client.call_tool("summary", {})
            seen["mission"] = await client.call_tool("mission", {})
            brain, start = Brain(), seen["mission"].structured_content["start"]
            shown = await client.call_tool("observe", {})
            while not shown.structured_content["ended"]:
                action, arguments, *_ = brain.decide(shown.structured_content["observation"],
                                                     start)
                shown = await client.call_tool(action, arguments)
            seen["summary"] = await client.call_tool("summary", {})

    summary = _serve(episode, client_side)
    # The tools: observe, mission and summary beside the actions, with the start message's
    # schemas (as `harness tools --format mcp` prints them).
    actions = {t["name"]: t["inputSchema"] for t in tools("mcp")}
    assert seen["tools"] == {"observe": seen["tools"]["observe"],
                             "mission": seen["tools"]["mission"],
                             "summary": seen["tools"]["summary"], **actions}
    assert seen["early"].is_error
    assert "Hillside outpost" in seen["mission"].content[0].text
    assert summary["outcome"] == "completed" and summary["score"] == 1.0
    assert seen["summary"].structured_content["summary"]["outcome"] == "completed"
    header = read_record(summary["run_dir"]).header
    assert header["isolation"]["sandbox"] == "external"
    assert "outside the harness" in header["isolation"]["reason"]
    assert header["hello"]["name"] == "mcp"  # the SDK client's own name
    report = replay(summary["run_dir"])
    assert report.verified, report.divergence
    assert (Path(summary["run_dir"]) / "agent_stderr.log").read_bytes() == b""


def test_bad_calls_count_against_the_client_and_end_the_episode(tmp_path):
    episode = _episode(tmp_path, max_invalid_in_a_row=2)
    answers = []

    async def client_side() -> None:
        async with Client(episode.server) as client:
            await client.call_tool("observe", {})
            answers.append(await client.call_tool("go_to_object", {"object_id": "o999"}))
            answers.append(await client.call_tool("fly", {"to": "moon"}))
            answers.append(await client.call_tool("wait", {"seconds": 1}))

    summary = _serve(episode, client_side)
    assert answers[0].is_error and "unknown_id" in answers[0].content[0].text
    assert answers[1].structured_content["ended"]
    assert "unknown_action" in answers[1].content[0].text
    assert answers[2].is_error and "has ended" in answers[2].content[0].text
    assert summary["invalid_actions"] == 2 and summary["decisions"] == 2
    turns = read_record(summary["run_dir"]).turns
    assert [t["error"]["code"] for t in turns] == ["unknown_id", "unknown_action"]


def test_the_decision_timeout_applies_to_the_mcp_client(tmp_path):
    episode = _episode(tmp_path, decision_timeout_s=0.3)
    answers = []

    async def client_side() -> None:
        async with Client(episode.server) as client:
            await client.call_tool("observe", {})
            await anyio.sleep(0.8)
            answers.append(await client.call_tool("wait", {"seconds": 1}))

    summary = _serve(episode, client_side)
    assert summary["outcome"] == "agent_timeout"
    assert answers[0].structured_content["summary"]["outcome"] == "agent_timeout"


@pytest.mark.slow
def test_harness_mcp_over_stdio_records_a_client_that_leaves(tmp_path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "harness.cli", "mcp", "outpost", "--difficulty", "easy", "--out",
              str(tmp_path), "--linger", "1", "--secret", TEST_SECRET.hex()], cwd=str(ROOT))
    answers = []

    async def client_side() -> None:
        async with Client(params) as client:
            answers.append(await client.call_tool("observe", {}))
            answers.append(await client.call_tool("wait", {"seconds": 0.5}))

    anyio.run(client_side)
    assert "Turn 0" in answers[0].content[0].text
    assert answers[1].content[0].text.startswith("wait ended: arrived")
    deadline = time.monotonic() + 20
    run_dirs: list[Path] = []
    while time.monotonic() < deadline:
        run_dirs = [p for p in tmp_path.iterdir() if (p / "index.html").is_file()]
        if run_dirs:
            break
        time.sleep(0.1)
    record = read_record(run_dirs[0])
    assert record.end is not None and len(record.turns) == 2
    assert record.end["summary"]["outcome"] == "agent_crashed"
    assert replay(run_dirs[0]).verified


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_harness_mcp_over_streamable_http_plays_and_stops(tmp_path):
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "harness.cli", "mcp", "outpost", "--difficulty", "easy",
         "--http", str(port), "--out", str(tmp_path), "--max-invalid", "1", "--linger", "5",
         "--secret", TEST_SECRET.hex()],
        cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answers = []

    async def client_side() -> None:
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            answers.append(await client.call_tool("observe", {}))
            answers.append(await client.call_tool("go_to_object", {"object_id": "o999"}))
            answers.append(await client.call_tool("summary", {}))

    try:
        deadline = time.monotonic() + 20
        while True:  # the server needs a moment to listen
            try:
                anyio.run(client_side)
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                answers.clear()
                time.sleep(0.2)
        out, err = server.communicate(timeout=20)
    finally:
        server.kill()
    assert out == b""  # on HTTP as on stdio, standard output is not the harness's to use
    assert answers[2].structured_content["summary"]["outcome"] == "protocol_error"
    assert server.returncode == 0, err
    run_dir = Path(err.decode().splitlines()[0])
    assert replay(run_dir).verified
