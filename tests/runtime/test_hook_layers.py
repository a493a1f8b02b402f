"""One context budget shared with Claude Code, through the real hooks: what Claude Code loads by
itself (its auto-memory MEMORY.md within the 200-line / 25,000-character cut, memtui's CLAUDE.md
block) is never sent again; what lies past the cut, and an auto-memory file's body, is."""

from __future__ import annotations

import os
import time

import pytest
from hookkit import BACKGROUND, context_of

from memtui.store.bank import Bank
from memtui.store.locations import markdown_dirs

DEPLOY_PROMPT = "How do we deploy with make ship from the main branch?"


def auto_memory(project):
    return next(d.path for d in markdown_dirs(project) if d.key == "md:project")


def write_memory(folder, stem: str, name: str, description: str, body: str, age: float = 0) -> str:
    """A memory file as Claude Code writes one, `age` seconds old; returns its index line."""
    folder.mkdir(parents=True, exist_ok=True)
    text = f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n\n{body}\n"
    file = folder / f"{stem}.md"
    file.write_text(text, encoding="utf-8")
    if age:
        then = time.time() - age
        os.utime(file, (then, then))
    return f"- [{name}]({stem}.md) — {description}"


def word(i: int) -> str:
    """A distinct made-up word per memory, so no two descriptions share their subject."""
    letters = "bcdfghjklmnpqrstvwxz"
    return "".join(letters[(i // 20**k) % 20] + "aeiou"[(i + k) % 5] for k in range(3))


@pytest.mark.parametrize(
    ("count", "pad"),
    [(210, ""), (120, " and more words that make the index line long" * 5)],
    ids=["past-200-lines", "past-25000-characters"],
)
def test_briefing_never_repeats_a_loaded_index_line_but_carries_one_past_the_cut(hook, project, count, pad):
    folder = auto_memory(project)
    # The index's first lines are the newest memories, so they rank first for the briefing too.
    lines = [
        write_memory(
            folder, f"project_{word(i)}", f"{word(i)} rule", f"The {word(i)} module keeps rule {i}{pad}", "", i
        )
        for i in range(count)
    ]
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    loaded = 200 if not pad else next(n for n in range(count) if len("\n".join(lines[: n + 1])) > 25_000)
    assert loaded < count

    text = context_of(hook("SessionStart"))

    inside = [i for i in range(loaded) if f"The {word(i)} module keeps rule {i}" in text]
    assert inside == []
    past = [i for i in range(loaded, count) if f"The {word(i)} module keeps rule {i}" in text]
    assert past  # past the cut: Claude Code never loaded these


@pytest.fixture
def background(project):
    bank = Bank(project)
    for line in BACKGROUND:
        bank.add("architecture", line[0].upper() + line[1:])
    return bank


def test_prompt_recall_of_an_auto_memory_file_brings_its_body(hook, project, background):
    folder = auto_memory(project)
    body = "Run make ship from the main branch after tagging; the ship target builds the wheel and uploads it."
    line = write_memory(folder, "project_deploy", "deploy", "How we deploy with make ship", body)
    (folder / "MEMORY.md").write_text(line + "\n", encoding="utf-8")

    assert "How we deploy with make ship" not in context_of(hook("SessionStart"))
    text = context_of(hook("UserPromptSubmit", prompt=DEPLOY_PROMPT))
    assert body in text
    assert "How we deploy with make ship" not in text  # its index line is in the context already


def test_a_memory_whose_loaded_line_is_all_it_says_is_not_injected_again(hook, project, background):
    folder = auto_memory(project)
    said = "We deploy with make ship from the main branch"
    lines = [write_memory(folder, "project_deploy", "deploy", said, said)]
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    # The same fact kept by memtui too: its text is the text of the loaded line.
    background.add("decision", "We deploy with make ship from the main branch.")

    assert said not in context_of(hook("SessionStart"))
    assert hook("UserPromptSubmit", prompt=DEPLOY_PROMPT) is None


def test_a_memory_past_the_cut_is_recalled_in_full(hook, project, background):
    folder = auto_memory(project)
    filler = [
        write_memory(folder, f"project_{word(i)}", f"{word(i)} rule", f"The {word(i)} rule {i}", "") for i in range(200)
    ]
    said = "We deploy with make ship from the main branch"
    late = write_memory(folder, "project_deploy", "deploy", said, said + "; tag the release first.")
    (folder / "MEMORY.md").write_text("\n".join([*filler, late]) + "\n", encoding="utf-8")

    text = context_of(hook("UserPromptSubmit", prompt=DEPLOY_PROMPT))
    assert said + "; tag the release first." in text


def test_auto_memory_turned_off_means_nothing_is_loaded_and_nothing_skipped(hook, project):
    folder = auto_memory(project)
    line = write_memory(folder, "project_deploy", "deploy", "We deploy with make ship from the main branch", "")
    (folder / "MEMORY.md").write_text(line + "\n", encoding="utf-8")

    assert "make ship" not in context_of(hook("SessionStart"))
    off = context_of(hook("SessionStart", session="s2", env={"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}))
    assert "We deploy with make ship from the main branch" in off


def test_a_memory_md_that_is_a_fifo_does_not_hold_the_hook(hook, project, background):
    folder = auto_memory(project)
    folder.mkdir(parents=True)
    os.mkfifo(folder / "MEMORY.md")  # nothing ever writes to it: a read would wait for good
    background.add("decision", "We deploy with make ship from the main branch")
    assert "make ship" in context_of(hook("UserPromptSubmit", prompt=DEPLOY_PROMPT))
