"""Gemini CLI's private project memory (`~/.gemini/tmp/<slug>/memory/`) as the store `md:gemini`.

Gemini 0.61 loads the folder's MEMORY.md whole into every session and nothing else of it; its model
keeps brief facts there as list items and richer notes in sibling `*.md` files, each pointed to by
an item such as `- See <abs path>/<note>.md for <stem> notes.` (the shape its inbox writes; a new
MEMORY.md starts `# Project Memory`). So here a memory is either an item of MEMORY.md (a "line":
its text is the memory; no frontmatter, the type is `feedback`) or a sibling note (read as Claude
Code's files are: frontmatter optional). Pointer items are the index of the notes, not memories.

Writes keep every other byte: an edit replaces its item's lines only, a new memory is appended
as an item, a dropped line leaves MEMORY.md for `.archived/` (marked `index_line`, so a restore
puts it back as an item), a note gets or loses its pointer with it. A line has nowhere to keep a
type, tags or questions: they are the note's to keep. The id of a line is its text's slug, so an
edit gives it a new id; this process follows it (`cached`, `snapshot`), another sees the new id
and an undo finds the line by the text the edit wrote (`follow`).
Nothing is written through a link out of Gemini's project folder.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memtui.core import defuse, redact
from memtui.core.boundedread import Unreadable, read_text
from memtui.core.clock import from_epoch
from memtui.core.memory import Memory, Source
from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry
from memtui.errors import UsageError
from memtui.store import frontmatter
from memtui.store.atomic import atomic_write, fsync_dir, sweep
from memtui.store.locations import MarkdownDir
from memtui.store.markdown import ARCHIVE, INDEX, MAX_FILE_BYTES, MarkdownStore, claude_code_header, slug
from memtui.store.safepath import confine

#: What Gemini's own memories are: what the person asked it to keep and how they work.
DEFAULT_TYPE = "feedback"
#: The first line of a MEMORY.md Gemini makes (its inbox's `augmentWithAutoPointers`).
HEADING = "# Project Memory"
#: Who wrote what Gemini's folder holds, unless a note's frontmatter says otherwise.
GEMINI = Source(agent="gemini")
_MARKERS = ("- ", "* ", "+ ")
LINE_ONLY = (
    "an item of Gemini's MEMORY.md keeps its text only: edit the text, or promote it into .memory/ "
    "(`memtui promote ID state`) to give it a type, tags, a name or a description"
)
_TRIM = "`'\"()[]<>,;:"


@dataclass(frozen=True, slots=True)
class Item:
    """A top-level list item of MEMORY.md with its indented continuation lines."""

    start: int
    end: int
    marker: str
    #: The item's text: its first line after the marker, then each continuation line, stripped.
    content: str


def items(text: str) -> list[Item]:
    """The list items of a MEMORY.md, outside fenced code; positions are character offsets."""
    out: list[Item] = []
    lines = text.splitlines(keepends=True)
    pos, i, fenced = 0, 0, False
    while i < len(lines):
        line = lines[i].rstrip("\r\n")
        if line.startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or line[:2] not in _MARKERS or not line[2:].strip():
            pos, i = pos + len(lines[i]), i + 1
            continue
        start, body = pos, [line[2:].strip()]
        pos, i = pos + len(lines[i]), i + 1
        while i < len(lines) and lines[i][:1] in (" ", "\t") and lines[i].strip():
            body.append(lines[i].strip())
            pos, i = pos + len(lines[i]), i + 1
        out.append(Item(start, pos, line[:2], "\n".join(body)))
    return out


def pointed(content: str, folder: Path) -> str | None:
    """The sibling note an item points to (a `.md` path in `folder`, or a bare name), else None."""
    for word in content.split():
        token = word.split("](", 1)[1] if "](" in word else word
        token = token.strip(_TRIM).rstrip(".,;:").strip(_TRIM)
        if not token.lower().endswith(".md"):
            continue
        head, _, name = token.rpartition("/")
        if not name or name == INDEX:
            continue
        if head in ("", ".") or _same_dir(head, folder):
            return name
    return None


def _same_dir(head: str, folder: Path) -> bool:
    try:
        return os.path.realpath(os.path.expanduser(head)) == os.path.realpath(folder)
    except (OSError, ValueError):
        return False


def pointer_line(note: Path) -> str:
    """Gemini's own pointer to a sibling note."""
    stem = note.stem.replace("-", " ").replace("_", " ").strip() or note.name
    return f"- See {note} for {stem} notes."


