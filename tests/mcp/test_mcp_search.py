"""memory_search: ranked, filtered by type, by id, nothing; recall counts; the code's verdicts."""

from __future__ import annotations

import json

from mcpkit import session, text


def test_search_ranks_filters_and_finds_by_id(project, home, seeded):
    deploy = next(m for m in seeded.memories() if m.type == "decision")

    async def calls(client):
        return [
            await client.call_tool("memory_search", {"query": "how do we deploy", "k": 5}),
            await client.call_tool("memory_search", {"query": "deploy", "type": "gotcha"}),
            await client.call_tool("memory_search", {"query": deploy.id}),
            await client.call_tool("memory_search", {"query": "kubernetes helm charts"}),
        ]

    ranked, typed, by_id, nothing = (text(r) for r in session(project.root, home, calls))
    assert ranked.startswith("2 memories for 'how do we deploy'")
    first = ranked.split("\n\n")[1]
    assert first.splitlines()[0].startswith(f"{deploy.id} · decision · ") and "confidence 1.00" in first
    assert "We deploy with make ship" in first
    assert "AWS_PROFILE" in typed and "make ship" not in typed
    assert by_id.startswith(f"{deploy.id} · decision")
    assert nothing.startswith("No memories match")


def test_search_counts_recalls(project, home, seeded, cli):
    async def calls(client):
        return await client.call_tool("memory_search", {"query": "deploy make ship"})

    session(project.root, home, calls)
    assert cli("worker", "--idle", "0", cwd=project.root).returncode == 0
    state = json.loads(project.path("state.json").read_text())
    assert max(m.get("accessCount", 0) for m in state["memories"]) == 1


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
