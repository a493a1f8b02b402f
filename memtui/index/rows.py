"""A memory as an index row: the searchable field texts, two content hashes, and a JSON copy.

The JSON copy lets a search answer with whole `Memory` values straight from SQLite, so a hook
never parses state.json. Two hashes decide how much work a change costs: `text_hash` covers what
is tokenised and embedded (a new hash means re-index the text and re-embed), `data_hash` covers
everything else (an access count or a confidence only rewrites the JSON copy).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memtui.core.memory import SOURCE_FIELDS, Memory, Source, Status

#: The FTS5 columns, in order; bm25() weights are given in the same order (see lexical.py).
FIELDS = ("name", "description", "content", "tags", "idents", "questions")

#: A longer run of letters and digits is a pasted blob (base64, a key, minified code, a run of one
#: letter), not an identifier anyone types: it is not split. Real identifiers stay far below this
#: (the longest in the development sets has 41 characters); the whole run is still in the index as
#: one FTS5 token, so nothing that was findable by its full text is lost.
MAX_IDENT = 64

_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_DIGIT = frozenset("0123456789")


def _run(word: str, start: int, chars: frozenset[str]) -> int:
    """The end of the run of `chars` that starts at `start`."""
    end = start
    while end < len(word) and word[end] in chars:
        end += 1
    return end


def split_identifier(word: str) -> list[str]:
    """`HTTPServer` → [HTTP, Server]; `OrgNotActivated` → [Org, Not, Activated]; `handleWebhook2`
    → [handle, Webhook, 2]. ASCII letters and digits only; anything else separates.

    One left-to-right scan over character classes, so the cost is linear in the word whatever it
    holds (a regular expression with lookahead over capital runs backtracked cubically).
    """
    parts: list[str] = []
    at = 0
    while at < len(word):
        char = word[at]
        if char in _UPPER:
            end = _run(word, at, _UPPER)
            if end < len(word) and word[end] in _LOWER:
                if end - at > 1:  # `HTTPServer`: the last capital starts the next word
                    parts.append(word[at : end - 1])
                    at = end - 1
                end = _run(word, end, _LOWER)
        elif char in _LOWER:
            end = _run(word, at, _LOWER)
        elif char in _DIGIT:
            end = _run(word, at, _DIGIT)
        else:
            at += 1
            continue
        parts.append(word[at:end])
        at = end
    return parts


def _camel(run: str) -> bool:
    """A case change inside the run: a lower-case letter or digit before a capital, or two
    capitals before a lower-case letter (`HTTPServer`)."""
    for i in range(1, len(run)):
        if run[i] in _UPPER and run[i - 1] not in _UPPER:
            return True
        if run[i] in _LOWER and i >= 2 and run[i - 1] in _UPPER and run[i - 2] in _UPPER:
            return True
    return False


def _alnum_runs(text: str) -> list[str]:
    """The maximal runs of ASCII letters and digits in `text`, in order."""
    alnum = _UPPER | _LOWER | _DIGIT
    runs: list[str] = []
    start = -1
    for i, char in enumerate(text):
        if char in alnum:
            if start < 0:
                start = i
        elif start >= 0:
            runs.append(text[start:i])
            start = -1
    if start >= 0:
        runs.append(text[start:])
    return runs


def idents(*texts: str) -> str:
    """The parts of every camelCase identifier in the texts, so `not activated` finds `OrgNotActivated`.

    FTS5's unicode61 tokenizer already splits snake_case and paths at the punctuation; only case
    changes inside one token need help. A run longer than `MAX_IDENT` is not split.
    """
    seen: dict[str, None] = {}
    for text in texts:
        for run in _alnum_runs(text):
            if len(run) <= MAX_IDENT and _camel(run):
                for part in split_identifier(run):
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
        "source": _source(memory.source),
        "reviewed": memory.reviewed,
        **({"questions": list(memory.questions)} if memory.questions else {}),
        **({"proposes": memory.proposes} if memory.proposes else {}),
        **({"valid_until": memory.valid_until} if memory.valid_until else {}),
        **({"valid_from": memory.valid_from} if memory.valid_from else {}),
        "store": memory.store,
        "scope": memory.scope,
        "path": _named_path(memory),
    }
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _source(source: Source | None) -> list[str | None] | None:
    """The source's fields in order (session, event, origin, agent, kind…) without trailing empty ones
    past the second, so a memory without the later ones has the row (and data hash) it had before
    they were kept here."""
    if source is None:
        return None
    values = [getattr(source, name) for name in SOURCE_FIELDS]
    while len(values) > 2 and values[-1] is None:
        values.pop()
    return values


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
        source=Source(*source[: len(SOURCE_FIELDS)]) if source else None,
        reviewed=bool(v.get("reviewed", True)),
        questions=tuple(v.get("questions", ())),
        proposes=v.get("proposes"),
        valid_until=v.get("valid_until"),
        valid_from=v.get("valid_from"),
        store=v.get("store", "state"),
        scope=v.get("scope", "project"),
        path=v.get("path"),
    )
