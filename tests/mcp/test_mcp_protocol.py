"""The server as Claude Code meets it: the handshake from the learned cache, the tool list, start-up,
the project it finds, errors that say what to do, and a clean exit."""

from __future__ import annotations

import json
import time

import pytest
from mcpkit import READ_ONLY, TOOLS, _fresh, _spawn, server_env, session, text


def test_lists_tools_with_annotations(project, home):
    async def calls(client):
        return (await client.list_tools()).tools

    tools = {t.name: t for t in session(project.root, home, calls)}
    assert set(tools) == TOOLS
    for name, tool in tools.items():
        assert tool.description  # what each says: test_mcp_surface.py
        assert tool.annotations.read_only_hint is (name in READ_ONLY)
        assert tool.annotations.open_world_hint is False
    assert tools["memory_forget"].annotations.destructive_hint is True
    assert tools["memory_save"].annotations.destructive_hint is False
    assert tools["memory_search"].input_schema["required"] == ["query"]
    assert set(tools["memory_search"].input_schema["properties"]) == {"query", "k", "type"}
    assert set(tools["memory_save"].input_schema["properties"]) == {
        "content",
        "type",
        "tags",
        "questions",
        "valid_until",
    }


def test_initialize_is_prompt(project, home):
    """The store is opened by the first tool call, not at start-up."""
    project.path("state.json").write_text("{ corrupt", encoding="utf-8")

    async def calls(client):
        started = time.monotonic()
        await client.list_tools()
        listed = time.monotonic() - started
        return listed, await client.call_tool("memory_status", {})

    listed, status = session(project.root, home, calls)
    assert listed < 2
    assert status.is_error and "state.json" in text(status)


def test_uninitialised_directory(tmp_path, home):
    plain = tmp_path / "plain"
    (plain / ".git").mkdir(parents=True)

    async def calls(client):
        tools = await client.list_tools()
        return tools, await client.call_tool("memory_search", {"query": "deploy"})

    tools, result = session(plain, home, calls)
    assert len(tools.tools) == 6  # the server starts and lists its tools anyway
    assert result.is_error and "memtui init" in text(result) and "do not retry" in text(result)
    assert sorted(p.name for p in plain.iterdir()) == [".git"]


def test_project_from_a_subdirectory(project, home, seeded):
    sub = project.root / "packages" / "api"
    sub.mkdir(parents=True)

    async def calls(client):
        return await client.call_tool("memory_search", {"query": "deploy make ship"})

    result = session(sub, home, calls)  # CLAUDE_PROJECT_DIR is the package; the memory is at the root
    assert not result.is_error and "make ship" in text(result)


def test_errors_say_what_to_do(project, home, seeded):
    async def calls(client):
        return [
            await client.call_tool("memory_forget", {"id": "mem_0_nothere"}),
            await client.call_tool("memory_related", {"tags": []}),
            await client.call_tool("memory_save", {"content": "   ", "type": "decision"}),
            await client.call_tool("memory_search", {"query": 5}),
        ]

    missing, no_tags, empty, wrong_type = session(project.root, home, calls)
    assert missing.is_error and "memory_search to find the right id" in text(missing)
    assert no_tags.is_error and "at least one tag" in text(no_tags)
    assert empty.is_error and "empty" in text(empty)
    assert wrong_type.is_error


@pytest.mark.parametrize("tools", [True, False], ids=["full", "quiet"])
def test_every_protocol_version_is_answered_from_the_cache_as_the_sdk_answers_it(project, home, tools):
    """For every protocol version the installed SDK supports (initialize, server/discover), the
    first server learns the SDK's answers and a second answers them from its cache, identically."""
    from memtui.mcp import prelude

    env = server_env(project.root, home)
    for version, requests in prelude.sessions():
        sdk = prelude.ask(requests, tools=tools, cwd=project.root, env=env)
        cached = prelude.ask(requests, tools=tools, cwd=project.root, env=env)
        assert {k: _fresh(v) for k, v in cached.items()} == {k: _fresh(v) for k, v in sdk.items()}, version
    learned = json.loads((home / ".cache" / "memtui" / "mcp-answers.json").read_text())
    methods = {key.split()[0] for key in learned["answers"]}
    assert methods == {
        "initialize",
        "server/discover",
        "subscriptions/listen",
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
    }
    assert {key.split()[1] for key in learned["answers"]} >= {"2025-11-25", "2026-07-28"}


