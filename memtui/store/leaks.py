"""Secrets already on disk: find them (`memtui scan`) and redact them (`memtui scan --fix`).

What is scanned: every memory of every store (archived and superseded ones too: they are files
and journal lines like any other), and every file memtui keeps beside them: the journal, the logs,
status.json, usage.jsonl, the spool, backups, the Markdown indexes (MEMORY.md) and CLAUDE.md.
Findings are reported by memory or file and kind, never with the secret itself.

The fix is one journal entry, so `memtui undo` works, but undo must never bring a secret back:
after the memories are redacted, every file above is rewritten with the same redaction, the
journal included (each entry's before/after snapshots). Undoing the fix therefore restores each
memory exactly as it was except for its secrets. The index (a layer above) is rebuilt by the
command afterwards, so no old copy of the text survives in the SQLite file's free pages either.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from memtui.core import redact
from memtui.core.memory import Memory
from memtui.store.agentstores import read_only
from memtui.store.atomic import atomic_write
from memtui.store.bank import Bank
from memtui.store.markdown import INDEX

#: The text fields of a memory that can hold a secret.
FIELDS = ("content", "name", "description")


@dataclass(frozen=True, slots=True)
class MemoryLeak:
    memory: Memory
    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FileLeak:
    path: Path
    kinds: tuple[str, ...]
    #: False for text that is not memtui's to rewrite (a person's own lines in CLAUDE.md).
    fixable: bool = True


@dataclass(slots=True)
class Report:
    memories: list[MemoryLeak] = field(default_factory=list)
    files: list[FileLeak] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.memories and not self.files

    @property
    def count(self) -> int:
        return sum(len(leak.kinds) for leak in self.memories) + sum(len(leak.kinds) for leak in self.files)

    def to_json(self, root: Path) -> dict:
        return {
            "secrets": self.count,
            "memories": [
                {"id": leak.memory.id, "store": leak.memory.store, "kinds": _counted(leak.kinds)}
                for leak in self.memories
            ],
            "files": [
                {"path": shown(leak.path, root), "kinds": _counted(leak.kinds), "fixable": leak.fixable}
                for leak in self.files
            ],
        }


def _counted(kinds: Iterable[str]) -> dict[str, int]:
    return dict(sorted(Counter(kinds).items()))


def shown(path: Path, root: Path) -> str:
    """A path as the report shows it: relative to the project when inside it."""
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def memory_kinds(memory: Memory) -> tuple[str, ...]:
    """The kinds of secret a memory holds (empty for almost all)."""
    return redact.kinds_in(*(getattr(memory, name) for name in FIELDS))


def _redacted(memory: Memory) -> Memory:
    return memory.evolve(**{name: redact.redact(getattr(memory, name)) for name in FIELDS})


def files(bank: Bank) -> list[Path]:
    """Every file beside the stores that memtui writes text into (the index aside: it is rebuilt)."""
    memory_dir = bank.project.memory_dir
    found = [memory_dir / name for name in ("journal.jsonl", "status.json", "usage.jsonl", "service.json")]
    for folder in ("logs", "spool", "backups"):
        base = memory_dir / folder
        if base.is_dir():
            found += sorted(p for p in base.rglob("*") if p.is_file() and not p.name.endswith(".lock"))
    found += sorted(memory_dir.glob("*.before-repair"))
    found += [store.path / INDEX for store in bank.markdown if not read_only(store)]  # Codex's file is Codex's
    found.append(bank.project.root / "CLAUDE.md")
    return [p for p in found if p.is_file()]


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _file_kinds(path: Path, text: str) -> tuple[str, ...]:
    if path.suffix in (".json", ".jsonl"):
        kinds: list[str] = []
        for line in text.splitlines() if path.suffix == ".jsonl" else [text]:
            try:
                value = json.loads(line)
            except ValueError:
                kinds += redact.scan(line).kinds
                continue
            kinds += [kind for string in _strings(value) for kind in redact.scan(string).kinds]
        return tuple(kinds)
    return redact.scan(text).kinds


def _strings(value: object) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def scan(bank: Bank) -> Report:
    report = Report()
    for memory in bank.memories():
        kinds = memory_kinds(memory)
        if kinds:
            report.memories.append(MemoryLeak(memory, kinds))
    claude_md = bank.project.root / "CLAUDE.md"
    for path in files(bank):
        text = _text(path)
        if text is None:
            continue
        kinds = _file_kinds(path, text)
        if kinds:
            report.files.append(FileLeak(path, kinds, fixable=path != claude_md or _outside_block(text) == ()))
    return report


def _outside_block(text: str) -> tuple[str, ...]:
    """Secret kinds in CLAUDE.md outside memtui's block: the user's own text, reported, never rewritten."""
    from memtui.core.render_block import END, START

    start, end = text.find(START), text.find(END)
    outside = text if start < 0 or end < 0 else text[:start] + "\n" + text[end + len(END) :]
    return redact.scan(outside).kinds


def _rewrite(path: Path, text: str) -> bool:
    """`path` with every secret redacted; True when it changed."""
    if path.suffix == ".jsonl":
        lines = []
        for line in text.splitlines():
            try:
                lines.append(
                    json.dumps(redact.redact_values(json.loads(line)), ensure_ascii=False, separators=(",", ":"))
                )
            except ValueError:
                lines.append(redact.redact(line))
        new = "\n".join(lines) + ("\n" if text.endswith("\n") else "")
    elif path.suffix == ".json":
        try:
            new = json.dumps(redact.redact_values(json.loads(text)), indent=2, ensure_ascii=False) + "\n"
        except ValueError:
            new = redact.redact(text)
    else:
        new = redact.redact(text)
    if new == text:
        return False
    atomic_write(path, new)
    return True


def fix(bank: Bank) -> tuple[Report, list[Path]]:
    """Redact every secret found: memories as one undoable change, then every file (the journal
    last, so the fix's own entry is rewritten too). Returns what was found and the files rewritten."""
    from memtui.core.render_block import END, START

    with bank.lock:
        report = scan(bank)
        changes: dict[str, dict[str, Memory | None]] = {}
        for leak in report.memories:
            if read_only(bank.stores()[leak.memory.store]):
                continue  # another agent's own file: shown by scan, never rewritten by memtui
            changes.setdefault(leak.memory.store, {})[leak.memory.id] = _redacted(leak.memory)
        if changes:
            bank.commit("scan-fix", f"redact secrets in {len(report.memories)} memories", changes)
        rewritten = []
        claude_md = bank.project.root / "CLAUDE.md"
        for path in files(bank):
            if path == claude_md:
                continue  # memtui's block was re-rendered by the commit; the rest is the user's
            text = _text(path)
            if text is not None and _rewrite(path, text):
                rewritten.append(path)
        text = _text(claude_md)
        if text is not None and START in text and END in text and redact.scan(text).changed:
            start, end = text.index(START), text.index(END) + len(END)
            block = redact.redact(text[start:end])
            if block != text[start:end]:
                atomic_write(claude_md, text[:start] + block + text[end:])
                rewritten.append(claude_md)
    return report, rewritten
