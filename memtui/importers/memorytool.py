"""Anthropic's memory tool (`memory_20250818`): a folder the application backs `/memories` with,
free-form files the model writes. One unit per list item and per paragraph of each text file, as they stand."""

from __future__ import annotations

from pathlib import Path

from memtui.errors import UsageError
from memtui.importers.mdblocks import blocks
from memtui.importers.unit import Context, Reading, Unit, is_binary, mtime, read_text, readable, require_dir, slug

TOOL = "memory-tool"

WORDS = (
    ("decision", "decision"),
    ("progress", "progress"),
    ("status", "progress"),
    ("preference", "feedback"),
    ("pattern", "pattern"),
    ("convention", "pattern"),
)


def default_path(ctx: Context) -> Path:
    return ctx.root / "memories"


def read(path: Path, ctx: Context) -> Reading:
    require_dir(path, "memory tool folder")
    files = sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
    if not files:
        raise UsageError(f"{path} is empty; give the folder that backs the memory tool's /memories")
    reading = Reading(TOOL, path)
    for file in readable(files, reading, lambda f: "/memories/" + f.relative_to(path).as_posix()):
        rel = "/memories/" + file.relative_to(path).as_posix()
        if is_binary(file):
            reading.refused.append((rel, "not a text file"))
            continue
        found = blocks(read_text(file), front=False)
        for block in found:
            words = " ".join((rel, *block.headings)).lower()
            type_ = next((t for word, t in WORDS if word in words), "context")
            tags = tuple(t for t in (slug(file.stem), slug(block.heading)) if t)
            reading.units.append(Unit(f"{rel}:{block.line}", type_, block.text, tags, mtime(file)))
    return reading