def test_the_handshake_is_answered_before_the_sdk_is_loaded(project, home):
    """With the answers learned, `server/discover` (Claude Code 2.1.332) and `tools/list` come from
    the cache; a tool call is then answered by the SDK, in one stream with no extra answer."""
    from memtui.mcp import prelude

    requests = dict(prelude.sessions())["2026-07-28"]
    prelude.ask(requests, cwd=project.root, env=server_env(project.root, home))  # learns them
    proc = _spawn(project, home)
    meta = requests[0]["params"]
    try:
        proc.stdin.write(json.dumps({**requests[0], "id": "probe"}).encode() + b"\n")
        proc.stdin.flush()
        first = json.loads(proc.stdout.readline())
        proc.stdin.write(
            json.dumps({"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": meta}).encode()
            + b"\n"
            + json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 9,
                    "method": "tools/call",
                    "params": {**meta, "name": "memory_status", "arguments": {}},
                }
            ).encode()
            + b"\n"
        )
        proc.stdin.flush()
        answers = [json.loads(proc.stdout.readline()) for _ in range(2)]
    finally:
        proc.kill()
        proc.wait()
    assert first["id"] == "probe" and "capabilities" in first["result"]
    assert [a["id"] for a in answers] == [8, 9]  # the SDK's own answer to the replayed discover was dropped
    assert {t["name"] for t in answers[0]["result"]["tools"]} == TOOLS
    assert not answers[1]["result"].get("isError")


def test_answers_of_another_sdk_release_are_not_used(project, home):
    """A cache written for another SDK version is ignored: the SDK answers, and the cache is relearned."""
    cache = home / ".cache" / "memtui" / "mcp-answers.json"
    cache.parent.mkdir(parents=True)
    from memtui import __version__

    stale = {"memtui": __version__, "mcp": "0.0.1", "answers": {}}
    cache.write_text(json.dumps(stale))

    async def calls(client):
        return {t.name for t in (await client.list_tools()).tools}

    assert session(project.root, home, calls) == TOOLS
    assert json.loads(cache.read_text())["mcp"] != "0.0.1"


def test_answers_learned_from_other_tool_text_are_not_used(project, home):
    """An editable install or a patched file changes the tools' text without a new version: answers
    learned from other source are ignored, so a shortened surface is what the next start lists."""

    async def calls(client):
        return {t.name for t in (await client.list_tools()).tools}

    assert session(project.root, home, calls) == TOOLS  # learns the answers
    cache = home / ".cache" / "memtui" / "mcp-answers.json"
    learned = json.loads(cache.read_text())
    for key, answer in learned["answers"].items():
        if key.startswith("tools/list"):
            answer["tools"] = [{**answer["tools"][0], "name": "memory_old"}]
    cache.write_text(json.dumps({**learned, "surface": "0" * 16}))

    assert session(project.root, home, calls) == TOOLS
    assert json.loads(cache.read_text())["surface"] != "0" * 16


def test_the_server_leaves_at_once_on_sigint(project, home):
    import signal

    proc = _spawn(project, home)
    try:
        time.sleep(1.0)  # past start-up, into the SDK's loop
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_type_is_an_enum_of_the_projects_types_and_k_is_bounded(project, home):
    """Issue 13: the model sees the types with their meanings; other values and out-of-range k are refused."""
    from memtui.core.types import DEFAULTS

    (project.memory_dir / "config.toml").write_text(
        (project.memory_dir / "config.toml").read_text()
        + '\n[types.incident]\nmeaning = "what broke in production and how it was fixed"\n'
    )

    async def calls(client):
        tools = {t.name: t for t in (await client.list_tools()).tools}
        out = {"tools": tools}
        out["custom"] = await client.call_tool(
            "memory_save", {"content": "The March outage was the Redis eviction policy", "type": "incident"}
        )
        out["weird"] = await client.call_tool("memory_save", {"content": "Something", "type": "weird type"})
        out["low"] = await client.call_tool("memory_search", {"query": "outage", "k": -1})
        out["high"] = await client.call_tool("memory_search", {"query": "outage", "k": 100000})
        out["ok"] = await client.call_tool("memory_search", {"query": "outage", "k": 3, "type": "incident"})
        return out

    out = session(project.root, home, calls)
    save_type = out["tools"]["memory_save"].input_schema["properties"]["type"]
    assert save_type["enum"] == [p.name for p in DEFAULTS] + ["incident"]
    assert "architecture: how the system is built; decision: a choice that was made;" in save_type["description"]
    assert "incident: what broke in production and how it was fixed" in save_type["description"]
    k = out["tools"]["memory_search"].input_schema["properties"]["k"]
    assert (k["minimum"], k["maximum"]) == (1, 20)
    assert not out["custom"].is_error and "Saved" in text(out["custom"])
    assert out["weird"].is_error and "'architecture'" in text(out["weird"]) and "'incident'" in text(out["weird"])
    assert out["low"].is_error and "greater than or equal to 1" in text(out["low"])
    assert out["high"].is_error and "less than or equal to 20" in text(out["high"])
    assert not out["ok"].is_error and "Redis eviction" in text(out["ok"])


