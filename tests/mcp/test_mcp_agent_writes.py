"""An agent's write never replaces what a person reviewed, and a session's changes undo as one.

The MCP server runs over stdio under the SDK's client; recall is a real prompt hook subprocess;
accept, reject and undo go through the real CLI."""

from __future__ import annotations

from hookkit import BACKGROUND, context_of, payload, run_hook
from mcpkit import session, text

from memtui.store.bank import Bank

PERSON = "Deploys need two approvals before they go to production"
#: Worded so that dedup takes it as the newer version of the person's memory (Jaccard 0.625).
AGENT = "Deploys now need zero approvals before they go to production"
PROMPT = "Do deploys need approvals before they go to production?"


def _save(project, home, content: str = AGENT) -> str:
    async def calls(client):
        return text(await client.call_tool("memory_save", {"content": content, "type": "decision"}))

    return session(project.root, home, calls, flags=("--agent", "codex"))


def _proposal(project):
    [agent] = [m for m in Bank(project).memories() if m.content == AGENT]
    return agent


def test_an_agents_save_over_a_reviewed_memory_waits_in_the_queue_and_recall_keeps_the_persons(
    project, home, bank, cli
):
    for line in BACKGROUND:
        bank.add("architecture", line)
    person = bank.add("decision", PERSON).memory
    answer = _save(project, home)
    assert "which the user reviewed" in answer and person.id in answer
    agent = _proposal(project)
    kept = Bank(project).get(person.id)
    assert kept.active and kept.status.value == "active"  # not superseded
    assert agent.active and not agent.reviewed and agent.proposes == person.id and agent.supersedes is None

    recalled = context_of(
        run_hook(
            "UserPromptSubmit", payload("UserPromptSubmit", project.root, prompt=PROMPT), root=project.root, home=home
        )
    )
    assert PERSON in recalled
    # The agent's version is delivered after the person's, and labelled as what it is.
    assert AGENT in recalled and recalled.index(PERSON) < recalled.index(AGENT)
    assert f"[decision · {agent.id} · unreviewed: an agent's proposed replacement for {person.id}]" in recalled

    from memtui.tui.screens.review import queue

    assert [m.id for m in queue(tuple(Bank(project).memories()))] == [agent.id]
    listed = cli("list", "--unreviewed", cwd=project.root).stdout.decode()
    assert f"[would replace {person.id}]" in listed

    accepted = cli("review", agent.id, cwd=project.root)
    assert accepted.returncode == 0 and f"Accepted {agent.id}: it supersedes {person.id}" in accepted.stdout.decode()
    after = Bank(project)
    assert after.get(person.id).status.value == "superseded"
    assert (
        after.get(agent.id).reviewed
        and after.get(agent.id).supersedes == person.id
        and not after.get(agent.id).proposes
    )


def test_rejecting_the_proposal_drops_the_agents_version_and_keeps_the_persons(project, home, bank, cli):
    person = bank.add("decision", PERSON).memory
    _save(project, home)
    agent = _proposal(project)
    rejected = cli("review", "--reject", agent.id, cwd=project.root)
    assert rejected.returncode == 0 and f"Rejected {agent.id}" in rejected.stdout.decode()
    after = Bank(project)
    assert after.get(agent.id).status.value == "archived" and after.get(person.id).active
    refused = cli("review", "--reject", person.id, cwd=project.root)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr.decode()
    assert Bank(project).get(person.id).active


def test_what_no_person_reviewed_an_agent_still_supersedes(project, home, bank):
    captured = bank.add("decision", PERSON, reviewed=False).memory
    answer = _save(project, home)
    assert f"It supersedes {captured.id}" in answer
    assert Bank(project).get(captured.id).status.value == "superseded"
    assert _proposal(project).proposes is None


def _forget_all(project, home, memory_ids, agent: str = "codex") -> list[str]:
    async def calls(client):
        return [text(await client.call_tool("memory_forget", {"id": mid})) for mid in memory_ids]

    return session(project.root, home, calls, flags=("--agent", agent))


def test_twelve_forgets_in_one_session_are_one_undo(project, home, bank, cli):
    memory_ids = [
        bank.add("gotcha", f"Gotcha number {i}: the {i}th widget port is {9000 + i}").memory.id for i in range(12)
    ]
    answers = _forget_all(project, home, memory_ids)
    assert all(a.startswith("Archived") for a in answers)
    assert not any(m.active for m in Bank(project).memories())
    undone = cli("undo", cwd=project.root)
    assert undone.returncode == 0, undone.stderr.decode()
    out = undone.stdout.decode()
    assert "12 forgets from a Codex CLI session" in out and "12 memories restored" in out
    assert all(m.active for m in Bank(project).memories()) and len(Bank(project).memories()) == 12
    again = cli("undo", cwd=project.root).stdout.decode()  # the next step is the person's last add
    assert again.startswith("Undid #12: add")


def test_undo_session_takes_back_that_sessions_changes_only(project, home, bank, cli):
    memory_ids = [
        bank.add("gotcha", f"Gotcha number {i}: the {i}th widget port is {9000 + i}").memory.id for i in range(4)
    ]
    _forget_all(project, home, memory_ids[:2], agent="codex")
    _forget_all(project, home, memory_ids[2:], agent="gemini")
    listed = cli("undo", "--list", "--json", cwd=project.root)
    import json

    rows = json.loads(listed.stdout)
    assert [(r["agent"], r["changes"], r["what"]) for r in rows] == [
        ("gemini", 2, "2 forgets"),
        ("codex", 2, "2 forgets"),
    ]
    codex = rows[1]["session"]
    assert f"memtui undo --session {codex}" in cli("undo", "--list", cwd=project.root).stdout.decode()
    undone = cli("undo", "--session", codex, cwd=project.root)
    assert undone.returncode == 0 and "2 memories restored" in undone.stdout.decode()
    active = {m.id for m in Bank(project).memories() if m.active}
    assert active == set(memory_ids[:2])
    gone = cli("undo", "--session", codex, cwd=project.root)
    assert (
        gone.returncode == 1
        and "no change of session" in gone.stderr.decode()
        and "Traceback" not in gone.stderr.decode()
    )
