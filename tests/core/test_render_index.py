"""MEMORY.md: one line per memory, best first, cut at 200 lines / 25 KB with a hint line inside both limits."""

from __future__ import annotations

import pytest

from memtui.core.claude_loads import cut_index
from memtui.core.memory import Status
from memtui.core.render_index import ENTRY_CHARS, MAX_BYTES, MAX_LINES, entry, hint, render


def _memories(make, n, content_len=20, char="x"):
    words = ((char * 9 + " ") * (content_len // 10 + 1))[:content_len]  # words: a long entry ends at one
    return [
        make(f"{i:04d} " + words, "feedback", name=f"entry {i:04d}", path=f"/m/feedback_{i:04d}.md") for i in range(n)
    ]


@pytest.mark.parametrize(
    ("n", "content_len", "char", "cut"),
    [
        (0, 20, "x", False),
        (10, 20, "x", False),
        (200, 20, "x", False),  # exactly 200 lines fit
        (201, 20, "x", True),
        (500, 20, "x", True),
        (199, 140, "x", True),  # under 200 lines but over 25 KB
        (150, 140, "é", True),  # bytes count, not characters
        (120, 140, "✓", True),
        (164, 140, "x", True),  # 25,420 bytes: under 25 KiB, over the 25,000 characters Claude Code loads
    ],
)
def test_limits(make, now, n, content_len, char, cut):
    memories = _memories(make, n, content_len, char)
    rendered = render(memories, now)
    text = rendered.text
    lines = text.splitlines()
    assert len(lines) <= MAX_LINES
    assert len(text.encode("utf-8")) <= MAX_BYTES
    assert cut_index(text).cut == 0  # Claude Code loads every line memtui wrote, the hint line too
    assert len(rendered.shown) + len(rendered.cut) == n
    if cut:
        assert rendered.cut
        assert lines[-1] == hint(len(rendered.cut))
        assert f"…{len(rendered.cut)} more memories not listed" in lines[-1]
        assert len(lines) == len(rendered.shown) + 1
        # as much as fits: one more entry would break a limit
        bigger = [*lines[:-1], entry(rendered.cut[0]), hint(len(rendered.cut) - 1)]
        assert len(bigger) > MAX_LINES or len(("\n".join(bigger) + "\n").encode()) > MAX_BYTES
    else:
        assert not rendered.cut
        assert len(lines) == n
        assert "more memories not listed" not in text


def test_best_ranked_first_and_inactive_left_out(make, now):
    memories = [
        make("rarely used", "feedback", name="rare", access_count=0),
        make("often used", "feedback", name="often", access_count=8),
        make("gone", "feedback", name="dropped", status=Status.ARCHIVED),
        make("old", "feedback", name="replaced", status=Status.SUPERSEDED),
    ]
    text = render(memories, now).text
    assert [line.split("]")[0] for line in text.splitlines()] == ["- [often", "- [rare"]


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        (
            {"name": "Small PRs", "description": "prefers small PRs", "path": "/x/feedback_small_prs.md"},
            "- [Small PRs](feedback_small_prs.md) — prefers small PRs",
        ),
        ({"name": "Same", "description": "Same", "path": "/x/a.md"}, "- [Same](a.md)"),
        ({"id_": "local/abc"}, "- [the content](abc.md)"),  # the title is the hook: not repeated
    ],
)
def test_entry(make, fields, line):
    assert entry(make("the content", "user", **fields)) == line


def test_long_entry_is_cut_to_150_characters_at_a_word(make):
    line = entry(make("word " * 80, "user", name="n", path="/x/n.md"))
    assert len(line) <= ENTRY_CHARS and line.endswith("word…")
    line = entry(make("w" * 400, "user", name="n", path="/x/n.md"))  # one long word: cut inside, marked
    assert len(line) <= ENTRY_CHARS and line.endswith("…")


def test_deterministic(make, now):
    memories = _memories(make, 300)
    assert render(memories, now).text == render(list(reversed(memories)), now).text


HAND_WRITTEN = """# Project memory

Notes the team keeps by hand; Claude Code adds entries below.

## Conventions
- [Use uv, never pip](feedback_uv.md) — we standardised in March
- [Deploys](project_deploy.md)
* Free-text bullet without a link stays too

## References
- [Grafana board](reference_grafana.md) — dashboards
"""


def _listed(make, now):
    return [
        make("Use uv", "feedback", name="uv", path="/m/feedback_uv.md"),
        make("We deploy with make ship", "project", name="deploy", path="/m/project_deploy.md"),
        make("Grafana at grafana.internal", "reference", name="grafana", path="/m/reference_grafana.md"),
    ]


def test_an_existing_index_is_edited_not_regenerated(make, now):
    memories = _listed(make, now)
    assert render(memories, now, existing=HAND_WRITTEN).text == HAND_WRITTEN  # nothing to change: byte for byte


def test_a_new_memory_is_appended_and_a_dropped_one_leaves(make, now):
    gone = _listed(make, now)[2]
    memories = [*_listed(make, now)[:2], make("Postgres 16", "project", name="db", path="/m/project_db.md")]
    text = render(memories, now, existing=HAND_WRITTEN, previous=[gone]).text
    assert "reference_grafana.md" not in text  # its memory is gone
    assert text.startswith(HAND_WRITTEN.split("## References")[0])  # headings, free text, titles untouched
    assert "## References\n" in text  # a heading stays even when its entries go
    assert text.endswith(entry(memories[2]) + "\n")


def test_crlf_and_missing_final_newline_are_kept(make, now):
    memories = _listed(make, now)
    crlf = HAND_WRITTEN.replace("\n", "\r\n")
    assert render(memories, now, existing=crlf).text == crlf
    assert render(memories, now, existing=HAND_WRITTEN.rstrip("\n")).text == HAND_WRITTEN.rstrip("\n")


def test_appended_entries_respect_the_load_limits(make, now):
    memories = _memories(make, 300)
    text = render(memories, now, existing="# Index\n").text
    lines = text.splitlines()
    assert lines[0] == "# Index" and len(lines) <= MAX_LINES and "more memories not listed" in lines[-1]
    again = render(memories, now, existing=text).text
    assert again == text  # the hint is recomputed, not duplicated


def test_lines_linking_elsewhere_are_a_persons_and_each_keeps_its_ending(make, now):
    """A link to another Markdown file (not a memory of this folder) is never taken for an entry,
    and a file with mixed line endings keeps each line's own."""
    memories = _listed(make, now)
    existing = (
        "# Memory\r\n"
        "- [CONTRIBUTING](../../CONTRIBUTING.md) — how we work\n"
        "- [Notes](notes.md)\r\n"
        "- [uv](feedback_uv.md)\n"
        "- [Deploys](project_deploy.md)\r\n"
        "- [Grafana board](reference_grafana.md) — dashboards\n"
    )
    text = render(memories[:2], now, existing=existing, previous=[memories[2]]).text
    assert text == (
        "# Memory\r\n"
        "- [CONTRIBUTING](../../CONTRIBUTING.md) — how we work\n"
        "- [Notes](notes.md)\r\n"
        "- [uv](feedback_uv.md)\n"
        "- [Deploys](project_deploy.md)\r\n"
    )
