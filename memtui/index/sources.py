"""The files an index is derived from, and cheap signatures that say whether they changed.

A signature is a few stat calls: state.json's (inode, size, mtime), and for each Claude Code
memory directory a checksum of its listing with every file's size and mtime (so an editor that
rewrites a file in place is noticed, not only files added or removed). Nothing is read or parsed.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memtui.core import storekinds
from memtui.store.locations import MarkdownDir, Project, markdown_dirs

INDEX_NAME = "index.db"
_ARCHIVE = ".archived"
_INDEX_FILE = "MEMORY.md"


@dataclass(frozen=True)
class Sources:
    project: Project
    markdown: tuple[MarkdownDir, ...]

    @property
    def state_path(self) -> Path:
        return self.project.path("state.json")

    @property
    def journal_path(self) -> Path:
        return self.project.path("journal.jsonl")

    @property
    def index_path(self) -> Path:
        return self.project.path(INDEX_NAME)

    @classmethod
    def of(cls, bank_or_project: object, env: Mapping[str, str] | None = None) -> Sources:
        """From a Bank (its own Markdown directories) or a Project (found from the environment)."""
        if isinstance(bank_or_project, Project):
            return cls(bank_or_project, tuple(markdown_dirs(bank_or_project, env)))
        if isinstance(bank_or_project, (str, os.PathLike)):
            project = Project(Path(bank_or_project))
            return cls(project, tuple(markdown_dirs(project, env)))
        found = getattr(bank_or_project, "project", None)
        stores = getattr(bank_or_project, "markdown", None)
        if not isinstance(found, Project) or stores is None:
            raise TypeError(f"expected a Bank or a Project, got {type(bank_or_project).__name__}")
        return cls(found, tuple(store.dir for store in stores))

    def signatures(self) -> dict[str, str]:
        """`state` and `md:<scope>` → signature; compare with what the index recorded."""
        out = {"state": state_signature(self.state_path)}
        for directory in self.markdown:
            out[directory.key] = markdown_signature(
                directory.path, with_index=not storekinds.of(directory.kind).renders_index
            )
        return out


def state_signature(path: Path) -> str:
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "-"
    return f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"


def _listing(directory: str, with_index: bool = False) -> list[str]:
    out = []
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                name = entry.name
                if name.endswith(".md") and (with_index or name != _INDEX_FILE):
                    try:
                        st = entry.stat()
                    except FileNotFoundError:
                        continue  # removed while listing: the next signature will differ anyway
                    out.append(f"{name}\t{st.st_size}\t{st.st_mtime_ns}")
    except (FileNotFoundError, NotADirectoryError):
        return []
    return out


def markdown_signature(path: Path, *, with_index: bool = False) -> str:
    """`with_index`: MEMORY.md counts too (Gemini's and Codex's hold memories, not only links)."""
    if not os.path.isdir(path):
        return "-"
    lines = sorted(_listing(str(path), with_index))
    lines += sorted(f"{_ARCHIVE}/{line}" for line in _listing(os.path.join(path, _ARCHIVE)))
    payload = "\n".join(lines).encode("utf-8", "surrogateescape")
    return f"{len(lines)}:{zlib.crc32(payload):08x}:{len(payload)}"
