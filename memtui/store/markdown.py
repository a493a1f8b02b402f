"""A Claude Code memory directory: one Markdown file per memory, plus the `MEMORY.md` index.

Frontmatter `name`, `description`, `type` (top level or under `metadata:`); unknown keys and the
body are preserved byte for byte when unchanged. The file's mtime is the memory's updated time
(what Claude Code reads for staleness), so touch sets it. Dropped and superseded memories move to
`.archived/` so Claude Code stops seeing them, and come back on restore. Files that cannot be
read are reported in `problems` and never rewritten.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from memtui.core import ids, redact, render_index, validity
from memtui.core.boundedread import Unreadable, read_text
from memtui.core.clock import format_ts, from_epoch, parse_ts, utcnow
from memtui.core.memory import SOURCE_FIELDS, Memory, Source, Status
from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry
from memtui.store import frontmatter
from memtui.store.atomic import atomic_write, fsync_dir, sweep
from memtui.store.locations import MarkdownDir
from memtui.store.safepath import confine

INDEX = "MEMORY.md"
ARCHIVE = ".archived"
MAX_FILE_BYTES = 1024 * 1024
#: The frontmatter keys of `Source`'s fields, in its field order (keys Claude Code ignores).
SOURCE_KEYS = tuple(f"source_{name}" for name in SOURCE_FIELDS)


def slug(text: str, limit: int = 40) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    out = ""
    for word in words:
        if len(out) + len(word) + 1 > limit:
            break
        out = f"{out}_{word}" if out else word
    return out or "memory"


@functools.lru_cache(maxsize=4096)  # a store's files are read again after every change
def _id_for(scope: str, stem: str) -> str:
    mid = f"{scope}/{stem}"
    if ids.valid(mid) and not redact.scan(stem).changed:
        return mid
    return f"{scope}/{ids.digest_name(stem)}"


class MarkdownStore:
    def __init__(self, directory: MarkdownDir, registry: TypeRegistry = DEFAULT_REGISTRY) -> None:
        self.dir = directory
        self.path = directory.path
        self.key = directory.key
        self.scope = directory.scope
        self.registry = registry
        self.problems: list[str] = []
        self._memories: dict[str, Memory] = {}
        self._files: dict[str, Path] = {}
        self._swept = False

    @property
    def exists(self) -> bool:
        return self.path.is_dir()

    def id_for(self, relpath: str) -> str:
        """`<scope>/<file stem>`; a stem that would not make a valid id (core/ids.py), or that holds
        a secret, is named by a digest instead: a file name is not copied where memtui keeps ids."""
        stem = relpath.rsplit("/", 1)[-1].removesuffix(".md")
        return _id_for(self.scope, stem)

    # -- reading -------------------------------------------------------------------------------

    def load(self) -> dict[str, Memory]:
        self.problems = []
        memories: dict[str, Memory] = {}
        files: dict[str, Path] = {}
        if not self.exists:
            if self.path.exists():  # a file where Claude Code keeps its memory folder
                self.problems.append(f"{self.path} is a file where a memory folder belongs; move it aside")
            self._memories, self._files = memories, files
            return memories
        candidates = sorted(p for p in self.path.glob("*.md") if p.name != INDEX)
        archive = self.path / ARCHIVE
        if archive.is_dir():
            candidates += sorted(archive.glob("*.md"))
        for file in candidates:
            memory = self._read(file)
            if memory is not None and memory.id not in memories:
                memories[memory.id] = memory
                files[memory.id] = file
        self._memories, self._files = memories, files
        return memories

    def _read(self, file: Path) -> Memory | None:
        rel = file.relative_to(self.path).as_posix()
        try:
            st = file.stat()
            if st.st_size > MAX_FILE_BYTES:
                self.problems.append(
                    f"{file}: {st.st_size} bytes is too large for a memory (limit 1 MiB); split or trim it"
                )
                return None
            text = read_text(file, "markdown")
            doc = frontmatter.parse(text)
        except UnicodeDecodeError as exc:
            self.problems.append(f"{file}: not UTF-8 text (byte {exc.start}); re-save it as UTF-8")
            return None
        except frontmatter.FrontmatterError as exc:
            self.problems.append(f"{file}: {exc}; fix the file by hand")
            return None
        except Unreadable as exc:  # a link to a device, a FIFO, over the cap: one line, skipped
            self.problems.append(str(exc))
            return None
        except OSError as exc:
            self.problems.append(f"{file}: cannot be read ({exc.strerror}); check its permissions")
            return None
        return self.decode(rel, doc, st.st_mtime)

    def decode(self, rel: str, doc: frontmatter.Document, mtime: float) -> Memory:
        def text(key: str) -> str:
            value = doc.find(key)
            return "" if value is None or value.value is None else str(value.value)

        stem = rel.rsplit("/", 1)[-1].removesuffix(".md")
        type_ = text("type") or (stem.split("_", 1)[0] if "_" in stem else "reference")
        updated = from_epoch(mtime)
        status_text = text("status")
        if status_text in (Status.ARCHIVED.value, Status.SUPERSEDED.value):
            status = Status(status_text)
        elif rel.startswith(ARCHIVE + "/"):
            status = Status.ARCHIVED
        else:
            status = Status.ACTIVE
        tags_entry = doc.find("tags")
        tags = tags_entry.value if tags_entry and isinstance(tags_entry.value, list) else []
        merged = doc.find("merged_from")
        said = [text(key) or None for key in SOURCE_KEYS]
        said[3] = ids.agent(said[3] or "")
        reviewed = doc.find("reviewed")
        asked = doc.find("questions")
        until, since = doc.find("valid_until"), doc.find("valid_from")
        return Memory(
            id=self.id_for(rel),
            type=type_,
            content=doc.body.strip().replace("\r\n", "\n"),
            created=parse_ts(text("created"), updated) if text("created") else updated,
            updated=updated,
            name=text("name"),
            description=text("description"),
            tags=tuple(str(t) for t in tags if t is not None),
            status=status,
            supersedes=text("supersedes") or None,
            merged_from=tuple(str(x) for x in merged.value) if merged and isinstance(merged.value, list) else (),
            source=Source(*said) if any(said) else None,
            reviewed=not (reviewed is not None and reviewed.value is False),
            questions=tuple(str(q) for q in asked.value if q) if asked and isinstance(asked.value, list) else (),
            valid_until=validity.read(until.value) if until else None,
            valid_from=validity.read(since.value) if since else None,
            store=self.key,
            scope=self.scope,
            path=str(self.path / rel),
        )

    def cached(self, memory_id: str) -> Memory | None:
        return self._memories.get(memory_id)

    def active(self) -> dict[str, Memory]:
        return {mid: m for mid, m in self._memories.items() if m.active}

    def file_of(self, memory_id: str) -> Path | None:
        """The file a memory was last read from or written to, if any."""
        return self._files.get(memory_id)

    def snapshot(self, memory_id: str) -> dict[str, Any] | None:
        file = self._files.get(memory_id)
        if file is None or not file.exists():
            return None
        # bytes, not read_text(): universal newlines would turn a CRLF file into LF on the next write
        return {
            "path": file.relative_to(self.path).as_posix(),
            "text": read_text(file, "markdown"),
            "mtime": file.stat().st_mtime,
        }

    # -- writing (under the project lock, after load()) ----------------------------------------

    def new_relpath(self, memory: Memory) -> str:
        base = f"{slug(memory.type, 20)}_{slug(memory.name or memory.content)}"
        taken = {p.removesuffix(".md") for p in (f.name for f in self._files.values())}
        candidate, n = base, 2
        while (
            candidate in taken
            or (self.path / f"{candidate}.md").exists()
            or (self.path / ARCHIVE / f"{candidate}.md").exists()
        ):
            candidate, n = f"{base}_{n}", n + 1
        return f"{candidate}.md"

    def encode(self, memory: Memory) -> dict[str, Any]:
        """The snapshot (path, text, mtime) that stores `memory`, editing its current file if it has one."""
        current = self.snapshot(memory.id)
        if current is not None:
            doc = frontmatter.parse(current["text"])
            stem = current["path"].rsplit("/", 1)[-1]
        else:
            doc = frontmatter.parse(claude_code_header(memory))
            stem = (
                self.new_relpath(memory)
                if not memory.id.startswith(f"{self.scope}/")
                else memory.id.split("/", 1)[1] + ".md"
            )
        old = self.decode(current["path"], doc, current["mtime"]) if current else None
        # Only fields that differ from what the file says are written: a touch must not add a `name:`
        # or `type:` to a file that never had one (Claude Code's files often lack them).
        source = memory.source or Source()
        fields = (
            ("name", lambda m: m.name, memory.name or memory.title[:80]),
            ("description", lambda m: m.description, memory.description or None),
            ("type", lambda m: m.type, memory.type),
            ("tags", lambda m: m.tags, list(memory.tags) or None),
            ("status", lambda m: m.status, None if memory.active else memory.status.value),
            ("supersedes", lambda m: m.supersedes, memory.supersedes),
            ("merged_from", lambda m: m.merged_from, list(memory.merged_from) or None),
            *_source_fields(source),
            ("reviewed", lambda m: m.reviewed, None if memory.reviewed else False),
            ("questions", lambda m: m.questions, list(memory.questions) or None),
            ("valid_until", lambda m: m.valid_until, memory.valid_until),
            ("valid_from", lambda m: m.valid_from, memory.valid_from),
            # The file's mtime is its age; `created` is written only when it says something more.
            (
                "created",
                lambda m: m.created,
                format_ts(memory.created) if old is not None or memory.created != memory.updated else None,
            ),
        )
        for key, get, value in fields:
            if key in ("name", "description", "type") and old is None:
                continue  # written by claude_code_header, in Claude Code's own form
            if old is None or get(old) != get(memory):
                frontmatter.set_value(doc, key, value)
        if old is None or old.content != memory.content.strip():
            doc.body = (
                doc.newline + memory.content.strip().replace("\r\n", "\n").replace("\n", doc.newline) + doc.newline
            )
        folder = "" if memory.active else ARCHIVE + "/"
        return {"path": folder + stem, "text": doc.text(), "mtime": memory.updated.timestamp()}

    def apply(
        self,
        snapshots: Mapping[str, dict[str, Any] | None],
        now: datetime | None = None,
        header: Mapping[str, Any] | None = None,
    ) -> None:
        confine(self.path / INDEX)  # before the folder is made or swept: not through a link out
        self.path.mkdir(parents=True, exist_ok=True)
        if not self._swept:  # once per process: temp files of writers killed mid-write
            sweep(self.path)
            sweep(self.path / ARCHIVE)
            self._swept = True
        before = [m for m in (self._memories.get(i) for i in snapshots) if m is not None]
        for memory_id, snap in snapshots.items():
            old_file = self._files.get(memory_id)
            if snap is None:
                if old_file is not None and old_file.exists():
                    confine(old_file).unlink()
                self._files.pop(memory_id, None)
                self._memories.pop(memory_id, None)
                continue
            target = self.path / snap["path"]
            atomic_write(target, snap["text"], mtime=float(snap["mtime"]))
            if old_file is not None and old_file != target and old_file.exists():
                confine(old_file).unlink()
                fsync_dir(old_file.parent)
            self._files[memory_id] = target
            self._memories[memory_id] = self.decode(snap["path"], frontmatter.parse(snap["text"]), float(snap["mtime"]))
        self.write_index(now or utcnow(), before)

    def write_index(self, now: datetime, previous: Iterable[Memory] = ()) -> render_index.IndexRender:
        """Bring MEMORY.md in line with the memories: an existing file is edited line by line (what a
        person or Claude Code wrote stays), a missing one is written only when there is a memory to list."""
        index = self.path / INDEX
        try:
            current: str | None = read_text(index, "markdown")
        except FileNotFoundError:
            current = None
        except (UnicodeDecodeError, Unreadable):
            return render_index.render(self._memories.values(), now, self.registry)  # not ours to rewrite
        rendered = render_index.render(self._memories.values(), now, self.registry, existing=current, previous=previous)
        if not rendered.text and current is not None and current.strip():
            # Every line was an entry of a memory that left (a person's line would have stayed):
            # the index memtui wrote goes with them, and the folder too when that leaves it empty.
            confine(index).unlink()
            with contextlib.suppress(OSError):
                self.path.rmdir()
        elif current != rendered.text and (current is not None or rendered.text):
            atomic_write(index, rendered.text)
        return rendered


def _source_fields(source: Source) -> list[tuple[str, Any, Any]]:
    """encode()'s (key, value of the file's memory, value to write) for each field of the source."""

    def getter(name: str) -> Any:
        return lambda m: getattr(m.source or Source(), name)

    return [(f"source_{name}", getter(name), getattr(source, name)) for name in SOURCE_FIELDS]


def claude_code_header(memory: Memory) -> str:
    """A new memory file's frontmatter as Claude Code (2.1.330) writes its own: a kebab-case `name`,
    a one-line `description`, and the type nested under `metadata:`."""
    name = memory.name or slug(memory.title or memory.content, 60).replace("_", "-")
    description = memory.description or " ".join(memory.content.split())[:150]
    return (
        f"---\nname: {frontmatter.render_value(name)}\ndescription: {frontmatter.render_value(description)}\n"
        f"metadata:\n  type: {frontmatter.render_value(memory.type)}\n---\n"
    )


def is_memory_file(path: str | os.PathLike[str]) -> bool:
    p = Path(path)
    return p.suffix == ".md" and p.name != INDEX
