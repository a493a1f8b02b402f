"""memory_forget: archives, restorably; twice says so."""

from __future__ import annotations

from mcpkit import session, text

from memtui.store.bank import Bank


def test_forget_archives_and_can_be_restored(project, home, seeded):
    deploy = next(m for m in seeded.memories() if m.type == "decision")

    async def calls(client):
        return [
            await client.call_tool("memory_forget", {"id": deploy.id}),
            await client.call_tool("memory_forget", {"id": deploy.id}),
        ]

    first, again = session(project.root, home, calls)
    assert text(first).startswith(f"Archived {deploy.id}") and "memtui restore" in text(first)
    assert "already archived" in text(again)
    assert Bank(project).get(deploy.id).status.value == "archived"
    Bank(project).restore(deploy.id)  # forgetting is restorable
    assert Bank(project).get(deploy.id).active
