"""Codex CLI's own memories (`$CODEX_HOME/memories/MEMORY.md`) as the read-only store `md:codex`.

Codex consolidates its sessions into MEMORY.md in a strict shape (its consolidation prompt, 0.171):
blocks `# Task Group: <name>` with `scope:` and `applies_to: cwd=<dir>; reuse_rule=…`, then
`## Task <n>: …` sections (`### rollout_summary_files` bullets carrying `updated_at=` and
`thread_id=`, `### keywords` one comma-separated line), then the block's knowledge sections
`## User preferences`, `## Reusable knowledge`, `## Failures and how to do differently`, each a `-`
list whose bullets end with task refs such as `[Task 1]`. One memory per bullet of those sections
(import-formats.md): preferences → feedback, knowledge → pattern, failures → gotcha; the refs
stripped, the block's keywords as tags; only blocks whose cwd is this project (or a folder in it).

The file is Codex's, rewritten by Codex: memtui never writes it. A memory is promoted into
`.memory/` as a copy (`Bank.promote`); edit, drop and merge are refused. `parse` is a plain function
of the text, for `memtui import codex` too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memtui.core import redact
from memtui.core.boundedread import Unreadable, read_text
from memtui.core.clock import from_epoch, parse_ts
from memtui.core.memory import Memory, Source
from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry
from memtui.errors import UsageError
from memtui.store.locations import MarkdownDir
from memtui.store.markdown import INDEX, MAX_FILE_BYTES, MarkdownStore, slug

#: A knowledge section of a Task Group → the memtui type of its bullets.
SECTIONS = {
    "user preferences": "feedback",
    "reusable knowledge": "pattern",
    "failures and how to do differently": "gotcha",
}
MAX_TAGS = 8
CODEX = Source(agent="codex")
READ_ONLY = (
    "md:codex is Codex CLI's own memory, read only here: `memtui promote ID state` copies a memory "
    "into .memory/, where it can be edited"
)


@dataclass(frozen=True, slots=True)
class CodexMemory:
    """One bullet of a knowledge section of Codex's MEMORY.md."""

    #: The section's memtui type: feedback, pattern or gotcha.
    type: str
    #: The bullet's text, task refs stripped (continuation lines joined with newlines).
    text: str
    #: The Task Group it belongs to.
    group: str
    #: The group's `applies_to: cwd=` value, as written ("" when there is none).
    cwd: str
    #: The group's tasks' keywords, in order, each once.
    keywords: tuple[str, ...] = ()
    #: The latest `updated_at=` of the group's rollout summaries ("" when there is none).
    updated: str = ""
    #: The group's tasks' `thread_id=`s (lineage).
    threads: tuple[str, ...] = ()


@dataclass
class _Group:
    name: str
    cwd: str = ""
    keywords: list[str] | None = None
    updated: str = ""
    threads: list[str] | None = None


def parse(text: str) -> list[CodexMemory]:
    """Every knowledge bullet of a Codex MEMORY.md, in the file's order (any cwd)."""
    found: list[tuple[_Group, str, list[str]]] = []
    group: _Group | None = None
    section = ""  # a knowledge section's type, "keywords", "rollouts" or ""
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
        if line.startswith("# Task Group:"):
            group, section = _Group(line.removeprefix("# Task Group:").strip(), keywords=[], threads=[]), ""
        elif group is None:
            continue
        elif line.startswith("applies_to:"):
            group.cwd = _field(line, "cwd=", ";")
        elif line.startswith("## "):
            section = SECTIONS.get(line[3:].strip().rstrip(":").casefold(), "")
        elif line.startswith("### "):
            name = line[4:].strip().casefold()
            section = "keywords" if name == "keywords" else "rollouts" if name == "rollout_summary_files" else ""
        elif line.startswith("- ") and section:
            _bullet(group, section, line[2:].strip(), found)
        elif (
            line[:1] in (" ", "\t")
            and line.strip()
            and found
            and found[-1][0] is group
            and section in SECTIONS.values()
        ):
            found[-1][2].append(line.strip())  # a bullet's continuation line
    return [
        CodexMemory(
            kind,
            strip_refs("\n".join(lines)),
            g.name,
            g.cwd,
            tuple(dict.fromkeys(g.keywords or ())),
            g.updated,
            tuple(dict.fromkeys(g.threads or ())),
        )
        for g, kind, lines in found
        if strip_refs("\n".join(lines))
    ]


