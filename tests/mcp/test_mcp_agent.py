"""memory_save records the agent that started the server (`memtui mcp --agent codex`)."""

from __future__ import annotations

from mcpkit import session, text

from memtui.store.bank import Bank


def _save(project, home, *flags: str):
    async def calls(client):
        return await client.call_tool(
            "memory_save", {"content": "Releases are cut from main on Fridays.", "type": "decision"}
        )

    return session(project.root, home, calls, flags=flags)


def test_a_save_through_a_server_codex_started_says_codex(project, home, bank):
    result = _save(project, home, "--agent", "codex")
    assert not result.is_error, text(result)
    [memory] = Bank(project).memories()
    assert (memory.source.event, memory.source.agent) == ("mcp", "codex")


def test_a_server_started_without_an_agent_records_none(project, home, bank):
    assert not _save(project, home).is_error
    [memory] = Bank(project).memories()
    assert memory.source.event == "mcp" and memory.source.agent is None


def test_an_agent_that_is_not_a_name_is_one_line_and_no_server(cli, project):
    result = cli("mcp", "--agent", "Codex CLI", cwd=project.root, input="")
    err = result.stderr.decode()
    assert result.returncode != 0 and result.stdout == b""
    assert err.strip().count("\n") == 0 and "--agent takes an agent's short lowercase name" in err
