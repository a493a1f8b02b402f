"""A compaction, as the hooks see it: SessionStart with `source: compact` re-establishes the context.

Claude Code 2.1.332 sends, in this order: PreCompact, SessionStart (`source: compact`, whose
additionalContext goes into the new context with the summary), PostCompact (`trigger`, `compact_summary`; its output is
discarded). The session's no-repeat record is reset by that SessionStart, whose briefing is then
recorded; PostCompact is not memtui's event (not installed) and changes nothing if a person wires
it to memtui. The real CLI's side is tests/e2e/test_e2e_compact.py.
"""

from __future__ import annotations

from hookkit import context_of

DEPLOY = "We deploy with make ship from the main branch"
PROMPT = "How do we deploy with make ship from the main branch?"
BACKGROUND = (
    "Billing invoices are generated nightly by the cron worker",
    "The frontend uses React with Vite and Tailwind",
    "Feature flags live in LaunchDarkly",
    "Logs are collected by Loki through promtail",
)


def fill(bank) -> None:
    bank.add("decision", DEPLOY)
    for text in BACKGROUND:
        bank.add("architecture", text)


def briefing_off(project) -> None:
    config = project.path("config.toml")
    config.write_text(config.read_text(encoding="utf-8") + "\n[hooks]\nbriefing_bytes = 0\n", encoding="utf-8")


def test_the_briefing_after_a_compaction_holds_what_the_session_was_shown_before(hook, bank):
    fill(bank)
    assert DEPLOY in context_of(hook("SessionStart", source="startup"))
    assert hook("UserPromptSubmit", prompt=PROMPT) is None  # the briefing carries it: not again
    after = context_of(hook("SessionStart", source="compact"))
    assert DEPLOY in after
    assert hook("UserPromptSubmit", prompt=PROMPT) is None  # …and the compaction's briefing counts


def test_a_memory_a_prompt_recalled_comes_back_after_a_compaction(hook, bank, project):
    fill(bank)
    briefing_off(project)
    assert DEPLOY in context_of(hook("UserPromptSubmit", prompt=PROMPT))
    assert hook("UserPromptSubmit", prompt=PROMPT) is None
    assert hook("SessionStart", source="compact") is None  # nothing to say, but the record is reset
    assert DEPLOY in context_of(hook("UserPromptSubmit", prompt=PROMPT))


def test_a_resumed_session_keeps_its_record(hook, bank, project):
    """`--resume` and `--continue` bring the old context back whole: nothing was dropped."""
    fill(bank)
    briefing_off(project)
    assert DEPLOY in context_of(hook("UserPromptSubmit", prompt=PROMPT))
    hook("SessionStart", source="resume")
    assert hook("UserPromptSubmit", prompt=PROMPT) is None


def test_post_compact_changes_nothing(hook, bank, project):
    fill(bank)
    briefing_off(project)
    assert DEPLOY in context_of(hook("UserPromptSubmit", prompt=PROMPT))
    summary = {"trigger": "auto", "compact_summary": "We talked about deploying."}
    assert hook("PostCompact", **summary) is None
    assert hook("UserPromptSubmit", prompt=PROMPT) is None
