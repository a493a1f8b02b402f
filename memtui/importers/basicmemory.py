"""basic-memory (basicmachines-co/basic-memory): a project is a folder of Markdown notes; each
observation line `- [category] text #tag (context)` is a unit. The SQLite index beside the notes is
derived from them and is not read."""

from __future__ import annotations

from pathlib import Path

from memtui.errors import UsageError
from memtui.importers.unit import (
    Context,
    Reading,
    Unit,
    mapped,
    mtime,
    parse_date,
    read_text,
    readable,
    require_dir,
    slug,
)
from memtui.store import frontmatter

TOOL = "basic-memory"

TYPES = {
    "decision": "decision",
    **dict.fromkeys(("gotcha", "bug", "issue", "problem"), "gotcha"),
    **dict.fromkeys(("pattern", "convention", "practice", "technique"), "pattern"),
    **dict.fromkeys(("architecture", "design", "tech", "ops"), "architecture"),
    "preference": "feedback",
    "todo": "progress",
    "status": "progress",
    "note": "context",
    # memtui's own types, as `memtui export --format basic-memory` writes them
    **{t: t for t in ("progress", "context", "user", "feedback", "project", "reference")},
}


def default_path(ctx: Context) -> Path:
    home = ctx.env.get("BASIC_MEMORY_HOME")
    return Path(home).expanduser() if home else ctx.home / "basic-memory"


def read(path: Path, ctx: Context) -> Reading:
    require_dir(path, "basic-memory project folder")
    notes = sorted(p for p in path.rglob("*.md") if not any(part.startswith(".") for part in p.relative_to(path).parts))
    if not notes:
        raise UsageError(f"{path} holds no Markdown notes; give a basic-memory project folder (e.g. ~/basic-memory)")
    reading = Reading(TOOL, path)
    for note in readable(notes, reading, lambda n: n.relative_to(path).as_posix()):
        _note(note, path, reading)
    return reading


def observation(line: str) -> tuple[str, str, list[str], str] | None:
    """(category, text, #tags, context) of an observation line, else None (checkboxes, links, plain
    items), as basic-memory's parse_observation reads it."""
    item = line.strip()
    if not item.startswith(("- ", "* ")):
        return None
    item = item[2:].strip()
    category = ""
    if item.startswith("["):
        close = item.find("]")
        if close < 0 or item.startswith("[[") or item[close + 1 : close + 2] == "(":
            return None
        category = item[1:close].strip()
        if category.lower() in ("", "x", "-"):
            return None  # a checkbox, not a category
        item = item[close + 1 :].strip()
    context = ""
    if item.endswith(")") and "(" in item:
        start = item.rfind("(")
        context, item = item[start + 1 : -1].strip(), item[:start].strip()
    words = item.split()
    tags = [w[1:] for w in words if w.startswith("#") and len(w) > 1]
    text = " ".join(w for w in words if not (w.startswith("#") and len(w) > 1))
    if not category:
        if not tags:
            return None
        category = "Note"
    return (category, text, tags, context) if text else None


def _note(note: Path, root: Path, reading: Reading) -> None:
    text = read_text(note)
    doc = frontmatter.parse(text)
    meta = {k.key: k.value for k in doc.entries if not k.parent}
    tags = meta.get("tags")
    note_tags = tags if isinstance(tags, list) else [t for t in str(tags or "").split(",") if t.strip()]
    permalink = str(meta.get("permalink") or note.relative_to(root).with_suffix("").as_posix())
    created = parse_date(meta.get("created")) or mtime(note)
    offset = len(doc.lines) + 2 if doc.has_frontmatter else 0
    body = doc.body.splitlines()
    relations = [slug(r) for r in (_relation(line) for line in body) if r]
    fence = False
    for number, line in enumerate(body, offset + 1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        found = None if fence else observation(line)
        if found is None:
            continue
        category, said, inline, context = found
        type_, unknown = mapped(TYPES, category)
        content = said + (f" ({context})" if context else "")
        unit_tags = (*inline, *(str(t) for t in note_tags), *relations)
        ref = f"{permalink} ({note.relative_to(root).as_posix()}:{number})"
        reading.units.append(Unit(ref, type_, content, tuple(unit_tags), created, None, unknown))


def _relation(line: str) -> str | None:
    """The target of a relation line `- relation_type [[Target]]`, else None."""
    item = line.strip()
    if not item.startswith(("- ", "* ")) or "[[" not in item or item[2:].lstrip().startswith("["):
        return None
    start = item.find("[[") + 2
    end = item.find("]]", start)
    return item[start:end].strip() if end > start else None
