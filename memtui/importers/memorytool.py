"""Anthropic's memory tool (`memory_20250818`): a folder the application backs `/memories` with,
free-form files the model writes. One unit per list item and per paragraph of each text file, as they stand."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from memtui.core.types import DEFAULT_REGISTRY
from memtui.errors import UsageError
from memtui.importers.export import SIDECAR, sidecar_key
from memtui.importers.mdblocks import blocks
from memtui.importers.unit import (
    Context,
    Reading,
    Unit,
    is_binary,
    mtime,
    parse_date,
    read_text,
    readable,
    require_dir,
    slug,
)

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
    kept = _sidecar(path, reading)
    for file in readable(files, reading, lambda f: "/memories/" + f.relative_to(path).as_posix()):
        rel = "/memories/" + file.relative_to(path).as_posix()
        if is_binary(file):
            reading.refused.append((rel, "not a text file"))
            continue
        found = blocks(read_text(file), front=False)
        for block in found:
            unit = Unit(f"{rel}:{block.line}", _type(rel, file, block.headings), block.text, (), mtime(file))
            tags = tuple(t for t in (slug(file.stem), slug(block.heading)) if t)
            reading.units.append(_as_exported(unit, kept.get(sidecar_key(block.text))) or replace(unit, tags=tags))
    return reading


def _type(rel: str, file: Path, headings: tuple[str, ...] | list[str]) -> str:
    """A file named after a memtui type (memtui's own export: `gotcha.md`) is that type; otherwise
    the words of its path and headings decide, and the rest is context."""
    if file.stem.lower() in DEFAULT_REGISTRY:
        return file.stem.lower()
    words = " ".join((rel, *headings)).lower()
    return next((t for word, t in WORDS if word in words), "context")


def _sidecar(path: Path, reading: Reading) -> dict[str, dict[str, Any]]:
    """memtui's own export keeps each memory's fields beside the files (`importers.export.SIDECAR`);
    a folder without one (the model's own) has nothing there. One that cannot be read is said."""
    file = path / SIDECAR
    if not file.is_file():
        return {}
    try:
        data = json.loads(read_text(file))
        entries = data["memories"]
        if not isinstance(entries, dict):
            raise TypeError
    except (ValueError, KeyError, TypeError, UsageError):
        reading.notes.append(f"{SIDECAR} is not memtui's export record; types, tags and dates came from the files")
        return {}
    return {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, dict)}


def _as_exported(unit: Unit, kept: dict[str, Any] | None) -> Unit | None:
    """The unit with the fields memtui's export recorded for it: type, tags, name, description,
    when it was first recorded, and the agent and session that wrote it."""
    if kept is None:
        return None

    def text(key: str) -> str:
        value = kept.get(key)
        return value if isinstance(value, str) else ""

    tags = kept.get("tags")
    content = text("content")
    created: datetime | None = parse_date(text("created")) or unit.created
    return replace(
        unit,
        type=text("type").strip().lower() or unit.type,
        content=content if sidecar_key(content) == sidecar_key(unit.content) else unit.content,
        tags=tuple(t for t in tags if isinstance(t, str)) if isinstance(tags, list) else unit.tags,
        created=created,
        session=text("session") or None,
        name=text("name"),
        description=text("description"),
        agent=text("agent") or None,
    )
