"""Secret redaction, applied before anything reaches disk or a prompt.

`<private>…</private>` comes first: what a user wraps so is removed outright (not marked), so it
is never captured, sent to a model or stored. An unclosed `<private>` hides everything after it.

Secrets are found by `detectors` (detect-secrets' detectors plus memtui's rules for what they
miss) and replaced by `[REDACTED:kind]`: recognisable, and stable, so a re-capture of the same text
dedups against the redacted memory. Scanning redacted text again changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


def marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


@dataclass(frozen=True, slots=True)
class Redaction:
    text: str
    kinds: tuple[str, ...]

    @property
    def changed(self) -> bool:
        return bool(self.kinds)


_PRIVATE = re.compile(r"<private>.*?(?:</private>|\Z)", re.DOTALL | re.IGNORECASE)


def strip_private(text: str) -> str:
    """`text` without its `<private>…</private>` spans."""
    if "<" not in text:
        return text  # the common case, without running the pattern
    return _PRIVATE.sub("", text)


#: What scans found, by text: the same text is scanned several times on its way to disk (an
#: import's plan, then the Bank's add, then the journal's copy of the snapshot, which holds the
#: redacted text: scanning that again changes nothing, so it is recorded as clean). The rules are
#: fixed, so the answer is too. None stands for "nothing found". Only a memory-sized text is kept
#: (not a prompt or a transcript), and the table is emptied at _MEMO_CHARS characters of keys,
#: so a long-lived process holds at most that much.
_MEMO: dict[str, Redaction | None] = {}
_MEMO_TEXT = 8_000
_MEMO_CHARS = 1 << 24
_memo_chars = 0


def scan(text: str) -> Redaction:
    """`text` with private spans removed and every secret replaced by `[REDACTED:kind]`."""
    global _memo_chars
    try:
        known = _MEMO[text]
    except KeyError:
        pass
    else:
        return Redaction(text, ()) if known is None else known
    found = _scan(text)
    if len(text) <= _MEMO_TEXT:
        if _memo_chars > _MEMO_CHARS:
            _MEMO.clear()
            _memo_chars = 0
        _MEMO[text] = found if found.kinds else None
        _memo_chars += len(text)
        if found.kinds:
            _MEMO.setdefault(found.text, None)
            _memo_chars += len(found.text)
    return found


def _scan(text: str) -> Redaction:
    kinds: list[str] = []
    without = strip_private(text)
    if without != text:
        kinds.append("private")
        text = without
    from memtui.core import detectors  # on the first scan: importing redact costs a hook nothing

    findings = detectors.find(text)
    if not findings:
        return Redaction(text, tuple(kinds))
    out, at = [], 0
    for finding in findings:
        out += [text[at : finding.start], marker(finding.kind)]
        kinds.append(finding.kind)
        at = finding.end
    out.append(text[at:])
    return Redaction("".join(out), tuple(kinds))


def redact(text: str) -> str:
    return scan(text).text


def kinds_in(*texts: str) -> tuple[str, ...]:
    """The kind of each secret found in `texts` (empty for almost all)."""
    return tuple(kind for text in texts for kind in scan(text).kinds)


def redact_values(value: Any) -> Any:
    """`value` (JSON-like) with every string in it redacted; keys are names we chose and stay."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: redact_values(item) for key, item in value.items()}
    if isinstance(value, list):
        return [redact_values(item) for item in value]
    return value
