"""`memtui mcp` through the official SDK's stdio client: the same path Claude Code uses."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest
from envkit import isolated_env

from memtui.store.bank import Bank

pytest.importorskip("mcp")

TOOLS = {"memory_search", "memory_related", "memory_ask", "memory_save", "memory_forget", "memory_status"}
READ_ONLY = {"memory_search", "memory_related", "memory_ask", "memory_status"}


server_env = isolated_env


def session(root: Path | None, home: Path, calls, cwd: Path | None = None, **extra: str):
    """Start the server, initialise, run `calls(client_session)`, return what it returns."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    async def run():
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "memtui", "mcp"],
            env=server_env(root, home, **extra),
            cwd=str(cwd or root or home),
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await calls(client)

    return asyncio.run(asyncio.wait_for(run(), 60))


def text(result) -> str:
    return "".join(block.text for block in result.content if block.type == "text")


@pytest.fixture
def seeded(bank):
    bank.add("decision", "We deploy with make ship from the main branch", tags=["deploy", "release"])
    bank.add("gotcha", "The deploy needs AWS_PROFILE=prod or it silently targets staging", tags=["deploy", "aws"])
    bank.add("pattern", "Tests use pytest fixtures from tests/conftest.py, never unittest classes", tags=["tests"])
    return bank


def test_lists_tools_with_annotations(project, home):
    async def calls(client):
        return (await client.list_tools()).tools

    tools = {t.name: t for t in session(project.root, home, calls)}
    assert set(tools) == TOOLS
    for name, tool in tools.items():
        assert tool.description and len(tool.description) > 80  # written for the model
        assert tool.annotations.read_only_hint is (name in READ_ONLY)
        assert tool.annotations.open_world_hint is False
    assert tools["memory_forget"].annotations.destructive_hint is True
    assert tools["memory_save"].annotations.destructive_hint is False
    assert tools["memory_search"].input_schema["required"] == ["query"]
    assert set(tools["memory_search"].input_schema["properties"]) == {"query", "k", "type"}
    assert set(tools["memory_save"].input_schema["properties"]) == {"content", "type", "tags"}


def test_every_tool(project, home, seeded):
    deploy = next(m for m in seeded.memories() if m.type == "decision")

    async def calls(client):
        out = {}
        out["search"] = await client.call_tool("memory_search", {"query": "how do we deploy", "k": 5})
        out["typed"] = await client.call_tool("memory_search", {"query": "deploy", "type": "gotcha"})
        out["by_id"] = await client.call_tool("memory_search", {"query": deploy.id})
        out["nothing"] = await client.call_tool("memory_search", {"query": "kubernetes helm charts"})
        out["related"] = await client.call_tool("memory_related", {"tags": ["deploy"]})
        out["ask"] = await client.call_tool("memory_ask", {"question": "how do we deploy?"})
        out["save"] = await client.call_tool(
            "memory_save", {"content": "CI runs on GitHub Actions with uv", "type": "architecture", "tags": ["ci"]}
        )
        out["again"] = await client.call_tool(
            "memory_save", {"content": "CI runs on GitHub Actions with uv", "type": "architecture"}
        )
        out["forget"] = await client.call_tool("memory_forget", {"id": deploy.id})
        out["forget_again"] = await client.call_tool("memory_forget", {"id": deploy.id})
        out["status"] = await client.call_tool("memory_status", {})
        return out

    out = session(project.root, home, calls)
    assert all(not r.is_error for r in out.values()), {k: text(r) for k, r in out.items() if r.is_error}
    search = text(out["search"])
    assert search.startswith("2 memories for 'how do we deploy'")
    first = search.split("\n\n")[1]
    assert first.splitlines()[0].startswith(f"{deploy.id} · decision · ") and "confidence 1.00" in first
    assert "We deploy with make ship" in first
    assert "AWS_PROFILE" in text(out["typed"]) and "make ship" not in text(out["typed"])
    assert text(out["by_id"]).startswith(f"{deploy.id} · decision")
    assert text(out["nothing"]).startswith("No memories match")
    assert "2 memories tagged deploy" in text(out["related"])
    assert "make ship" in text(out["ask"])
    assert text(out["save"]).startswith("Saved mem_") and "(architecture)" in text(out["save"])
    assert text(out["again"]).startswith("Already known: re-affirmed")
    assert text(out["forget"]).startswith(f"Archived {deploy.id}") and "memtui restore" in text(out["forget"])
    assert "already archived" in text(out["forget_again"])
    status = text(out["status"])
    assert "3 active memories (1 archived or superseded)" in status and "Automatic capture" in status

    memories = {m.content: m for m in Bank(project).memories()}
    saved = memories["CI runs on GitHub Actions with uv"]
    assert saved.type == "architecture" and saved.tags == ("ci",) and saved.source.event == "mcp"
    assert not saved.reviewed  # the agent saved it; a person has not looked at it yet
    assert memories[deploy.content].status.value == "archived"
    Bank(project).restore(deploy.id)  # forgetting is restorable
    assert Bank(project).get(deploy.id).active


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


