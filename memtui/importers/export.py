"""The store in another tool's shape (`memtui export`), redacted: AGENTS.md sections, a memory
tool folder, or basic-memory notes; each is a shape `memtui import` reads back."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memtui.core import redact
from memtui.core.clock import format_ts
from memtui.core.defuse import for_file
from memtui.core.memory import Memory
from memtui.core.types import TypeRegistry
from memtui.errors import UsageError
from memtui.store.atomic import atomic_write

FORMATS = ("agents-md", "memory-tool", "basic-memory")
#: Beside a memory-tool export: what the model's files have no room for (each memory's type, tags,
#: dates and source), keyed by its text, so `memtui import memory-tool` gives back what was exported.
SIDECAR = ".memtui.json"


def _item(text: str, prefix: str = "- ") -> str:
    """A Markdown list item whose later lines are indented under it, so it reads back as one unit."""
    lines = for_file(redact.redact(text)).strip().splitlines() or [""]
    return prefix + lines[0] + "".join(f"\n  {line}" if line.strip() else "\n" for line in lines[1:])


def sidecar_key(text: str) -> str:
    """The key of one item's text, as written and as read back: whitespace collapsed."""
    return " ".join(text.split())


def _sidecar(memories: Iterable[Memory]) -> str:
    """The memories' own fields, keyed by the text their list item carries (redacted, as written)."""
    entries: dict[str, dict[str, Any]] = {}
    for m in memories:
        source = m.source
        text = for_file(redact.redact(m.content))
        entries[sidecar_key(text)] = {
            "id": m.id,
            "content": text,  # as stored: a list item re-indents a memory's own nested lists
            "type": m.type,
            "tags": list(m.tags),
            "name": redact.redact(m.name),
            "description": redact.redact(m.description),
            "created": format_ts(m.created),
            "updated": format_ts(m.updated),
            "agent": source.agent if source else None,
            "session": source.session if source else None,
            "supersedes": m.supersedes,
            "merged_from": list(m.merged_from),
        }
    return json.dumps({"memtui": 1, "memories": entries}, ensure_ascii=False, indent=1) + "\n"


def _observation(memory: Memory) -> str:
    """One observation line: the text on one line, then the memory's tags as `#tags`."""
    tags = " ".join("#" + "-".join(for_file(t).split()) for t in memory.tags)
    return " ".join(for_file(redact.redact(memory.content)).split()) + (f" {tags}" if tags else "")


def _grouped(memories: Iterable[Memory], registry: TypeRegistry) -> dict[str, list[Memory]]:
    groups: dict[str, list[Memory]] = {}
    for memory in memories:
        groups.setdefault(memory.type, []).append(memory)
    return {t: groups[t] for t in registry.order(set(groups))}


def _fresh_target(path: Path, folder: bool) -> None:
    if folder and path.is_dir() and any(path.iterdir()):
        raise UsageError(f"{path} is not empty; give a new or empty folder to export into")
    if path.exists() and not (folder and path.is_dir()):
        raise UsageError(f"{path} exists; give a new {'folder' if folder else 'file'} name, or move it aside")
    if not path.absolute().parent.is_dir():
        raise UsageError(f"no directory {path.absolute().parent}; create it first")


def export(memories: list[Memory], registry: TypeRegistry, fmt: str, path: Path) -> list[Path]:
    """Write the active `memories` to `path` in `fmt`; returns the files written."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    groups = _grouped([m for m in memories if m.active], registry)
    _fresh_target(path, folder=fmt != "agents-md")
    files: dict[Path, str] = {}
    if fmt == "agents-md":
        parts = ["# Project memory", "", "Exported by memtui. One bullet per memory.", ""]
        for type_, group in groups.items():
            parts += [f"## {registry[type_].title}", "", *(_item(m.content) for m in group), ""]
        files[path] = "\n".join(parts)
    elif fmt == "memory-tool":
        for type_, group in groups.items():
            files[path / f"{type_}.md"] = f"# {type_}\n\n" + "\n".join(_item(m.content) for m in group) + "\n"
        files[path / SIDECAR] = _sidecar(m for group in groups.values() for m in group)
    else:
        for type_, group in groups.items():
            body = "\n".join(f"- [{type_}] {_observation(m)}" for m in group)
            head = f"---\ntitle: memtui {type_}\ntype: note\npermalink: memtui/{type_}\n---\n"
            files[path / f"memtui-{type_}.md"] = f"{head}\n# memtui {type_}\n\n## Observations\n{body}\n"
    if fmt != "agents-md":
        path.mkdir(exist_ok=True)
    for file, text in files.items():
        atomic_write(file, text)
    return list(files)
