"""AGENTS.md's block within Codex's byte cap: fewer memory lines until the file fits beside the
person's text, no block when that text leaves no room, the person's text untouched throughout."""

from __future__ import annotations

from memtui.core.render_block import END, START, cap, fit, render, splice


def _render(memories, now):
    return lambda lines: render(memories, now, project="p", lines=lines)


def _shown(block) -> int:
    return sum(len(s.shown) for s in block.sections)


def test_cap_takes_lines_off_the_widest_type_first():
    order = ["a", "b", "c"]
    assert cap({"a": 10, "b": 3, "c": 1}, 20, order) == {"a": 10, "b": 3, "c": 1}
    assert cap({"a": 10, "b": 3, "c": 1}, 6, order) == {"a": 3, "b": 2, "c": 1}
    assert cap({"a": 2, "b": 2}, 3, ["a", "b"]) == {"a": 2, "b": 1}  # a tie: the later type gives first
    assert cap({"a": 2, "b": 2}, 0, ["a", "b"]) == {"a": 0, "b": 0}


def test_render_with_a_line_cap_counts_the_rest_as_overflow(make, now):
    memories = [make(f"decision {i} about topic{i}", "decision") for i in range(8)]
    block = render(memories, now, project="p", lines=3)
    assert _shown(block) == 3
    assert "- _…and 5 more (use memory_search to find them)_" in block.text


def test_a_block_that_fits_is_the_whole_block(make, now):
    memories = [make(f"decision {i} about topic{i}", "decision") for i in range(8)]
    mine = "# Notes\n\nUse uv.\n"
    fitted = fit(_render(memories, now), mine, 32 * 1024, "AGENTS.md")
    assert fitted.block == render(memories, now, project="p")
    assert fitted.text == splice(mine, fitted.block.text)


def test_the_block_shrinks_to_the_most_lines_that_fit(make, now):
    memories = [make(f"decision number {i} about the topic called topic{i}", "decision") for i in range(20)]
    mine = "x" * 2000 + "\n"
    full = splice(mine, render(memories, now, project="p").text)
    limit = len(full.encode()) - 200  # a few lines too many
    fitted = fit(_render(memories, now), mine, limit, "AGENTS.md")
    assert fitted.block is not None and fitted.text is not None
    assert len(fitted.text.encode()) <= limit
    assert fitted.text.startswith(mine)
    shown = _shown(fitted.block)
    assert 0 < shown < 20
    one_more = splice(mine, render(memories, now, project="p", lines=shown + 1).text)
    assert len(one_more.encode()) > limit  # the most that fit, not merely some


def test_no_room_means_no_block_and_the_person_text_alone(make, now):
    memories = [make("a decision that takes a long line to say, longer than the overflow line says " * 2, "decision")]
    mine = "y" * 500 + "\r\n"
    empty = splice(mine, render(memories, now, project="p", lines=0).text)
    fitted = fit(_render(memories, now), mine, len(empty.encode()) - 1, "AGENTS.md")
    assert fitted == type(fitted)(None, mine)
    # A block written when there was room goes once the person's text takes it.
    before = splice(mine, render(memories, now, project="p").text)
    again = fit(_render(memories, now), before, len(empty.encode()) - 1, "AGENTS.md")
    assert again.block is None and again.text == mine
    assert START not in again.text and END not in again.text
    assert fit(_render(memories, now), None, 10, "AGENTS.md").text is None  # no file, none made


def test_a_broken_marker_names_the_file(make, now):
    import pytest

    from memtui.core.render_block import MarkerError

    with pytest.raises(MarkerError, match=r"^AGENTS\.md has 1"):
        fit(_render([make("a", "decision")], now), f"mine\n{START}\n", 32 * 1024, "AGENTS.md")


def test_a_huge_person_text_leaves_no_room(make, now):
    mine = "# Ours\n" + "z" * (32 * 1024 - 8) + "\n"  # the whole 32 KiB already
    fitted = fit(_render([make("a", "decision")], now), mine, 32 * 1024, "AGENTS.md")
    assert fitted.block is None and fitted.text == mine