class GeminiMemoryStore(MarkdownStore):
    def __init__(self, directory: MarkdownDir, registry: TypeRegistry = DEFAULT_REGISTRY) -> None:
        super().__init__(directory, registry)
        self.root = directory.root or directory.path
        #: Line id → its item, as last read.
        self._lines: dict[str, Item] = {}
        #: A line's id before an edit this process made → its id after.
        self._renamed: dict[str, str] = {}

    # -- reading -------------------------------------------------------------------------------

    def _index_text(self) -> str | None:
        """MEMORY.md's text; None when there is none, or when it cannot be read (a problem then)."""
        index = self.path / INDEX
        try:
            if index.stat().st_size > MAX_FILE_BYTES:
                self.problems.append(f"{index}: too large to read (limit 1 MiB); trim it")
                return None
            return read_text(index, "markdown")
        except FileNotFoundError:
            return None
        except Unreadable as exc:
            self.problems.append(str(exc))
        except UnicodeDecodeError as exc:
            self.problems.append(f"{index}: not UTF-8 text (byte {exc.start}); re-save it as UTF-8")
        except OSError as exc:
            self.problems.append(f"{index}: cannot be read ({exc.strerror}); check its permissions")
        return None

    def _assign(self, found: list[Item], taken: set[str]) -> dict[str, Item]:
        """Line id → item, in the file's order: the slug of its text, `_2`, `_3`… past a name
        already taken (a note's, an earlier line's). Pointer items get none."""
        out: dict[str, Item] = {}
        for item in found:
            if pointed(item.content, self.path) is not None:
                continue
            base = slug(item.content)
            stem, n = base, 2
            while stem in taken:
                stem, n = f"{base}_{n}", n + 1
            taken.add(stem)
            out[self.id_for(stem + ".md")] = item
        return out

    def _stems(self) -> set[str]:
        return {f.name.removesuffix(".md") for f in self._files.values() if f.name != INDEX}

    def load(self) -> dict[str, Memory]:
        memories = super().load()
        self._lines = {}
        text = self._index_text() if self.exists else None
        if text is None:
            return memories
        index = self.path / INDEX
        try:
            mtime = index.stat().st_mtime
        except OSError:  # removed since it was read: its items go with it
            return memories
        self._lines = self._assign(items(text), self._stems())
        for mid, item in self._lines.items():
            if mid in memories:
                continue
            at = from_epoch(mtime)
            memories[mid] = Memory(
                id=mid,
                type=DEFAULT_TYPE,
                content=redact.redact(item.content),  # another agent's file: memtui shows no secret of it
                created=at,
                updated=at,
                source=GEMINI,
                store=self.key,
                scope=self.scope,
                path=str(index),
            )
            self._files[mid] = index
        return memories

    def decode(self, rel: str, doc: frontmatter.Document, mtime: float) -> Memory:
        memory = super().decode(rel, doc, mtime)
        if doc.find("type") is None:
            memory = memory.evolve(type=DEFAULT_TYPE)
        if redact.scan(memory.content).changed:
            memory = memory.evolve(content=redact.redact(memory.content))
        return memory if memory.source is not None else memory.evolve(source=GEMINI)

    def cached(self, memory_id: str) -> Memory | None:
        return self._memories.get(self._renamed.get(memory_id, memory_id))

    def file_of(self, memory_id: str) -> Path | None:
        return self._files.get(self._renamed.get(memory_id, memory_id))

    def snapshot(self, memory_id: str) -> dict[str, Any] | None:
        mid = self._renamed.get(memory_id, memory_id)
        if mid not in self._lines:
            return super().snapshot(mid)
        text = self._index_text()
        item = self._assign(items(text or ""), self._stems()).get(mid)
        if text is None or item is None:
            return None
        return {"path": INDEX, "text": text[item.start : item.end], "line": True}

    # -- writing (under the project lock, after load()) ----------------------------------------

    def new_relpath(self, memory: Memory) -> str:
        """A new memory's name: a line's, the slug of its text (what reading gives it once appended)."""
        taken = self._stems() | {mid.split("/", 1)[1] for mid in self._lines}
        base = slug(memory.content)
        stem, n = base, 2
        while stem in taken or (self.path / f"{stem}.md").exists() or (self.path / ARCHIVE / f"{stem}.md").exists():
            stem, n = f"{base}_{n}", n + 1
        return f"{stem}.md"

    def keeps_fields(self, memory_id: str) -> bool:
        """Whether the memory can keep a type, tags, a name or questions: a note can, a line cannot."""
        return self._renamed.get(memory_id, memory_id) not in self._lines

    def encode(self, memory: Memory) -> dict[str, Any]:
        current = self.snapshot(memory.id)
        line = current is not None and bool(current.get("line"))
        old = self.cached(memory.id)
        if line and memory.active and old is not None and _fields(old) != _fields(memory):
            raise UsageError(LINE_ONLY)
        if memory.active and (current is None or line or _was_line(current)):
            return {"path": INDEX, "text": self._item_text(memory, current if line else None), "line": True}
        if line:
            return self._archived_line(memory)
        snap = super().encode(memory)
        doc = frontmatter.parse(snap["text"])
        if doc.has_frontmatter and not any(raw.strip() for raw in doc.lines):
            snap["text"] = doc.body  # a note Gemini wrote with no frontmatter gets none back on restore
        return snap

    def _item_text(self, memory: Memory, current: Mapping[str, Any] | None) -> str:
        content = memory.content.strip().replace("\r\n", "\n")
        if current is not None:
            old = items(current["text"])
            if old and redact.redact(old[0].content) == content:
                return str(current["text"])  # unchanged (as memtui shows it): its bytes as they are
            marker = old[0].marker if old else "- "
            newline = "\r\n" if str(current["text"]).endswith("\r\n") else "\n"
        else:
            marker, newline = "- ", _newline(self._index_text() or "")
        # MEMORY.md goes into Gemini's context as it stands: defused like every line memtui writes there.
        lines = [line.strip() for line in defuse.for_model(content).split("\n") if line.strip()] or ["…"]
        return marker + lines[0] + newline + "".join(f"  {line}{newline}" for line in lines[1:])

    def _archived_line(self, memory: Memory) -> dict[str, Any]:
        """A dropped or superseded line, as a note in `.archived/` that remembers it was a line."""
        doc = frontmatter.parse(claude_code_header(memory))
        frontmatter.set_value(doc, "status", memory.status.value)
        frontmatter.set_value(doc, "index_line", True)
        if memory.supersedes:
            frontmatter.set_value(doc, "supersedes", memory.supersedes)
        doc.body = "\n" + memory.content.strip().replace("\r\n", "\n") + "\n"
        stem = memory.id.split("/", 1)[1]
        return {"path": f"{ARCHIVE}/{stem}.md", "text": doc.text(), "mtime": memory.updated.timestamp()}

    def apply(
        self,
        snapshots: Mapping[str, dict[str, Any] | None],
        now: datetime | None = None,
        header: Mapping[str, Any] | None = None,
    ) -> None:
        index = self.path / INDEX
        targets = [index, *(self.path / s["path"] for s in snapshots.values() if s)]
        targets += [f for f in map(self.file_of, snapshots) if f is not None]
        for path in targets:
            confine(path, self.root)  # Gemini's folder is the person's; a link out of it is not followed
        if index.exists() and self._index_text() is None:
            raise UsageError(f"{index} cannot be read as text; fix it by hand before memtui edits it")
        self.path.mkdir(parents=True, exist_ok=True)
        if not self._swept:
            sweep(self.path)
            sweep(self.path / ARCHIVE)
            self._swept = True
        text = self._index_text() or ""
        lines = self._assign(items(text), self._stems())
        edits: dict[int, tuple[int, str]] = {}
        appends: list[str] = []
        notes_in: list[Path] = []
        notes_out: set[str] = set()
        for memory_id, snap in snapshots.items():
            mid = self._renamed.get(memory_id, memory_id)
            item = lines.get(mid)
            file = self._files.get(mid)
            if snap is not None and snap.get("line"):
                if item is not None:
                    edits[item.start] = (item.end, snap["text"])
                else:
                    appends.append(snap["text"])
            elif item is not None:
                edits[item.start] = (item.end, "")
            if file is not None and file != index and file.exists() and (snap is None or snap.get("line")):
                confine(file, self.root).unlink()
                notes_out.add(file.name)
            if snap is not None and not snap.get("line"):
                target = self.path / snap["path"]
                atomic_write(target, snap["text"], mtime=float(snap["mtime"]))
                if file is not None and file not in (index, target) and file.exists():
                    confine(file, self.root).unlink()
                    fsync_dir(file.parent)
                if target.parent == self.path and (file is None or file.parent != self.path):
                    notes_in.append(target)  # a note back from .archived/ (one already here keeps its index as is)
                else:
                    notes_out.add(target.name)
        self._write_index(text, edits, appends, notes_in, notes_out)
        written = {m: s["text"] for m, s in snapshots.items() if s is not None and s.get("line")}
        self.load()
        self._follow(written)

    def _write_index(
        self,
        text: str,
        edits: dict[int, tuple[int, str]],
        appends: list[str],
        notes_in: list[Path],
        notes_out: set[str],
    ) -> None:
        """MEMORY.md with the items changed, removed and appended, and the notes' pointers in step."""
        named: dict[str, Item] = {}
        for item in items(text):
            note = pointed(item.content, self.path)
            if note is not None:
                named.setdefault(note, item)
        for note in notes_out:
            pointer = named.get(note)
            if pointer is not None and not (self.path / note).exists():
                edits[pointer.start] = (pointer.end, "")
        newline = _newline(text)
        appends += [pointer_line(n) + newline for n in notes_in if n.name not in named]
        out, pos = [], 0
        for start in sorted(edits):
            end, replacement = edits[start]
            out += [text[pos:start], replacement]
            pos = end
        new = "".join([*out, text[pos:]])
        if appends:
            if not new.strip():
                new = HEADING + newline if not text else new
            elif not new.endswith(("\n", "\r")):
                new += newline
            new += "".join(appends)
        index = self.path / INDEX
        if new != text and (index.exists() or new):
            atomic_write(index, new)

    def _follow(self, written: Mapping[str, str]) -> None:
        """Each line this process wrote under an id its new text no longer gives: the id it has now."""
        raws: dict[str, str] = {}
        text = self._index_text() or ""
        for mid, item in self._lines.items():
            raws.setdefault(text[item.start : item.end], mid)
        for old, raw in written.items():
            new = raws.get(raw)
            if new is not None and new != old:
                self._renamed[old] = new
                for earlier, later in list(self._renamed.items()):
                    if later == old:
                        self._renamed[earlier] = new

    def follow(self, memory_id: str, snap: Mapping[str, Any] | None) -> None:
        """Another process's edit gave a line a new id: `memory_id` follows the item whose text is
        what that edit wrote (`snap`), so its undo finds it."""
        if memory_id in self._lines or memory_id in self._renamed or not snap or not snap.get("line"):
            return
        text = self._index_text() or ""
        for mid, item in self._lines.items():
            if text[item.start : item.end] == snap["text"]:
                self._renamed[memory_id] = mid
                return

    def write_index(self, now: datetime, previous: Any = ()) -> Any:
        """MEMORY.md is Gemini's own and kept in step by `apply`: there is no index to render."""


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text[:4096] else "\n"


def _fields(memory: Memory) -> tuple[Any, ...]:
    return (memory.type, memory.tags, memory.name, memory.description)


def _was_line(snapshot: Mapping[str, Any]) -> bool:
    """An archived file that was a line of MEMORY.md before it was dropped."""
    try:
        entry = frontmatter.parse(str(snapshot.get("text", ""))).find("index_line")
    except frontmatter.FrontmatterError:
        return False
    return entry is not None and entry.value is True
