"""memory_status: counts, capture health."""

from __future__ import annotations

from mcpkit import session, text


def test_status_counts_active_and_archived_and_says_how_capture_stands(project, home, seeded):
    deploy = next(m for m in seeded.memories() if m.type == "decision")
    seeded.drop(deploy.id)

    async def calls(client):
        return await client.call_tool("memory_status", {})

    status = text(session(project.root, home, calls))
    assert "2 active memories (1 archived or superseded)" in status and "Automatic capture" in status
