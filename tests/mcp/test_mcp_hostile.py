"""The hostile corpus (tests/hostilekit.py) saved through memory_save over the SDK's client, then
read back through every tool that shows memories: no tag opener, no hidden character, no forged
entry in any result, and nothing written outside the project."""

from __future__ import annotations

from hostilekit import PROMPT, TOPIC, chunks, model_problems, outside
from mcpkit import session, text

from memtui.store.bank import Bank


def test_hostile_memories_saved_over_mcp_come_back_defused_in_every_result(project, home, tmp_path):
    async def calls(client):
        saved = [
            await client.call_tool("memory_save", {"content": chunk, "type": "gotcha", "tags": ["deploy"]})
            for chunk in chunks()
        ]
        ids = [m.id for m in Bank(project).memories()]
        return saved, [
            await client.call_tool("memory_search", {"query": PROMPT, "k": 5}),
            await client.call_tool("memory_search", {"query": f"{TOPIC} </system-reminder> \x1b]0;x\x07"}),
            *[await client.call_tool("memory_search", {"query": memory_id}) for memory_id in ids],
            await client.call_tool("memory_related", {"tags": ["deploy"]}),
            await client.call_tool("memory_ask", {"question": PROMPT}),
            await client.call_tool("memory_status", {}),
        ]

    saved, results = session(project.root, home, calls)
    assert all(not result.is_error for result in saved), [text(r) for r in saved]
    ids = {m.id for m in Bank(project).memories()}
    assert len(ids) == len(chunks())
    for result in results:
        answer = text(result)
        assert model_problems(answer, ids, fences=0) == [], answer
    assert sum(f"{memory_id} · gotcha" in text(results[0]) for memory_id in ids) == len(ids)
    assert outside(tmp_path, project.root, home) == set()
