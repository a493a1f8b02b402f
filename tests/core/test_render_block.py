"""The CLAUDE.md block: budgets, redistribution, overflow, markers, splicing and determinism."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from memtui.core.clock import parse_ts
from memtui.core.render_block import END, START, MarkerError, allot, current_block, memory_line, remove, render, splice
from memtui.core.types import DEFAULT_REGISTRY
from memtui.store.statefile import from_raw

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "memory-mcp"


@pytest.mark.parametrize(
    ("counts", "budgets", "expected"),
    [
        ({"a": 3, "b": 4}, {"a": 25, "b": 25}, {"a": 3, "b": 4}),  # nothing overflows
        ({"a": 30, "b": 10}, {"a": 25, "b": 25}, {"a": 30, "b": 10}),  # b's 15 spare lines cover a's 5
        ({"a": 50, "b": 10}, {"a": 25, "b": 25}, {"a": 40, "b": 10}),  # a gets all 15, no more
        (
            {"a": 40, "b": 10, "c": 40},
            {"a": 25, "b": 25, "c": 25},
            {"a": 33, "b": 10, "c": 32},
        ),  # one line at a time, in order
        ({"a": 30, "b": 30}, {"a": 25, "b": 25}, {"a": 25, "b": 25}),  # no surplus, both capped
        ({"a": 0, "b": 60}, {"a": 25, "b": 25}, {"a": 0, "b": 50}),  # an empty type hands over its whole budget
        ({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 1, "c": 1}, {"a": 1, "b": 1, "c": 1}),
    ],
)
def test_allot(counts, budgets, expected):
    allotted = allot(counts, budgets, list(budgets))
    assert allotted == expected
    assert sum(allotted.values()) <= sum(budgets.values())


def _texts(block, type_):
    return [m.content for m in next(s for s in block.sections if s.type == type_).shown]


def test_per_type_budget_and_overflow_line(make, now):
    memories = [make(f"architecture fact number {i} about subsystem{i}", "architecture") for i in range(30)]
    memories += [make(f"gotcha number {i} about trap{i}", "gotcha") for i in range(22)]
    block = render(memories, now, project="p")
    arch = next(s for s in block.sections if s.type == "architecture")
    gotcha = next(s for s in block.sections if s.type == "gotcha")
    assert (len(arch.shown), len(arch.overflow)) == (25, 5)
    assert (len(gotcha.shown), len(gotcha.overflow)) == (20, 2)
    assert "- _…and 5 more (use memory_search to find them)_" in block.text
    assert "- _…and 2 more (use memory_search to find them)_" in block.text
    assert block.text.count("…and") == 2


def test_unused_budget_goes_to_overflowing_types(make, now):
    memories = [make(f"architecture fact number {i} about subsystem{i}", "architecture") for i in range(30)]
    memories += [make(f"decision number {i} about choice{i}", "decision") for i in range(3)]
    block = render(memories, now, project="p")
    assert len(_texts(block, "architecture")) == 30
    assert "…and" not in block.text


def test_faded_memories_give_their_lines_away_and_are_counted(make, now):
    memories = [make(f"progress item {i} about task{i}", "progress", age_days=6) for i in range(5)]  # 0.14: hidden
    memories += [make(f"decision number {i} about choice{i}", "decision") for i in range(28)]
    block = render(memories, now, project="p")
    progress = next(s for s in block.sections if s.type == "progress")
    assert len(progress.faded) == 5 and not progress.shown
    assert "## Current Progress" not in block.text
    assert len(_texts(block, "decision")) == 28  # progress's 30 unused lines went to decision


def test_best_ranked_first_within_a_type(make, now):
    low = make("rarely recalled decision about logging", "decision", access_count=0)
    high = make("often recalled decision about money", "decision", access_count=9)
    older_progress = make("progress three days ago on invoices", "progress", age_days=3)
    new_progress = make("progress today on refunds", "progress", age_days=0)
    block = render([low, older_progress, high, new_progress], now, project="p")
    assert _texts(block, "decision") == [high.content, low.content]
    assert _texts(block, "progress") == [new_progress.content, older_progress.content]


def test_markers_header_and_sections(make, now):
    block = render(
        [make("Use integer cents", "decision", tags=("money",))], now, project="ledger", description="Billing."
    )
    lines = block.text.split("\n")
    assert lines[0] == START and lines[-1] == END
    assert lines[1:3] == ["# ledger", "Billing."]
    assert "## Key Decisions" in lines
    assert "- Use integer cents [money]" in lines
    assert "_Last updated: 2026-11-22 | 1 active memories, 1 total_" in lines


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({"content": "plain text"}, "- plain text"),
        ({"content": "multi\n  line\ttext"}, "- multi line text"),
        ({"content": "x" * 200}, "- " + "x" * 117 + "..."),
        ({"content": "body", "name": "Name", "description": "desc"}, "- Name: desc"),
        ({"content": "body", "tags": ("a", "b")}, "- body [a, b]"),
    ],
)
def test_memory_line(make, fields, line):
    content = fields.pop("content")
    assert memory_line(make(content, **fields)) == line


def test_same_input_same_block_whatever_the_order(make, now):
    memories = [
        make(
            f"fact {i} about thing{i}",
            random.Random(i).choice(["decision", "gotcha", "progress"]),
            age_days=i % 4,
            access_count=i % 3,
        )
        for i in range(80)
    ]
    first = render(memories, now, project="p").text
    shuffled = memories[:]
    random.Random(1).shuffle(shuffled)
    assert render(shuffled, now, project="p").text == first


def test_the_memory_mcp_fixture_renders_exactly_as_memory_mcp_did():
    """Our block for memory-mcp's own state.json is byte-identical to the CLAUDE.md it wrote, but
    for one thing: a memory's `<` that could open a tag is written `&lt;` (CLAUDE.md is read into
    the model's context; Markdown shows `&lt;id>` as `<id>`)."""
    state = json.loads((FIXTURE / "state.json").read_text(encoding="utf-8"))
    memories = [from_raw(raw) for raw in state["memories"]]
    block = render(
        memories,
        parse_ts(state["lastUpdated"]),
        project=state["project"],
        description=state["description"],
        registry=DEFAULT_REGISTRY,
    )
    theirs = (FIXTURE / "CLAUDE.md").read_text(encoding="utf-8")
    assert block.text + "\n" == _escaped(theirs)
    assert block.text.count("&lt;") == theirs.count("<id>") == 2
    # and splicing it into the copy with user text changes only that there
    with_user = (FIXTURE / "CLAUDE.with-user-text.md").read_bytes().decode("utf-8")
    assert current_block(_escaped(with_user)) == block.text
    assert splice(with_user, block.text) == _escaped(with_user)


