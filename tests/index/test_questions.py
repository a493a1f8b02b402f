"""doc2query: the questions a memory answers are searched, redacted, and kept by both store formats."""

from __future__ import annotations

from pathlib import Path

from secretkit import URLSAFE, fill

from memtui.index.search import search
from memtui.store.bank import Bank

DEPLOY = "Merging to main runs release.yml, which builds the image and lets Argo CD sync staging"
KEY = "sk-ant-api03-" + fill("questions", 93, URLSAFE) + "AA"


def test_a_prompt_worded_like_a_question_finds_the_memory_only_once_it_has_questions(bank):
    memory = bank.add("decision", DEPLOY).memory
    bank.add("gotcha", "Postgres migrations must run before the API container restarts")
    assert [h.memory.id for h in search(bank, "how do we ship to production", semantic="off")] == []
    bank.ask_about({memory.id: ["how do we ship to production?", "who can push a release?"]})
    [hit] = search(bank, "how do we ship to production", semantic="off")
    assert hit.memory.id == memory.id and hit.memory.questions[0] == "how do we ship to production?"
    assert "questions" in hit.why


def test_questions_are_redacted_on_the_way_in_and_never_hold_a_secret(bank):
    memory = bank.add("decision", DEPLOY).memory
    [enriched] = bank.ask_about({memory.id: [f"is {KEY} the deploy key?", "how do we ship?", "how do we ship?"]})
    assert KEY not in " ".join(enriched.questions) and len(enriched.questions) == 2
    assert KEY not in bank.project.path("state.json").read_text(encoding="utf-8")
    assert search(bank, KEY[:30], semantic="off") == []


def test_a_markdown_memory_keeps_its_questions_in_the_frontmatter(bank):
    memory = bank.add("feedback", "Prefers table-driven tests with pytest.mark.parametrize", store="md:local").memory
    bank.ask_about({memory.id: ["how should I write tests?"]})
    again = Bank.open(bank.project.root).get(memory.id)
    assert again.questions == ("how should I write tests?",)
    assert "questions:" in Path(again.path).read_text(encoding="utf-8")


def test_editing_the_text_drops_the_questions_it_answered_and_show_prints_them(bank, cli):
    memory = bank.add("decision", DEPLOY).memory
    bank.ask_about({memory.id: ["how do we ship to production?"]})
    shown = cli("show", memory.id, cwd=bank.project.root).stdout.decode()
    assert "answers:     how do we ship to production?" in shown
    assert bank.update(memory.id, tags=["release"]).questions == ("how do we ship to production?",)
    assert bank.update(memory.id, content="Releases are cut by hand on Fridays").questions == ()
