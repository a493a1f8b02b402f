"""A memory as an index row: the searchable field texts, two content hashes, and a JSON copy.

The JSON copy lets a search answer with whole `Memory` values straight from SQLite, so a hook
never parses state.json. Two hashes decide how much work a change costs: `text_hash` covers what
is tokenised and embedded (a new hash means re-index the text and re-embed), `data_hash` covers
everything else (an access count or a confidence only rewrites the JSON copy).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memtui.core.memory import Memory, Source, Status

#: The FTS5 columns, in order; bm25() weights are given in the same order (see lexical.py).
FIELDS = ("name", "description", "content", "tags", "idents", "questions")

# An identifier with inner capitals or digits: `HTTPServer`, `OrgNotActivated`, `handleWebhook2`.
_CAMEL = re.compile(r"[A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*|[A-Za-z0-9]*[A-Z]{2,}[a-z][A-Za-z0-9]*")
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def split_identifier(word: str) -> list[str]:
    """`HTTPServer` → [HTTP, Server]; `OrgNotActivated` → [Org, Not, Activated]."""
    return _PARTS.findall(word)


def idents(*texts: str) -> str:
    """The parts of every camelCase identifier in the texts, so `not activated` finds `OrgNotActivated`.

    FTS5's unicode61 tokenizer already splits snake_case and paths at the punctuation; only case
    changes inside one token need help.
    """
    seen: dict[str, None] = {}
    for text in texts:
        for match in _CAMEL.finditer(text):
            for part in split_identifier(match.group(0)):
                seen.setdefault(part.lower(), None)
    return " ".join(seen)


@dataclass(frozen=True, slots=True)
class Row:
    id: str
    store: str
    scope: str
    type: str
    status: str
    updated: float
    tags: tuple[str, ...]
    fields: tuple[str, str, str, str, str, str]
    text_hash: str
    data: str
    data_hash: str

    @property
    def embed_text(self) -> str:
        return embed_text(*self.fields[:4], self.fields[5])


def embed_text(name: str, description: str, content: str, tags: str, questions: str = "") -> str:
    """What the embedding model reads: the title, summary, body and tags as one passage, then the
    questions the memory answers (doc2query: the vector moves towards how prompts are worded)."""
    return " ".join(
        p.strip()
        for p in (f"{name}." if name else "", f"{description}." if description else "", content, tags, questions)
        if p.strip()
    )


def _digest(*parts: str) -> str:
    import hashlib  # only when indexing: a search that decodes rows never pays for it

    h = hashlib.blake2b(digest_size=12)
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()


def _redacted(memory: Memory) -> Memory:
    """What the index keeps of a memory: what memtui wrote is redacted already, but a Markdown
    memory Claude Code or a person wrote is not, and the index must never hold a secret."""
    from memtui.core.redact import scan

    changes: dict[str, Any] = {}
    for field_name in ("content", "name", "description"):
        result = scan(getattr(memory, field_name))
        if result.changed:
            changes[field_name] = result.text
    asked = [scan(q) for q in memory.questions]
    if any(r.changed for r in asked):
        changes["questions"] = tuple(r.text for r in asked)
    return memory.evolve(**changes) if changes else memory


def to_row(memory: Memory) -> Row:
    memory = _redacted(memory)
    tags = " ".join(memory.tags)
    fields = (
        memory.name,
        memory.description,
        memory.content,
        tags,
        idents(memory.name, memory.description, memory.content, tags),
        "\n".join(memory.questions),
    )
    data = encode(memory)
    return Row(
        id=memory.id,
        store=memory.store,
        scope=memory.scope,
        type=memory.type,
        status=memory.status.value,
        updated=memory.updated.timestamp(),
        tags=tuple(t.lower() for t in memory.tags),
        fields=fields,
        text_hash=_digest(memory.type, *fields),
        data=data,
        data_hash=_digest(data),
    )


def encode(memory: Memory) -> str:
    """The memory as compact JSON (datetimes at full precision, so decode() gives an equal value)."""
    value: dict[str, Any] = {
        "id": memory.id,
        "type": memory.type,
        "content": memory.content,
        "created": memory.created.isoformat(),
        "updated": memory.updated.isoformat(),
        "name": memory.name,
        "description": memory.description,
        "tags": list(memory.tags),
        "confidence": memory.confidence,
        "access_count": memory.access_count,
        "status": memory.status.value,
        "supersedes": memory.supersedes,
        "merged_from": list(memory.merged_from),
        "source": [memory.source.session, memory.source.event] if memory.source else None,
        "reviewed": memory.reviewed,
        **({"questions": list(memory.questions)} if memory.questions else {}),
        "store": memory.store,
        "scope": memory.scope,
        "path": _named_path(memory),
    }
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _named_path(memory: Memory) -> str | None:
    """A Markdown memory's file, when its name is its id; a file named by a digest instead (its name
    holds a secret or is not a safe id: store/markdown.py) is not named in the index either."""
    if memory.path is None or memory.path.endswith("/" + memory.id.rsplit("/", 1)[-1] + ".md"):
        return memory.path
    return None


def decode(data: str) -> Memory:
    v = json.loads(data)
    source = v.get("source")
    return Memory(
        id=v["id"],
        type=v["type"],
        content=v["content"],
        created=datetime.fromisoformat(v["created"]),
        updated=datetime.fromisoformat(v["updated"]),
        name=v.get("name", ""),
        description=v.get("description", ""),
        tags=tuple(v.get("tags", ())),
        confidence=float(v.get("confidence", 1.0)),
        access_count=int(v.get("access_count", 0)),
        status=Status(v.get("status", "active")),
        supersedes=v.get("supersedes"),
        merged_from=tuple(v.get("merged_from", ())),
        source=Source(source[0], source[1]) if source else None,
        reviewed=bool(v.get("reviewed", True)),
        questions=tuple(v.get("questions", ())),
        store=v.get("store", "state"),
        scope=v.get("scope", "project"),
        path=v.get("path"),
    )
