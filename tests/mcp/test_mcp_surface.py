"""What every agent sends with every request: memtui's instructions and tool definitions, short, and
still saying each tool's purpose, arguments and limits (measured against the old figure in
bench/mcp_surface.py)."""

from __future__ import annotations

import asyncio
import json
import sys

from mcpkit import TOOLS, server_env

#: Characters of instructions plus tool definitions (name, description, input schema, as an agent
#: sends them to its model): the issue's budget, with memory layers ≤ 3,000 beside it.
BUDGET = 3000

#: For each tool: words its description must say (its purpose and its limits), and for each argument
#: words its schema must say.
STATED = {
    "memory_search": (
        ["search", "meaning and words", "verify"],
        {"query": ["memory id"], "k": ["1-20"], "type": ["type"]},
    ),
    "memory_related": (["tags"], {"tags": ["tags"], "k": ["1-50"]}),
    "memory_ask": (["answer a question", "citing", "verify"], {"question": []}),
    "memory_save": (
        ["save one durable fact", "re-affirmed", "supersedes", "review", "redacted"],
        {
            "content": ["self-contained", "2000 characters"],
            "type": ["decision:", "gotcha:"],
            "tags": [],
            "questions": ["2-4"],
            "valid_until": ['"date"'],
        },
    ),
    "memory_forget": (["archive", "restorable", "memory_save"], {"id": ["memory_search"]}),
    "memory_status": (["counts by type", "unreviewed", "capture"], {}),
}


def _opened(root, home):
    """The instructions and the tools, as an agent gets them through the SDK's client over stdio."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    async def run():
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "memtui", "mcp"], env=server_env(root, home), cwd=str(root)
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            opened = await client.initialize()
            return opened.instructions or "", (await client.list_tools()).tools

    return asyncio.run(asyncio.wait_for(run(), 60))


def test_each_tool_states_purpose_arguments_and_limits(project, home):
    tools = {t.name: t for t in _opened(project.root, home)[1]}
    assert set(tools) == TOOLS
    for name, (purpose, arguments) in STATED.items():
        description = tools[name].description.lower()
        for words in purpose:
            assert words in description, (name, words)
        properties = tools[name].input_schema["properties"]
        assert set(properties) == set(arguments), name
        for argument, words_of in arguments.items():
            stated = json.dumps(properties[argument]).lower()
            for words in words_of:
                assert words in stated, (name, argument, words)
    save = tools["memory_save"].input_schema
    assert save["required"] == ["content", "type"] and "enum" in save["properties"]["type"]
    search = tools["memory_search"].input_schema["properties"]["k"]
    assert (search["minimum"], search["maximum"]) == (1, 20)


def test_instructions_and_tools_fit_the_budget(project, home):
    instructions, tools = _opened(project.root, home)
    sent = [{"name": t.name, "description": t.description, "input_schema": t.input_schema} for t in tools]
    size = len(instructions or "") + sum(
        len(json.dumps(tool, separators=(",", ":"), ensure_ascii=False)) for tool in sent
    )
    assert "memory" in instructions and "verify" in instructions
    assert size <= BUDGET, size
    for tool in tools:  # what the model never needs: pydantic's titles, docstring indentation, null alternatives
        text = json.dumps(tool.input_schema)
        assert '"title"' not in text and '"null"' not in text and "  " not in tool.description
