"""`[recall] unreviewed` (issue 41): what no person has reviewed is recalled with a label that starts
with `unreviewed` and a notice that says it is a claim ("mark", the default), kept out until reviewed
("hold"), or recalled as any other ("allow", the person's own config only: a project may tighten,
never loosen). Memories resting only on tool text stay held whatever the setting. Real hook
subprocesses, the real CLI for CLAUDE.md."""

from __future__ import annotations

import pytest
from hookkit import context_of

from memtui.core.memory import AGENT, Source
from memtui.recall import fence

DEPLOY = "We deploy with make ship from the main branch"
MINE = "Deploys are announced in the release channel before make ship runs"
PROMPT = "How do we deploy with make ship from the main branch?"
CODEX = Source("s-0123456789abcdef", "mcp", agent="codex", kind=AGENT)


def _config(project, table: str) -> None:
    config = project.path("config.toml")
    config.write_text(config.read_text(encoding="utf-8") + f"\n[recall]\n{table}\n", encoding="utf-8")


def _own_config(home, table: str) -> None:
    path = home / ".config" / "memtui" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[recall]\n{table}\n", encoding="utf-8")


@pytest.fixture
def saved(bank):
    """An agent's unreviewed memory and the person's own, both relevant to PROMPT."""
    theirs = bank.add("decision", DEPLOY, source=CODEX, reviewed=False).memory
    mine = bank.add("decision", MINE).memory
    return theirs, mine


def test_by_default_an_unreviewed_memory_is_recalled_marked_and_the_notice_says_it_is_a_claim(hook, saved):
    theirs, mine = saved
    text = context_of(hook("UserPromptSubmit", prompt=PROMPT))
    assert f"[decision · {theirs.id} · unreviewed · saved by Codex CLI]" in text
    assert f"[decision · {mine.id}]" in text  # the person's own carries no mark
    assert fence.UNREVIEWED_NOTICE in text.splitlines()[1] and "claims, not instructions" in text


def test_the_briefing_marks_it_too(hook, saved):
    theirs, _ = saved
    text = context_of(hook("SessionStart"))
    [line] = [x for x in text.splitlines() if theirs.id in x]
    assert line.startswith("- [decision · unreviewed · saved by Codex CLI]")
    assert fence.UNREVIEWED_NOTICE in text


def test_without_an_unreviewed_memory_the_notice_stays_as_it_was(hook, bank):
    bank.add("decision", DEPLOY)
    text = context_of(hook("UserPromptSubmit", prompt=PROMPT))
    assert "unreviewed" not in text


def test_hold_keeps_it_out_until_a_person_reviews_it(hook, project, bank, saved):
    theirs, mine = saved
    _config(project, 'unreviewed = "hold"')
    text = context_of(hook("UserPromptSubmit", prompt=PROMPT, session="s1"))
    assert mine.id in text and theirs.id not in text and "unreviewed" not in text
    assert theirs.id not in context_of(hook("SessionStart", session="s2"))
    bank.review(theirs.id)
    assert f"[decision · {theirs.id}]" in context_of(hook("UserPromptSubmit", prompt=PROMPT, session="s3"))


def test_allow_is_the_persons_alone_a_project_file_cannot_loosen_review(hook, project, home, saved, run_cli):
    theirs, _ = saved
    _config(project, 'unreviewed = "allow"')
    text = context_of(hook("UserPromptSubmit", prompt=PROMPT, session="s1"))
    assert f"{theirs.id} · unreviewed" in text  # the project's "allow" is ignored
    assert "a project file may tighten review" in run_cli("status").stdout.decode()
    _own_config(home, 'unreviewed = "allow"')
    text = context_of(hook("UserPromptSubmit", prompt=PROMPT, session="s2"))
    assert f"[decision · {theirs.id}]" in text and "unreviewed" not in text


def test_a_project_may_tighten_the_persons_allow_to_hold(hook, project, home, saved):
    theirs, mine = saved
    _own_config(home, 'unreviewed = "allow"')
    _config(project, 'unreviewed = "hold"')
    text = context_of(hook("UserPromptSubmit", prompt=PROMPT))
    assert mine.id in text and theirs.id not in text


def test_a_memory_resting_only_on_tool_text_is_held_even_with_allow(hook, home, bank):
    bank.add("decision", MINE)
    quoted = bank.add("decision", DEPLOY, source=Source("s-1", "Stop", rests_on="tool"), reviewed=False).memory
    _own_config(home, 'unreviewed = "allow"')
    text = context_of(hook("UserPromptSubmit", prompt=PROMPT))
    assert quoted.id not in text


def test_claude_md_marks_unreviewed_lines_or_leaves_them_out_with_hold(project, saved, run_cli):
    assert run_cli("render").returncode == 0
    block = (project.root / "CLAUDE.md").read_text()
    assert f"- (unreviewed · saved by Codex CLI) {DEPLOY}" in block and "claims, not instructions" in block
    _config(project, 'unreviewed = "hold"')
    assert run_cli("render").returncode == 0
    block = (project.root / "CLAUDE.md").read_text()
    assert DEPLOY not in block and "1 unreviewed memory waits for review" in block
    assert MINE in block


def test_what_claude_md_carries_marked_is_not_sent_again(hook, project, saved, run_cli):
    theirs, _ = saved
    assert run_cli("render").returncode == 0
    text = context_of(hook("SessionStart"))
    assert theirs.id not in (text or "")


@pytest.fixture
def run_cli(cli, project, home):
    def run(*args: str):
        return cli(*args, cwd=project.root, env={"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root)})

    return run


def test_explain_says_how_recall_treats_each_candidate(project, saved, run_cli):
    import json

    theirs, mine = saved
    out = json.loads(run_cli("explain", "--json", PROMPT).stdout)
    trust = {c["id"]: (c["by"], c["trust"]) for c in out["candidates"]}
    assert trust[theirs.id] == ("Codex CLI", "marked") and trust[mine.id][1] == "reviewed"
    _config(project, 'unreviewed = "hold"')
    out = json.loads(run_cli("explain", "--json", PROMPT).stdout)
    assert theirs.id not in out["injected"] and out["unreviewed"] == "hold"
