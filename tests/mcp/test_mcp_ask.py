"""memory_ask: an answer from memory (without a model: the memories it would be built from)."""

from __future__ import annotations

from mcpkit import session, text


def test_ask_answers_from_the_memories(project, home, seeded):
    async def calls(client):
        return await client.call_tool("memory_ask", {"question": "how do we deploy?"})

    result = session(project.root, home, calls)
    assert not result.is_error and "make ship" in text(result)
