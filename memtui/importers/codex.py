"""Codex CLI (openai/codex): `~/.codex/memories/MEMORY.md`, the consolidated handbook, is the
curated layer: one unit per bullet of a Task Group's `User preferences`, `Reusable knowledge` and
`Failures and how to do differently`; plus `memory_summary.md`'s `User Profile`. The raw layers
(raw_memories.md, rollout_summaries/, the stage-1 SQLite rows) are what MEMORY.md was made from;
they give lineage (thread ids), not memories of their own."""

from __future__ import annotations

from pathlib import Path

from memtui.errors import UsageError
from memtui.importers.mdblocks import blocks
from memtui.importers.unit import Context, Reading, Unit, mtime, parse_date, read_text, require_dir, slug

TOOL = "codex"

SECTIONS = {
    "user preferences": "feedback",
    "reusable knowledge": "pattern",
    "failures and how to do differently": "gotcha",
}
_STRUCTURE = ("architecture", "module", "layout", "lives in", "structure", "directory")


def default_path(ctx: Context) -> Path:
    home = ctx.env.get("CODEX_HOME")
    return Path(home).expanduser() if home else ctx.home / ".codex"


def read(path: Path, ctx: Context) -> Reading:
    require_dir(path, "Codex home folder")
    root = path / "memories" if (path / "memories").is_dir() else path
    handbook = root / "MEMORY.md"
    if not handbook.is_file():
        raise UsageError(f"{path} has no memories/MEMORY.md; give Codex's home (~/.codex) or its memories folder")
    reading = Reading(TOOL, root, agent="codex")
    _handbook(handbook, root, reading, ctx)
    summary = root / "memory_summary.md"
    if summary.is_file():
        _profile(summary, root, reading)
    return reading


class _Group:
    def __init__(self, name: str) -> None:
        self.name = name
        self.cwd = ""
        self.keywords: list[str] = []
        self.threads: dict[str, tuple[str, str]] = {}  # task number → (thread ids, updated_at)


def _groups(text: str) -> list[tuple[_Group, int, int]]:
    """Each `# Task Group:` block with its first and last line (1-based)."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("# Task Group:")]
    out = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        group = _Group(lines[start].split(":", 1)[1].strip())
        task = ""
        in_keywords = False
        for line in lines[start + 1 : end]:
            if line.startswith("applies_to:") and "cwd=" in line:
                group.cwd = line.split("cwd=", 1)[1].split(";", 1)[0].strip()
            elif line.startswith("## Task "):
                task = line[len("## Task ") :].split(":", 1)[0].strip()
            elif line.startswith("### "):
                in_keywords = line.strip() == "### keywords"
            elif in_keywords and line.strip():
                group.keywords += [slug(k) for k in line.split(",") if slug(k)]
                in_keywords = False
            elif task and line.lstrip().startswith("- rollout_summaries/") and "thread_id=" in line:
                thread = line.split("thread_id=", 1)[1].split(",")[0].split(")")[0].strip()
                updated = line.split("updated_at=", 1)[1].split(",")[0].strip() if "updated_at=" in line else ""
                old = group.threads.get(task, ("", ""))
                group.threads[task] = (",".join(filter(None, (old[0], thread))), max(old[1], updated))
        out.append((group, start + 1, end))
    return out


def _applies(cwd: str, ctx: Context) -> bool:
    if ctx.all_projects or not cwd:
        return True
    try:
        here, there = ctx.root.resolve(), Path(cwd).expanduser().resolve()
    except OSError:
        return False
    return there == here or here in there.parents


def _handbook(path: Path, root: Path, reading: Reading, ctx: Context) -> None:
    text = read_text(path)
    skipped = 0
    groups = _groups(text)
    for block in blocks(text, front=False):
        if block.kind != "item" or len(block.headings) < 2:
            continue
        section = block.heading.strip().lower()
        if section not in SECTIONS:
            continue
        found = next(((g, s) for g, s, e in groups if s <= block.line <= e), None)
        if found is None:
            continue
        group = found[0]
        if not _applies(group.cwd, ctx):
            skipped += 1
            continue
        said, tasks = _without_task_refs(block.text)
        type_ = SECTIONS[section]
        if type_ == "pattern" and any(w in said.lower() for w in _STRUCTURE):
            type_ = "architecture"
        threads = [group.threads[t] for t in tasks if t in group.threads] or list(group.threads.values())
        ids = ",".join(t for t, _ in threads if t)
        when = max((u for _, u in threads if u), default="")
        ref = f"{path.relative_to(root).as_posix()}:{block.line} (task group {group.name!r})"
        reading.units.append(
            Unit(ref, type_, said, tuple(group.keywords), parse_date(when) or mtime(path), ids or None)
        )
    if skipped:
        reading.notes.append(f"{skipped} MEMORY.md entries for other folders left out (--all-projects imports them)")


def _without_task_refs(text: str) -> tuple[str, list[str]]:
    """The bullet without its trailing `[Task 1]` / `[Task 1, Task 2]` refs, and the task numbers."""
    tasks: list[str] = []
    said = text.rstrip()
    while said.endswith("]") and "[Task" in said:
        start = said.rfind("[Task")
        inner = said[start + 1 : -1]
        tasks += [part.strip().removeprefix("Task").strip() for part in inner.split(",")]
        said = said[:start].rstrip()
    return said, tasks


def _profile(path: Path, root: Path, reading: Reading) -> None:
    for block in blocks(read_text(path), front=False):
        if block.heading.strip().lower() == "user profile":
            ref = f"{path.relative_to(root).as_posix()}:{block.line}"
            reading.units.append(Unit(ref, "user", block.text, ("user-profile",), mtime(path)))
