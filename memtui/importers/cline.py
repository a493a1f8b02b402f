"""Cline's memory bank (and Roo Code's): `<repo>/memory-bank/*.md`, plain Markdown that the agent
keeps up to date. One unit per list item or paragraph under a heading; the heading's words, else
the file, give the type."""

from __future__ import annotations

from pathlib import Path

from memtui.errors import UsageError
from memtui.importers.mdblocks import blocks
from memtui.importers.unit import Context, Reading, Unit, mtime, read_text, readable, require_dir, slug

TOOL = "cline"

#: Words in a heading → type; the first that matches wins.
HEADINGS = (
    ("decision", "decision"),
    ("pattern", "pattern"),
    ("architecture", "architecture"),
    ("known issue", "gotcha"),
    ("gotcha", "gotcha"),
    ("next step", "progress"),
    ("recent change", "progress"),
    ("current focus", "progress"),
    ("what works", "progress"),
    ("what's left", "progress"),
)
FILES = {
    "projectbrief": "project",
    "productcontext": "context",
    "activecontext": "progress",
    "systempatterns": "architecture",
    "techcontext": "architecture",
    "progress": "progress",
    "decisionlog": "decision",
}


def default_path(ctx: Context) -> Path:
    return ctx.root / "memory-bank"


def read(path: Path, ctx: Context) -> Reading:
    require_dir(path, "Cline memory bank")
    files = sorted(path.glob("*.md"))
    if not files:
        raise UsageError(f"{path} holds no Markdown files; give the memory-bank folder Cline writes")
    reading = Reading(TOOL, path)
    for file in readable(files, reading):
        stem = file.stem.lower()
        by_file = FILES.get(stem, "context")
        for block in blocks(read_text(file)):
            ref = f"{file.name}:{block.line}" + (f" ({block.heading})" if block.heading else "")
            subtitle = len(block.headings) == 1 and block.kind == "para" and block.line < 4 and "\n" not in block.text
            if subtitle and by_file != "project":  # the project brief's first paragraph is the brief
                reading.skipped.append((ref, "the file's subtitle: it says what the file holds"))
                continue
            heading = block.heading.lower()
            type_ = next((t for word, t in HEADINGS if word in heading), by_file)
            tags = tuple(t for t in (slug(file.stem), slug(block.heading)) if t)
            reading.units.append(Unit(ref, type_, block.text, tags, mtime(file)))
    return reading