def _escaped(text: str) -> str:
    """memory-mcp's block with a memory's `<id>` as memtui writes it (the markers stay)."""
    return text.replace("<id>", "&lt;id>")


BLOCK = f"{START}\nnew block\n{END}"


@pytest.mark.parametrize(
    ("existing", "expected"),
    [
        (None, BLOCK + "\n"),
        ("", BLOCK + "\n"),
        ("# Notes\n\nKeep me.\n", "# Notes\n\nKeep me.\n\n" + BLOCK + "\n"),
        ("# Notes   \n\ttabs  é ✓\n\n\n", "# Notes   \n\ttabs  é ✓\n\n\n\n" + BLOCK + "\n"),
        ("# Notes\nno final newline", "# Notes\nno final newline\n\n" + BLOCK),
        (f"before  \n{START}\nold\nlines\n{END}\n  after ✓\n", f"before  \n{BLOCK}\n  after ✓\n"),
        (f"{START}{END}", BLOCK),
        (
            f"a\r\nb\r\n{START}\r\nold\r\n{END}\r\nc\r\n",
            f"a\r\nb\r\n{BLOCK.replace(chr(10), chr(13) + chr(10))}\r\nc\r\n",
        ),
        ("a\r\nb\r\n", "a\r\nb\r\n\r\n" + BLOCK.replace("\n", "\r\n") + "\r\n"),
    ],
    ids=[
        "none",
        "empty",
        "no-markers",
        "whitespace-kept",
        "no-final-newline",
        "replace-in-place",
        "adjacent-markers",
        "crlf",
        "crlf-append",
    ],
)
def test_splice_keeps_text_outside_markers_byte_for_byte(existing, expected):
    assert splice(existing, BLOCK) == expected


@pytest.mark.parametrize(
    "existing",
    [
        "",
        "one line",
        "one line\n",
        "# Notes\n\nKeep me.\n\n\n",
        "a\r\nb",
        "a\r\nb\r\n",
        "a\r\nb\r\n\r\n",
        "mixed\r\nendings\nlast",
        "\n",
        "\t tabs and spaces \t",
    ],
    ids=[
        "empty",
        "no-newline",
        "newline",
        "blank-lines",
        "crlf-no-newline",
        "crlf",
        "crlf-blank",
        "mixed",
        "lone",
        "ws",
    ],
)
def test_remove_gives_back_what_splice_was_given_to_the_byte(existing):
    """Setup appends the block, uninstall takes it out: the person's file comes back byte for byte,
    its final newline or the lack of one, its line endings and its trailing blank lines included."""
    spliced = splice(existing, BLOCK)
    assert remove(spliced) == existing
    assert remove(splice(spliced, BLOCK.replace("lines", "other lines"))) == existing


@pytest.mark.parametrize(
    "existing",
    [
        f"{START}\nno end\n",
        f"no start\n{END}\n",
        f"{END}\nreversed\n{START}\n",
        f"{START}\n{END}\n{START}\n{END}\n",
        f"{START}\n{START}\n{END}\n",
    ],
    ids=["start-only", "end-only", "reversed", "two-pairs", "two-starts"],
)
def test_broken_markers_raise(existing):
    with pytest.raises(MarkerError, match="exactly one pair"):
        splice(existing, BLOCK)


def test_drifted_memories_are_left_out_and_counted(make, now):
    kept = make("we deploy with make release", "decision")
    moved = make("we deploy with make ship", "decision")
    block = render([kept, moved], now, project="p", drifted={moved.id})
    assert "make release" in block.text and "make ship" not in block.text
    assert "_1 memory names code that has since changed; left out here (`memtui verify` lists them)_" in block.text
    section = next(s for s in block.sections if s.type == "decision")
    assert section.shown == (kept,) and section.drifted == (moved,)
    assert "left out here" not in render([kept, moved], now, project="p").text
