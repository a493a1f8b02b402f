"""One way to shorten text: at a word, with a mark."""

from __future__ import annotations

import pytest

from memtui.core.text import clip, columns


@pytest.mark.parametrize(
    ("text", "width", "expected"),
    [
        ("short", 10, "short"),
        ("Background jobs run on Celery workers", 20, "Background jobs run…"),
        ("Alembic autogenerate is banned", 19, "Alembic…"),
        ("Supercalifragilistic", 8, "Superca…"),
        ("a,  b\n c", 10, "a, b c"),
        ("one two three", 8, "one two…"),
        ("one, two", 6, "one…"),
    ],
)
def test_clip_ends_at_a_word_with_a_mark(text, width, expected):
    got = clip(text, width)
    assert got == expected and len(got) <= width


def test_no_word_is_ever_cut_unmarked():
    words = ["Stripe", "webhooks", "are", "written", "raw", "to", "the", "stripe_events", "table", "first"]
    text = " ".join(words)
    for width in range(2, len(text) + 2):
        got = clip(text, width)
        assert len(got) <= width
        kept = got.removesuffix("…").split()
        assert kept == words[: len(kept)] or (len(kept) == 1 and words[0].startswith(kept[0]) and got.endswith("…"))


def test_columns_align_whatever_the_badges():
    lines = columns([["mem_1", "decision", "", "Use uv"], ["local/a_long_id", "gotcha", "[superseded]", "Old"]])
    assert lines[0].index("Use uv") == lines[1].index("Old")


def test_a_long_path_keeps_its_last_folders_whole():
    from memtui.core.text import clip_path

    path = "~/.claude/projects/-home-me-code-ledgerline/memory"
    assert clip_path(path, 60) == path
    assert clip_path(path, 40) == "…/-home-me-code-ledgerline/memory"
    assert clip_path(path, 20) == "…/memory"
    assert clip_path("/a/averyveryverylongname", 10) == "averyvery…"
    assert all(len(clip_path(path, w)) <= w for w in range(2, 60))
