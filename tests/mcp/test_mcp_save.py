"""memory_save: typed, bounded, deduplicated, redacted, marked as not reviewed."""

from __future__ import annotations

from mcpkit import session, text

from memtui.store.bank import Bank


def test_save_saves_once_and_reaffirms_the_same_fact(project, home, seeded):
    async def calls(client):
        args = {"content": "CI runs on GitHub Actions with uv", "type": "architecture"}
        return [
            await client.call_tool("memory_save", {**args, "tags": ["ci"]}),
            await client.call_tool("memory_save", args),
        ]

    saved, again = session(project.root, home, calls)
    assert text(saved).startswith("Saved mem_") and "(architecture)" in text(saved)
    assert text(again).startswith("Already known: re-affirmed")
    memories = {m.content: m for m in Bank(project).memories()}
    memory = memories["CI runs on GitHub Actions with uv"]
    assert memory.type == "architecture" and memory.tags == ("ci",) and memory.source.event == "mcp"
    assert not memory.reviewed  # the agent saved it; a person has not looked at it yet


def test_save_needs_a_type_and_caps_the_length(project, home, bank):
    """Issue 14.6: no silent `context` (decays in 30 days) and no 100,000-character memories."""

    async def calls(client):
        return [
            await client.call_tool("memory_save", {"content": "We deploy with make ship"}),
            await client.call_tool("memory_save", {"content": "x " * 50_000, "type": "decision"}),
            await client.call_tool("memory_save", {"content": "y" * 2000, "type": "decision"}),
        ]

    untyped, huge, longest = session(project.root, home, calls)
    assert untyped.is_error and "type" in text(untyped)
    assert huge.is_error and "100000 characters" in text(huge) and "at most 2000" in text(huge)
    assert not longest.is_error
    assert [m.type for m in Bank(project).memories()] == ["decision"]


def test_no_secret_is_saved_or_answered(project, home):
    """Every kind of secret through memory_save, then back out through search and status."""
    from secretkit import SECRETS, batches, leaked, pieces

    async def calls(client):
        saved = [
            text(await client.call_tool("memory_save", {"content": batch, "type": "context"})) for batch in batches(5)
        ]
        found = text(await client.call_tool("memory_search", {"query": "release bot pushes tags", "k": 10}))
        status = text(await client.call_tool("memory_status", {}))
        return saved, found, status

    saved, found, status = session(project.root, home, calls)
    assert all("Redacted before saving" in line for line in saved), saved
    said = " ".join([*saved, found, status]).lower()
    assert [kind for kind, secret in SECRETS.items() if any(p in said for p in pieces(secret))] == []
    assert "[REDACTED:github-token]" in found
    assert leaked(project.memory_dir, project.root / "CLAUDE.md", home / ".claude") == []


def test_the_agent_can_say_what_a_saved_fact_answers(project, home, seeded):
    async def calls(client):
        return await client.call_tool(
            "memory_save",
            {
                "content": "Merging to main runs release.yml, which lets Argo CD sync staging",
                "type": "decision",
                "questions": ["how do we ship to staging?", "what happens when I merge?"],
            },
        )

    saved = session(project.root, home, calls)
    assert not saved.is_error
    [memory] = [m for m in Bank(project).memories() if m.content.startswith("Merging to main")]
    assert memory.questions == ("how do we ship to staging?", "what happens when I merge?")


def test_save_takes_the_last_day_a_fact_holds(project, home, bank):
    """Valid time from an agent: kept as the store's `validUntil`; a bad date is refused, nothing saved."""

    async def calls(client):
        return [
            await client.call_tool(
                "memory_save",
                {"content": "The API freeze lasts through Friday", "type": "decision", "valid_until": "2026-12-04"},
            ),
            await client.call_tool(
                "memory_save", {"content": "Never saved", "type": "decision", "valid_until": "Friday"}
            ),
        ]

    saved, bad = session(project.root, home, calls)
    assert not saved.is_error and bad.is_error and "is not a date" in text(bad)
    assert [(m.content, m.valid_until) for m in Bank(project).memories()] == [
        ("The API freeze lasts through Friday", "2026-12-04")
    ]