#: Claude Code 2.1.332's opening, as a real `claude -p` sent it to memtui's server (ids and order kept).
def _claude_code_opening(meta: dict) -> list[dict]:
    listen = {"notifications": {"toolsListChanged": True, "promptsListChanged": True, "resourcesListChanged": True}}
    return [
        {"jsonrpc": "2.0", "id": "server-discover-probe-1", "method": "server/discover", "params": meta},
        {"jsonrpc": "2.0", "id": "listen:0", "method": "subscriptions/listen", "params": {**meta, **listen}},
        {"method": "server/discover", "jsonrpc": "2.0", "id": 0, "params": meta},
        {"method": "prompts/list", "jsonrpc": "2.0", "id": 1, "params": meta},
        {"method": "resources/list", "jsonrpc": "2.0", "id": 2, "params": meta},
        {"method": "tools/list", "jsonrpc": "2.0", "id": 3, "params": meta},
    ]


#: Put before site-packages: running the SDK's package waits until the gate file exists, so whatever
#: is answered before the test opens the gate was answered without the SDK. (The wait is in the
#: loader, which holds only the package's own lock: a finder runs under the global import lock.)
_GATE = """
import importlib.machinery, os, sys, time
class _Gated:
    def __init__(self, real):
        self.real = real
    def create_module(self, spec):
        return self.real.create_module(spec)
    def exec_module(self, module):
        while not os.path.exists(os.environ["MEMTUI_TEST_SDK_GATE"]):
            time.sleep(0.02)
        self.real.exec_module(module)
class _Gate:
    def find_spec(self, name, path=None, target=None):
        if name != "mcp":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None:
            spec.loader = _Gated(spec.loader)
        return spec
sys.meta_path.insert(0, _Gate())
"""


def _lines(stream, count: int, wait: float) -> list[dict]:
    """Up to `count` JSON lines from `stream`, read for at most `wait` seconds (a guard against a hang,
    not a timing: the requests are answered in milliseconds or not until the gate opens)."""
    import threading

    out: list[dict] = []

    def read() -> None:
        for _ in range(count):
            out.append(json.loads(stream.readline()))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(wait)
    return list(out)


def test_claude_codes_whole_opening_is_answered_before_the_sdk_loads(project, home, tmp_path):
    """Every request Claude Code sends at start (discover twice, a listen, the prompt, resource and
    tool listings) is answered from what was learned while the SDK's import is held back; the listen
    is acknowledged once (the SDK's own acknowledgement of the replay is dropped); a tool call after
    the gate opens is answered by the SDK on the same stream."""
    import subprocess
    import sys

    from memtui.mcp import prelude

    env = server_env(project.root, home)
    for _version, requests in prelude.sessions():
        prelude.ask(requests, cwd=project.root, env=env)  # learns them, as `memtui setup` does
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(_GATE)
    gate = tmp_path / "gate"
    env = {**env, "PYTHONPATH": str(site), "MEMTUI_TEST_SDK_GATE": str(gate)}
    meta = dict(prelude.sessions())["2026-07-28"][0]["params"]
    opening = _claude_code_opening(meta)
    proc = subprocess.Popen(
        [sys.executable, "-m", "memtui", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=project.root,
        env=env,
    )
    try:
        proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in opening))
        proc.stdin.flush()
        early = _lines(proc.stdout, len(opening), wait=60)  # a request that needs the SDK never comes
        gate.touch()
        call = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {**meta, "name": "memory_status"}}
        call["params"]["arguments"] = {}
        proc.stdin.write(json.dumps(call).encode() + b"\n")
        proc.stdin.flush()
        later = json.loads(proc.stdout.readline())
    finally:
        proc.kill()
        proc.wait()
    assert len(early) == len(opening), f"only {len(early)} of {len(opening)} answered before the SDK loaded"
    acks = [m for m in early if m.get("method") == "notifications/subscriptions/acknowledged"]
    assert len(acks) == 1 and acks[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "listen:0"
    results = {m["id"]: m["result"] for m in early if "id" in m}
    assert set(results) == {"server-discover-probe-1", 0, 1, 2, 3}
    assert results[1]["prompts"] == [] and results[2]["resources"] == []
    assert {t["name"] for t in results[3]["tools"]} == TOOLS
    assert later["id"] == 9 and not later["result"].get("isError")  # no stray answer to a replay came first
