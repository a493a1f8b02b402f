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


def test_status_names_the_codex_backend_a_codex_user_captures_with(project, home, tmp_path):
    """No key and no Claude Code: the server finds the person's signed-in Codex, and says so."""
    from codexkit import require_codex, sign_in
    from fakeresponses import start_fake_responses

    api = start_fake_responses()
    try:
        env = sign_in(require_codex(), tmp_path / "codex", api.url)

        async def calls(client):
            return await client.call_tool("memory_status", {})

        status = " ".join(text(session(project.root, home, calls, **env)).split())
    finally:
        api.close()
    assert f"gpt-5.1-codex via your Codex login ({env['MEMTUI_CODEX']})" in status
    assert "0 of 200 calls" in status and api.requests == []
