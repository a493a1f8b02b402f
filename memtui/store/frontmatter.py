"""YAML frontmatter as Claude Code writes it, edited line by line so untouched bytes stay untouched.

Understood: `key: scalar`, quoted scalars, flow lists `[a, b]`, block lists (`- item`), and one
level of nesting (`metadata:` with indented keys). Anything else is kept verbatim and ignored.
Only keys whose value changes are rewritten; new keys are appended before the closing `---`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

# Values are taken to the end of the line and their trailing blanks stripped in code: a lazy value
# before `[ \t]*$` rescans every run of blanks inside it from each position (quadratic).
_KEY = re.compile(r"^(?P<indent>[ \t]*)(?P<key>[A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(?P<value>.*))?$")
_ITEM = re.compile(r"^[ \t]+-[ \t]+(?P<value>.*)$|^-[ \t]+(?P<top>.*)$")


class FrontmatterError(ValueError):
    pass


@dataclass
class Key:
    key: str
    #: "" for top-level keys, else the parent key (e.g. "metadata").
    parent: str
    start: int
    end: int  # exclusive line index
    value: object


@dataclass
class Document:
    """A Markdown file split into frontmatter lines and the body (kept as the exact original text)."""

    lines: list[str]  # frontmatter lines between the fences, each with its line ending
    body: str
    has_frontmatter: bool
    newline: str = "\n"
    entries: list[Key] = field(default_factory=list)

    def get(self, key: str, parent: str = "") -> object:
        for entry in self.entries:
            if entry.key == key and entry.parent == parent:
                return entry.value
        return None

    def find(self, key: str) -> Key | None:
        """A top-level key, else the same key nested one level (Claude Code's `metadata: {type: …}`)."""
        nested = None
        for entry in self.entries:
            if entry.key == key:
                if not entry.parent:
                    return entry
                nested = nested or entry
        return nested

    def text(self) -> str:
        if not self.has_frontmatter:
            return self.body
        nl = self.newline
        return f"---{nl}" + "".join(self.lines) + f"---{nl}" + self.body


def _scalar(text: str | None, *, item: bool = False) -> object:
    if text is None or text == "":
        return None
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text[1:-1]
    if text.startswith("'") and text.endswith("'") and len(text) >= 2:
        return text[1:-1].replace("''", "'")
    if text.startswith("[") and text.endswith("]") and not item:
        # One level: an item of a flow list is a scalar (a list inside one stays its text), so a
        # hostile `[[[[…]]]]` 100,000 deep is one pass, not a recursion per level.
        inner = text[1:-1].strip()
        return [] if not inner else [_scalar(part.strip(), item=True) for part in _split_flow(inner)]
    if " #" in text:
        text = text.split(" #", 1)[0].rstrip()
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "~"):
        return None
    return text


def _split_flow(inner: str) -> list[str]:
    parts, current, quote = [], "", ""
    for ch in inner:
        if quote:
            current += ch
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
            current += ch
        elif ch == ",":
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p for p in parts if p.strip()]


def parse(text: str) -> Document:
    newline = "\r\n" if "\r\n" in text[:200] else "\n"
    if not text.startswith("---"):
        return Document([], text, False, newline)
    all_lines = text.splitlines(keepends=True)
    if all_lines[0].rstrip("\r\n") != "---":
        return Document([], text, False, newline)
    close = next((i for i in range(1, len(all_lines)) if all_lines[i].rstrip("\r\n") == "---"), None)
    if close is None:
        raise FrontmatterError("frontmatter has no closing '---' line")
    lines = all_lines[1:close]
    body = "".join(all_lines[close + 1 :])
    doc = Document(lines, body, True, newline)
    doc.entries = _entries(lines)
    return doc


def _entries(lines: list[str]) -> list[Key]:
    entries: list[Key] = []
    parent = ""
    i = 0
    while i < len(lines):
        raw = lines[i].rstrip("\r\n")
        if not raw.strip() or raw.lstrip().startswith("#"):
            i += 1
            continue
        match = _KEY.match(raw)
        if not match:
            i += 1  # continuation lines, block scalars: kept verbatim, not interpreted
            continue
        indented = bool(match.group("indent"))
        if not indented:
            parent = ""
        value_text = match.group("value")
        value_text = None if value_text is None else value_text.rstrip(" \t")
        end = i + 1
        value: object = _scalar(value_text)
        if value_text is None:
            items = []
            while end < len(lines) and (m := _ITEM.match(lines[end].rstrip("\r\n"))):
                item = m.group("value") if m.group("value") is not None else m.group("top")
                items.append(_scalar(item.rstrip(" \t")))
                end += 1
            if items:
                value = items
        entry = Key(match.group("key"), parent if indented else "", i, end, value)
        entries.append(entry)
        if not indented and value_text is None and end == i + 1:
            parent = match.group("key")  # a mapping follows: indented keys belong to it
        i = end
    return entries


def render_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    text = str(value)
    if (
        text == ""
        or re.search(r"^[\s\-?:,\[\]{}#&*!|>'\"%@`]|: | #|\s$|^(true|false|null|~)$", text, re.I)
        or "\n" in text
    ):
        return json.dumps(text, ensure_ascii=False)
    return text


def set_value(doc: Document, key: str, value: object) -> bool:
    """Set `key` (where it already is, top-level or nested), remove it when value is None. True if changed."""
    entry = doc.find(key)
    if entry is not None and entry.value == value:
        return False
    if entry is None and value is None:
        return False
    nl = doc.newline
    if entry is not None:
        indent = doc.lines[entry.start][: len(doc.lines[entry.start]) - len(doc.lines[entry.start].lstrip(" \t"))]
        replacement = [] if value is None else [f"{indent}{key}: {render_value(value)}{nl}"]
        doc.lines[entry.start : entry.end] = replacement
    else:
        if doc.lines and not doc.lines[-1].endswith(("\n", "\r")):
            doc.lines[-1] += nl
        doc.lines.append(f"{key}: {render_value(value)}{nl}")
        doc.has_frontmatter = True
    doc.entries = _entries(doc.lines)
    return True
