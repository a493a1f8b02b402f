"""What Claude Code loads of a MEMORY.md (its 2.1.332 cut), and which memory a loaded line is."""

from __future__ import annotations

import pytest

from memtui.core.claude_loads import INDEX_CHARS, cut_index, line_keys, memory_file, texts_of


def entry(i: int, pad: str = "") -> str:
    return f"- [fact {i}](project_fact{i}.md) — fact number {i}{pad}"


def claude_code_cut(text: str) -> str:
    """Claude Code 2.1.332's cut of MEMORY.md, step by step as its JavaScript does it: trim; the first
    200 lines; past 25,000 UTF-16 code units, up to `lastIndexOf("\\n", 25000)`."""
    trimmed = text.strip()
    lines = trimmed.split("\n")
    kept = "\n".join(lines[:200]) if len(lines) > 200 else trimmed
    data = kept.encode("utf-16-le", "surrogatepass")
    units = [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]
    if len(units) <= INDEX_CHARS:
        return kept
    at = max((i for i in range(min(INDEX_CHARS, len(units) - 1) + 1) if units[i] == 10), default=-1)
    units = units[: at if at > 0 else INDEX_CHARS]
    return b"".join(u.to_bytes(2, "little") for u in units).decode("utf-16-le", "ignore")


@pytest.mark.parametrize(
    "lines",
    [
        [],
        [entry(i) for i in range(10)],
        [entry(i) for i in range(200)],
        [entry(i) for i in range(201)],  # the 201st line is not loaded
        [entry(i, "x" * 200) for i in range(150)],  # ~240 characters a line: the cut is at 25,000
        # A character outside the BMP is two in JavaScript's length: the cut comes sooner.
        [entry(i, "😀" * 100) for i in range(150)],
        [entry(i, "é" * 200) for i in range(150)],  # two UTF-8 bytes, one code unit: characters count
    ],
    ids=["empty", "ten", "200-lines", "201-lines", "long-lines", "astral", "accents"],
)
def test_the_cut_is_claude_codes(lines):
    text = "\n".join(lines) + "\n"
    load = cut_index(text)
    assert "\n".join(load.lines) == claude_code_cut(text)
    assert load.total_lines == len(lines)
    assert load.cut == len(lines) - len(load.lines)
    assert bool(load.cut) == (len(lines) > 200 or len(text.strip().encode("utf-16-le")) // 2 > INDEX_CHARS)
    assert load.files == {f"project_fact{i}.md" for i in range(len(load.lines))}


def test_text_is_trimmed_and_line_endings_folded_as_claude_code_does():
    load = cut_index("\n\n  " + "\r\n".join(entry(i) for i in range(3)) + "\r\n\n\n")
    assert load.total_lines == 3 and load.lines[0] == entry(0).lstrip()


def test_one_line_longer_than_the_cut_loads_its_first_characters():
    load = cut_index(entry(1, "y" * 30_000))
    assert len(load.lines) == 1 and len(load.lines[0]) == INDEX_CHARS
    assert load.files == {"project_fact1.md"}


def test_an_index_line_says_its_title_and_its_hook():
    texts = texts_of("- [Deploy](project_deploy.md) — We ship with make ship.")
    assert "we ship with make ship" in texts and "deploy: we ship with make ship" in texts
    assert texts_of("Free text, no link") == ("free text, no link",)
    assert texts_of("  ") == ()


class _Memory:
    def __init__(self, **fields):
        self.id, self.store, self.path = fields.get("id", "x"), fields.get("store", "state"), fields.get("path")
        self.name, self.description = fields.get("name", ""), fields.get("description", "")
        self.content = fields.get("content", "")


def test_only_an_auto_memory_file_is_matched_by_its_file():
    auto = _Memory(
        id="project/project_deploy", store="md:project", path="/h/.claude/projects/x/memory/project_deploy.md"
    )
    assert memory_file(auto) == "project_deploy.md"
    assert memory_file(_Memory(id="project/x", store="md:local", path="/r/.claude/memory/x.md")) is None
    assert memory_file(_Memory(id="m1", store="state")) is None


def test_a_memory_is_matched_by_its_one_line_text():
    keys = line_keys(_Memory(name="deploy", description="We ship with make ship", content="Long body\nover lines"))
    assert keys == ("we ship with make ship", "deploy: we ship with make ship")
    assert line_keys(_Memory(content="We ship with make ship.")) == ("we ship with make ship",)
