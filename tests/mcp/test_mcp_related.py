"""memory_related: memories sharing tags."""

from __future__ import annotations

from mcpkit import session, text


def test_related_lists_the_memories_sharing_a_tag(project, home, seeded):
    async def calls(client):
        return await client.call_tool("memory_related", {"tags": ["deploy"]})

    result = session(project.root, home, calls)
    assert not result.is_error and "2 memories tagged deploy" in text(result)
    assert "make ship" in text(result) and "AWS_PROFILE" in text(result) and "pytest" not in text(result)