def test_save_needs_a_type_and_caps_the_length(project, home, bank):
    """Issue 14.6: no silent `context` (decays in 30 days) and no 100,000-character memories."""

    async def calls(client):
        return [
            await client.call_tool("memory_save", {"content": "We deploy with make ship"}),
            await client.call_tool("memory_save", {"content": "x " * 50_000, "type": "decision"}),
            await client.call_tool("memory_save", {"content": "y" * 2000, "type": "decision"}),
        ]

    untyped, huge, longest = session(project.root, home, calls)
    assert untyped.is_error and "type" in text(untyped)
    assert huge.is_error and "100000 characters" in text(huge) and "at most 2000" in text(huge)
    assert not longest.is_error
    assert [m.type for m in Bank(project).memories()] == ["decision"]


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


def test_search_counts_recalls(project, home, seeded, cli):
    async def calls(client):
        return await client.call_tool("memory_search", {"query": "deploy make ship"})

    session(project.root, home, calls)
    assert cli("worker", "--idle", "0", cwd=project.root).returncode == 0
    state = json.loads(project.path("state.json").read_text())
    assert max(m.get("accessCount", 0) for m in state["memories"]) == 1


def _fresh(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "id"}


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
    assert methods == {"initialize", "server/discover", "tools/list"}
    assert {key.split()[1] for key in learned["answers"]} >= {"2025-11-25", "2026-07-28"}


def _spawn(project, home, *flags: str):
    import subprocess

    return subprocess.Popen(
        [sys.executable, *flags, "-m", "memtui", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=project.root,
        env=server_env(project.root, home),
    )


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


def test_no_secret_is_saved_or_answered(project, home):
    """Every kind of secret through memory_save, then back out through search and status."""
    from secretkit import SECRETS, batches, leaked, pieces

    async def calls(client):
        saved = [
            text(await client.call_tool("memory_save", {"content": batch, "type": "context"})) for batch in batches(5)
        ]
        found = text(await client.call_tool("memory_search", {"query": "release bot pushes tags", "k": 10}))
        status = text(await client.call_tool("memory_status", {}))
        return saved, found, status

    saved, found, status = session(project.root, home, calls)
    assert all("Redacted before saving" in line for line in saved), saved
    said = " ".join([*saved, found, status]).lower()
    assert [kind for kind, secret in SECRETS.items() if any(p in said for p in pieces(secret))] == []
    assert "[REDACTED:github-token]" in found
    assert leaked(project.memory_dir, project.root / "CLAUDE.md", home / ".claude") == []


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
    for policy in DEFAULTS:
        assert f"{policy.name}: {policy.meaning}" in save_type["description"]
    assert "incident: what broke in production" in save_type["description"]
    k = out["tools"]["memory_search"].input_schema["properties"]["k"]
    assert (k["minimum"], k["maximum"]) == (1, 20)
    assert not out["custom"].is_error and "Saved" in text(out["custom"])
    assert out["weird"].is_error and "'architecture'" in text(out["weird"]) and "'incident'" in text(out["weird"])
    assert out["low"].is_error and "greater than or equal to 1" in text(out["low"])
    assert out["high"].is_error and "less than or equal to 20" in text(out["high"])
    assert not out["ok"].is_error and "Redis eviction" in text(out["ok"])


def test_search_carries_the_verdict_and_status_counts_them(project, home, bank):
    """A memory that names a function since renamed: memory_search says so, memory_status counts it."""
    import shutil

    from gitkit import git

    from memtui.verify import engine

    root = project.root
    shutil.rmtree(root / ".git")
    (root / "billing.py").write_text("def handle_webhook(event):\n    return event\n")
    for args in (["init", "-q"], ["add", "billing.py"], ["commit", "-qm", "init"]):
        git(root, *args)
    drifted = bank.add("gotcha", "Stripe webhooks go through `handle_webhook` in billing.py").memory
    bank.add("decision", "We deploy with make ship from the main branch")
    bank.add("pattern", "Stripe refunds are issued by the finance team only")
    engine.verify(bank)
    (root / "billing.py").write_text("def process_webhook(event):\n    return event\n")
    git(root, "commit", "-qam", "rename")
    engine.verify(bank)

    async def calls(client):
        return (
            text(await client.call_tool("memory_search", {"query": "stripe webhooks", "k": 5})),
            text(await client.call_tool("memory_search", {"query": drifted.id})),
            text(await client.call_tool("memory_status", {})),
        )

    search, by_id, status = session(root, home, calls)
    note = (
        "Drifted from the code: it mentions handle_webhook (now process_webhook?), which no longer exists in the code"
    )
    block = search.split(drifted.id, 1)[1].split("\n\n", 1)[0]
    assert " · drifted" in block.splitlines()[0] and note in block
    refunds = search.split("Stripe refunds", 1)[0].rsplit("\n\n", 1)[1]
    assert refunds.splitlines()[0].endswith("unchecked") or " · unchecked" in refunds
    assert note in by_id
    assert "Checked against the code: 0 verified, 1 drifted" in status and "2 with nothing to check." in status
