"""Gemini CLI (google-gemini/gemini-cli): the `## Gemini Added Memories` bullets of
`~/.gemini/GEMINI.md`, and this project's private memory `~/.gemini/tmp/<id>/memory/` (MEMORY.md,
an index whose pointer lines name sibling notes, and those notes). `<id>` is the slug
`~/.gemini/projects.json` records for the project root (older versions: the sha256 of the root)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from memtui.core import boundedjson
from memtui.errors import UsageError
from memtui.importers.mdblocks import blocks
from memtui.importers.unit import Context, Reading, Unit, mtime, read_text, readable, require_dir

TOOL = "gemini"
ADDED = "gemini added memories"
_PERSONAL = ("i ", "i'm ", "my ", "the user ", "user ")
#: projects.json is one flat map of folders to slugs: a few levels and a few MB are far beyond it.
_PROJECTS_JSON = {"max_depth": 8, "max_size": 4 << 20}


def default_path(ctx: Context) -> Path:
    return ctx.home / ".gemini"


def read(path: Path, ctx: Context) -> Reading:
    require_dir(path, "Gemini CLI folder")
    if not any((path / name).exists() for name in ("GEMINI.md", "tmp", "projects.json")):
        raise UsageError(f"{path} has no GEMINI.md, tmp/ or projects.json; give Gemini CLI's folder (~/.gemini)")
    reading = Reading(TOOL, path, agent="gemini")
    global_file = path / "GEMINI.md"
    if global_file.is_file():
        for block in blocks(read_text(global_file)):
            if block.kind == "item" and block.heading.strip().lower() == ADDED:
                reading.units.append(_unit(f"GEMINI.md:{block.line}", block.text, global_file))
    folders = _project_folders(path, ctx, reading.notes)
    for folder in folders:
        _memory_folder(folder, path, reading)
    if not folders:
        reading.notes.append(f"no private memory for {ctx.root} under {path / 'tmp'}")
    return reading


def _project_folders(path: Path, ctx: Context, notes: list[str]) -> list[Path]:
    tmp = path / "tmp"
    if ctx.all_projects:
        return sorted(p for p in tmp.glob("*/memory") if p.is_dir())
    root = str(ctx.root.resolve())
    ids: list[str] = []
    try:
        projects = boundedjson.loads(read_text(path / "projects.json"), **_PROJECTS_JSON).get("projects") or {}
        ids += [str(v) for k, v in projects.items() if str(Path(k).expanduser().resolve()) == root]
    except (boundedjson.TooDeep, boundedjson.TooLarge) as exc:
        notes.append(f"{path / 'projects.json'} was not read ({exc}); this project's folder was found without it")
    except (OSError, ValueError, AttributeError):
        pass
    ids.append(hashlib.sha256(root.encode()).hexdigest())  # the layout before slugs
    for marker in tmp.glob("*/.project_root"):
        try:
            if read_text(marker).strip() == root:
                ids.append(marker.parent.name)
        except (OSError, UsageError):
            continue
    found = [tmp / i / "memory" for i in dict.fromkeys(ids)]
    return [p for p in found if p.is_dir()]


def _memory_folder(folder: Path, base: Path, reading: Reading) -> None:
    for note in readable(sorted(folder.glob("*.md")), reading, lambda n: n.relative_to(base).as_posix()):
        ref = note.relative_to(base).as_posix()
        for block in blocks(read_text(note)):
            if note.name == "MEMORY.md" and block.kind != "item":
                continue  # the index's prose; its bullets are the memories
            text = block.text
            if block.kind == "item" and text.startswith("See ") and ".md" in text and " for " in text:
                continue  # a pointer to a sibling note, which is read itself
            reading.units.append(_unit(f"{ref}:{block.line}", text, note))


def _unit(ref: str, text: str, path: Path) -> Unit:
    personal = text.lower().startswith(_PERSONAL)
    return Unit(ref, "user" if personal else "feedback", text, (), mtime(path))
