"""The store in another tool's shape (`memtui export`), redacted: AGENTS.md sections, a memory
tool folder, or basic-memory notes; each is a shape `memtui import` reads back."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from memtui.core import redact
from memtui.core.defuse import for_file
from memtui.core.memory import Memory
from memtui.core.types import TypeRegistry
from memtui.errors import UsageError
from memtui.store.atomic import atomic_write

FORMATS = ("agents-md", "memory-tool", "basic-memory")


def _item(text: str, prefix: str = "- ") -> str:
    """A Markdown list item whose later lines are indented under it, so it reads back as one unit."""
    lines = for_file(redact.redact(text)).strip().splitlines() or [""]
    return prefix + lines[0] + "".join(f"\n  {line}" if line.strip() else "\n" for line in lines[1:])


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
