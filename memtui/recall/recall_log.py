"""`.memory/logs/recall.jsonl`: per session and prompt, what recall sent to which agent and why.

A person checking recall (and the team tuning it) needs to see, after the fact, which memories a
prompt got, through which layer, and why the others were left out. The hook path writes one JSON
line per briefing and per prompt: the session's digest, the agent, the layer, the memories sent
with their score and why they matched, the memories the gate passed but that were not sent, and a
reason. The prompt itself is kept only as a short excerpt, redacted (`core.redact`) and defused
(`core.defuse`): the log is a private file (0600) beside the hook log, never a transcript copy.

Bounded: past MAX_BYTES the file rotates once to `recall.jsonl.1`. Fail-open: any error here is
swallowed, a log must never cost the session its answer. Standard library at module level (this is
on the hook's path); the TUI's "Recall log" screen reads it back with `read`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

NAME = "recall.jsonl"
#: Rotate once the log passes this size; one previous generation is kept.
MAX_BYTES = 256 * 1024
#: How much of the prompt the log keeps, after redaction and defusing.
EXCERPT_CHARS = 80
#: The most entries the reader returns (newest last).
READ_LIMIT = 500


def path(memory_dir: Path) -> Path:
    return memory_dir / "logs" / NAME


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """The start of the prompt `text` on one line, secrets redacted, control and tag characters defused."""
    from memtui.core.redact import redact

    return oneline(redact(" ".join(str(text)[: limit * 4].split())), limit)


def oneline(text: str, limit: int) -> str:
    """`text` on one line, cut to `limit` characters and defused. For memtui's own words and what
    the index says of a hit: memories are redacted as they are saved, so only the prompt needs it."""
    from memtui.core.defuse import for_model

    flat = " ".join(str(text).split())
    return for_model(flat if len(flat) <= limit else flat[: limit - 1] + "…", oneline=True)


def reason_for(sent: Sequence[str], found: Sequence[Any], given: str = "") -> str:
    """Why the prompt got what it got, in a few words (the gate's own reason when it gives one)."""
    if given:
        return given
    if sent:
        return f"passed the gate: best {max(float(getattr(h, 'score', 0.0)) for h in found):.2f}" if found else "sent"
    if found:
        return "passed the gate, but already shown, loaded by the agent or over budget"
    return "the gate let nothing through"


def record(
    context: Any,
    layer: str,
    sent: Sequence[str],
    *,
    found: Iterable[Any] = (),
    prompt: str = "",
    reason: str = "",
) -> None:
    """Append what `layer` ("prompt" or "briefing") sent in this hook call: `sent` the memory ids,
    `found` the hits the gate passed (score and why are kept for each), `prompt` the prompt's text
    (only an excerpt is stored), `reason` the gate's reason when it gives one. Never raises."""
    try:
        memory_dir = context.project.memory_dir
        if not memory_dir.is_dir():
            return
        hits = list(found)
        by_id = {h.memory.id: h for h in hits}
        entry = {
            "at": _now(),
            "session": str(context.session_id),
            "agent": str(getattr(context.agent, "NAME", "?")),
            "event": str(context.event),
            "layer": layer,
            "sent": [_sent(i, by_id.get(i)) for i in sent],
            "held": [h.memory.id for h in hits if h.memory.id not in set(sent)][:10],
            "reason": oneline(reason_for(sent, hits, reason), 200),
        }
        if prompt:
            entry["prompt"] = excerpt(prompt)
        _append(path(memory_dir), entry)
    except Exception:  # a full disk, a read-only directory: the answer still goes out
        pass


def _sent(memory_id: str, hit: Any) -> dict[str, Any]:
    if hit is None:
        return {"id": memory_id}
    return {"id": memory_id, "score": round(float(hit.score), 3), "why": oneline(hit.why, 120)}


def _now() -> str:
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _append(file: Path, entry: dict[str, Any]) -> None:
    import json

    from memtui.store.logfile import append

    append(file, json.dumps(entry, ensure_ascii=False) + "\n", 0o600, MAX_BYTES)


def read(memory_dir: Path, limit: int = READ_LIMIT) -> list[dict[str, Any]]:
    """The newest `limit` entries, oldest first (the rotated generation before the current one);
    lines that are not an entry are skipped."""
    import json

    out: list[dict[str, Any]] = []
    base = path(memory_dir)
    for file in (base.with_name(base.name + ".1"), base):
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and isinstance(entry.get("sent"), list):
                out.append(entry)
    return out[-limit:]
