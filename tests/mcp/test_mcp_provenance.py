"""An agent's `memory_save` records its provenance (issue 41): an agent's, with its session, the
branch and commit; recall (a real prompt hook) and `memory_search` label it `unreviewed · saved by
Codex CLI` until a person reviews it. The MCP server runs over stdio under the SDK's client."""

from __future__ import annotations

import subprocess

from hookkit import BACKGROUND, context_of, payload, run_hook
from mcpkit import session, text

from memtui.store.bank import Bank

FACT = "We deploy with make ship from the main branch"
PROMPT = "How do we deploy with make ship from the main branch?"


def _git(root, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout.strip()


def test_an_agents_save_is_the_agents_and_marked_until_reviewed(project, home, bank, cli):
    for line in BACKGROUND:  # a bank of some size, as the calibrated gate expects
        bank.add("architecture", line)
    _git(project.root, "init", "-q", "-b", "main")
    _git(project.root, "-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "first")
    head = _git(project.root, "rev-parse", "HEAD")

    async def calls(client):
        await client.call_tool("memory_save", {"content": FACT, "type": "decision"})
        return text(await client.call_tool("memory_search", {"query": "deploy make ship"}))

    found = session(project.root, home, calls, flags=("--agent", "codex"))
    [saved] = [m for m in Bank(project).memories() if m.content == FACT]
    source = saved.source
    assert (source.kind, source.agent, source.event, source.branch, source.commit) == (
        "agent",
        "codex",
        "mcp",
        "main",
        head,
    )
    assert source.session and not saved.reviewed
    assert "unreviewed · saved by Codex CLI" in found
    recalled = context_of(
        run_hook(
            "UserPromptSubmit", payload("UserPromptSubmit", project.root, prompt=PROMPT), root=project.root, home=home
        )
    )
    assert f"[decision · {saved.id} · unreviewed · saved by Codex CLI]" in recalled
    shown = cli("show", saved.id, cwd=project.root).stdout.decode()
    assert "written by:  Codex CLI, " in shown and f"on:          main @ {head[:7]}" in shown