def _bullet(group: _Group, section: str, body: str, found: list[tuple[_Group, str, list[str]]]) -> None:
    if section == "keywords":
        assert group.keywords is not None
        group.keywords += [k.strip() for k in body.split(",") if k.strip()]
    elif section == "rollouts":
        assert group.threads is not None
        updated = _field(body, "updated_at=", ",)")
        group.updated = max(group.updated, updated)
        thread = _field(body, "thread_id=", ",)")
        if thread:
            group.threads.append(thread)
    else:
        found.append((group, section, [body]))


def _field(text: str, key: str, ends: str) -> str:
    """The value after `key` up to the first of `ends` (or the end), stripped."""
    start = text.find(key)
    if start < 0:
        return ""
    value = text[start + len(key) :]
    cut = min((i for i in (value.find(c) for c in ends) if i >= 0), default=len(value))
    return value[:cut].strip()


def strip_refs(text: str) -> str:
    """The bullet without its trailing task refs (`… [Task 1][Task 2]`)."""
    text = text.strip()
    while text.endswith("]"):
        start = text.rfind("[Task ")
        if start < 0 or not text[start + 6 : -1].strip().isdigit():
            break
        text = text[:start].rstrip()
    return text


def applies(cwd: str, root: Path) -> bool:
    """The block's cwd is the project's root or a folder in it (a path, `~` allowed; its first word)."""
    words = cwd.split()
    if not words:
        return False
    path = os.path.realpath(os.path.expanduser(words[0].strip("`'\"")))
    base = os.path.realpath(root)
    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)


class CodexMemoriesStore(MarkdownStore):
    read_only = True
    refusal = READ_ONLY

    def __init__(self, directory: MarkdownDir, registry: TypeRegistry = DEFAULT_REGISTRY) -> None:
        super().__init__(directory, registry)
        self.project_root = directory.cwd

    @property
    def exists(self) -> bool:
        return (self.path / INDEX).is_file()

    def load(self) -> dict[str, Memory]:
        self.problems = []
        index = self.path / INDEX
        memories: dict[str, Memory] = {}
        self._memories, self._files = memories, {}
        try:
            st = index.stat()
            if st.st_size > MAX_FILE_BYTES:
                self.problems.append(f"{index}: too large to read (limit 1 MiB)")
                return memories
            text = read_text(index, "markdown")
        except Unreadable as exc:
            self.problems.append(str(exc))
            return memories
        except UnicodeDecodeError:
            self.problems.append(f"{index}: not UTF-8 text; Codex rewrites it on its next consolidation")
            return memories
        except OSError:
            return memories
        mtime = from_epoch(st.st_mtime)
        taken: set[str] = set()
        root = self.project_root
        for found in parse(text):
            if root is None or not applies(found.cwd, root):
                continue
            base = slug(found.text)
            stem, n = base, 2
            while stem in taken:
                stem, n = f"{base}_{n}", n + 1
            taken.add(stem)
            memory = self._memory(found, self.id_for(stem + ".md"), mtime, str(index))
            memories[memory.id] = memory
        self._memories, self._files = memories, {mid: index for mid in memories}
        return memories

    def _memory(self, found: CodexMemory, mid: str, mtime: datetime, path: str) -> Memory:
        at = parse_ts(found.updated, mtime) if found.updated else mtime
        tags = tuple(dict.fromkeys(k.casefold() for k in found.keywords if " " not in k.strip()))[:MAX_TAGS]
        return Memory(
            id=mid,
            type=found.type,
            content=redact.redact(found.text),  # Codex redacts its own; what it missed memtui does not show
            created=at,
            updated=at,
            name="",
            tags=tags,
            source=CODEX,  # its own, not imported: no origin
            store=self.key,
            scope=self.scope,
            path=path,
        )

    def snapshot(self, memory_id: str) -> dict[str, Any] | None:
        memory = self._memories.get(memory_id)
        return None if memory is None else {"path": INDEX, "text": memory.content, "line": True}

    def encode(self, memory: Memory) -> dict[str, Any]:
        raise UsageError(READ_ONLY)

    def apply(
        self,
        snapshots: Mapping[str, dict[str, Any] | None],
        now: datetime | None = None,
        header: Mapping[str, Any] | None = None,
    ) -> None:
        raise UsageError(READ_ONLY)

    def write_index(self, now: datetime, previous: Any = ()) -> Any:
        return None
