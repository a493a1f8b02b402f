"""Secret redaction, applied before anything reaches disk or a prompt.

`<private>…</private>` comes first: what a user wraps so is removed outright (not marked), so it
is never captured, sent to a model or stored. An unclosed `<private>` hides everything after it.

Patterns match the published shapes of each provider's keys. `KEY=value` assignments are
redacted only when the name looks secret *and* the value looks like a literal (not a call, a
variable reference or a placeholder), so ordinary code survives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


def marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("private-key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", re.DOTALL)),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("slack-webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/]+")),
    ("stripe-key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|\bwhsec_[A-Za-z0-9]{16,}")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("bearer-token", re.compile(r"(?<=\bBearer )[A-Za-z0-9._~+/-]{20,}=*")),
)

# user:password@ in URLs (the user may be empty, as in redis://:pw@host); the user name stays, the password goes.
_URL_PASSWORD = re.compile(r"(?P<pre>\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]*:)(?P<secret>[^\s@/]+)(?P<post>@)")

_SECRET_NAME = (
    r"(?:[A-Za-z0-9]+[_-])*"
    r"(?:SECRET|PASSWORD|PASSWD|PWD|TOKEN|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CLIENT[_-]?SECRET|"
    r"AUTH[_-]?TOKEN|SECRET[_-]?KEY|CREDENTIALS?)"
)
_ASSIGNMENT = re.compile(
    r"(?P<name>\b" + _SECRET_NAME + r")(?P<sep>\"?\s*[:=]\s*)(?P<quote>[\"']?)(?P<value>[^\s\"'`,;]{8,})(?P=quote)",
    re.IGNORECASE,
)
# Values that are code or placeholders, not secrets.
_NOT_A_LITERAL = re.compile(r"[()\[\]{}$<>]|^(?:os\.|process\.|env\.|settings\.|config\.|self\.|None$|null$|true$|false$)|^\*+$|^x{6,}$|REDACTED", re.IGNORECASE)
# Identifiers (`input_password`, `authToken`, `SecretStr`, `GITHUB_TOKEN`) and paths (`PWD=/home/me`):
# a value made of letters joined by `_` or case changes, without digits, names something rather than being it.
_IDENTIFIER = re.compile(r"^(?:[A-Za-z]+(?:_[A-Za-z]+)+|[a-z]+(?:[A-Z][a-z]+)+|[A-Z][a-z]+(?:[A-Z][a-z]+)+)$|^~?\.{0,2}/")


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


def scan(text: str) -> Redaction:
    kinds: list[str] = []
    without = strip_private(text)
    if without != text:
        kinds.append("private")
        text = without

    def sub(kind: str):
        def repl(_: re.Match[str]) -> str:
            kinds.append(kind)
            return marker(kind)

        return repl

    for kind, pattern in _PATTERNS:
        text = pattern.sub(sub(kind), text)

    def url(match: re.Match[str]) -> str:
        if match.group("secret").startswith("[REDACTED"):
            return match.group(0)
        kinds.append("url-password")
        return match.group("pre") + marker("password") + match.group("post")

    text = _URL_PASSWORD.sub(url, text)

    def assignment(match: re.Match[str]) -> str:
        value = match.group("value")
        if _NOT_A_LITERAL.search(value) or _IDENTIFIER.search(value) or value.isdigit() or "." in value and value.replace(".", "").isalpha():
            return match.group(0)
        kinds.append("secret-assignment")
        q = match.group("quote")
        return f"{match.group('name')}{match.group('sep')}{q}{marker('secret')}{q}"

    text = _ASSIGNMENT.sub(assignment, text)
    return Redaction(text, tuple(kinds))


def redact(text: str) -> str:
    return scan(text).text
