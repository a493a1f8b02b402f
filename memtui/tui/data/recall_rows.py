"""The recall log as rows for people: per session and prompt, what was sent to which agent and why.

No Textual here: the screen (`tui/screens/recall_log.py`) renders these rows; the entries come from
`.memory/logs/recall.jsonl` (`recall.recall_log`), whose text was defused and redacted when written
and is defused again here, since the file is only as trustworthy as whoever could write it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memtui.core.defuse import for_model


@dataclass(frozen=True)
class Row:
    at: str
    session: str
    agent: str
    layer: str
    sent: tuple[str, ...]
    held: tuple[str, ...]
    reason: str
    prompt: str


def _text(value: Any, limit: int = 200) -> str:
    return for_model(str(value if value is not None else "")[:limit], oneline=True)


def rows(entries: list[dict[str, Any]]) -> list[Row]:
    """Newest first."""
    out = []
    for entry in reversed(entries):
        sent = []
        for item in entry.get("sent") or []:
            if isinstance(item, dict) and item.get("id"):
                score = item.get("score")
                shown = (
                    f"{_text(item['id'], 40)} {score:.2f}" if isinstance(score, (int, float)) else _text(item["id"], 40)
                )
                why = _text(item.get("why"), 80)
                sent.append(f"{shown} ({why})" if why else shown)
        held = tuple(_text(i, 40) for i in entry.get("held") or [] if isinstance(i, str))
        out.append(
            Row(
                at=_text(entry.get("at"), 20).replace("T", " ").rstrip("Z"),
                session=_text(entry.get("session"), 12),
                agent=_text(entry.get("agent"), 20),
                layer=_text(entry.get("layer"), 20),
                sent=tuple(sent),
                held=held,
                reason=_text(entry.get("reason")),
                prompt=_text(entry.get("prompt"), 100),
            )
        )
    return out
