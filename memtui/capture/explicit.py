""" "Remember that …" in a prompt becomes a memory without any model (no key, no network, no delay).

Recognised: `remember that X`, `remember: X`, `remember to X`, `#remember X` (and `please/also/and
remember …`). Not recognised: questions and recollections ("do you remember…", "I remember…",
"remember when…"). The text runs to the end of its sentence. A first-person subject is rewritten
for the reader of CLAUDE.md ("I prefer uv" → "User prefers uv"), and keywords pick the type.

Imports only the standard library: the UserPromptSubmit hook calls this on its fast path.
"""

from __future__ import annotations

import re

_TRIGGER = re.compile(
    r"(?:^|(?<=[\s.!?;:,(]))(?:#remember\b\s*:?\s*|remember\s*:\s*|remember\s+(?:that\s+|to\s+))",
    re.IGNORECASE,
)
#: Words that, right before "remember", make it a question or a recollection, not a request.
_NOT_A_REQUEST = {
    "you",
    "i",
    "we",
    "they",
    "he",
    "she",
    "don't",
    "dont",
    "not",
    "can't",
    "cant",
    "cannot",
    "couldn't",
    "didn't",
    "do",
    "did",
    "does",
    "to",
    "i'll",
    "will",
    "would",
    "if",
    "who",
    "what",
}
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n")
#: A person asks to remember a few things in one prompt. Each trigger reads the text before it and
#: its sentence, so a pasted wall of "remember that remember that …" would cost the square of its
#: length; past this many triggers the rest are not read.
MAX_TRIGGERS = 16

#: Leading subject → how CLAUDE.md should say it; the verb after it is conjugated to match.
_SUBJECT = re.compile(r"^(I|we)\s+(?:(always|never|usually|often|mostly|really|also)\s+)?([\w']+)", re.I)
_CONTRACTED = (
    (re.compile(r"^I'm\b", re.I), "User is"),
    (re.compile(r"^I've\b", re.I), "User has"),
    (re.compile(r"^we're\b", re.I), "The team is"),
    (re.compile(r"^we've\b", re.I), "The team has"),
    (re.compile(r"^my\b", re.I), "User's"),
    (re.compile(r"^our\b", re.I), "The team's"),
)
_IRREGULAR = {
    "am": "is",
    "are": "is",
    "do": "does",
    "have": "has",
    "go": "goes",
    "can": "can",
    "will": "will",
    "should": "should",
    "must": "must",
    "may": "may",
    "don't": "doesn't",
    "can't": "can't",
    "won't": "won't",
    "was": "was",
    "were": "was",
    "need": "needs",
}

# Ordered: the first matching rule wins.
_TYPE_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "gotcha",
        re.compile(
            r"\b(gotcha|careful|beware|watch out|pitfall|breaks?|broken|flaky|fails?|crash\w*|bug|workaround|otherwise)\b",
            re.I,
        ),
    ),
    (
        "decision",
        re.compile(r"\b(decided|decision|we chose|chose|going with|instead of|rather than|trade-?off)\b", re.I),
    ),
    (
        "reference",
        re.compile(
            r"https?://|\b(dashboard|runbook|ticket|jira|linear|wiki|confluence|slack channel|docs? (?:are|is|live) (?:at|in))\b",
            re.I,
        ),
    ),
    (
        "project",
        re.compile(
            r"\b(deadline|due|release|freeze|sprint|milestone|launch|by (?:mon|tue|wed|thu|fri|sat|sun)\w*)\b", re.I
        ),
    ),
    ("user", re.compile(r"^(User is|User has|User's)\b", re.I)),
    (
        "pattern",
        re.compile(
            r"^The team (?:always |never )?(?:uses|prefers)\b|\b(convention|naming|named|style|format(?:ted)?|prefix|suffix|folder structure)\b",
            re.I,
        ),
    ),
    (
        "architecture",
        re.compile(
            r"\b(architecture|service|module|component|database|db|schema|lives in|stack|built with|api)\b", re.I
        ),
    ),
    (
        "feedback",
        re.compile(
            r"\b(prefers?|likes?|wants?|always|never|don't|do not|avoid|uses?|make sure|should|must|please)\b", re.I
        ),
    ),
)
DEFAULT_TYPE = "context"


def classify(text: str) -> str:
    for type_, pattern in _TYPE_RULES:
        if pattern.search(text):
            return type_
    # A statement about the person with no stronger signal is about who they are.
    return "user" if text.startswith("User ") else DEFAULT_TYPE


_PAST = {
    "chose",
    "went",
    "made",
    "broke",
    "found",
    "saw",
    "got",
    "had",
    "did",
    "said",
    "took",
    "wrote",
    "built",
    "ran",
    "set",
    "put",
    "let",
    "knew",
    "thought",
    "left",
    "began",
    "brought",
    "bought",
    "kept",
    "lost",
    "meant",
}


def _conjugate(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if (
        low.endswith("ed") or low in _PAST or "'" in low
    ):  # past tense and contractions read the same in the third person
        return verb
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and low[-2:-1] not in tuple("aeiou"):
        return verb[:-1] + "ies"
    return verb + "s"


def _third_person(text: str) -> str:
    for pattern, replacement in _CONTRACTED:
        match = pattern.match(text)
        if match:
            return replacement + text[match.end() :]
    match = _SUBJECT.match(text)
    if not match:
        return text
    subject = "User" if match.group(1).lower() == "i" else "The team"
    adverb = f"{match.group(2)} " if match.group(2) else ""
    return f"{subject} {adverb}{_conjugate(match.group(3))}{text[match.end() :]}"


def _request(prompt: str, start: int, keyword_at: int) -> bool:
    before = prompt[:keyword_at].rstrip().rsplit(None, 1)
    previous = before[-1].lower().strip("\"'([") if before else ""
    return previous not in _NOT_A_REQUEST


def explicit_memories(prompt: str) -> list[tuple[str, str]]:
    """`[(type, text)]` for every "remember …" request in a prompt; `[]` when there is none."""
    if not prompt or "remember" not in prompt.lower() or prompt.lstrip().startswith("<task-notification>"):
        return []
    from memtui.core.redact import strip_private

    prompt = strip_private(prompt)  # before sentences are cut, so a private span never half-survives
    found: list[tuple[str, str]] = []
    for seen, match in enumerate(_TRIGGER.finditer(prompt)):
        if seen == MAX_TRIGGERS:
            break
        keyword = match.group(0).lower().lstrip("#")
        if not keyword.startswith("remember") or not _request(prompt, match.start(), match.start()):
            continue
        end = _SENTENCE_END.search(prompt, match.end())
        text = _unquote(prompt[match.end() : end.start() if end else len(prompt)].strip())
        text = text.rstrip(" ,;:")
        if len(text) < 3 or text.endswith("?"):
            continue
        if keyword.rstrip().endswith(" to") or re.match(r"remember\s+to\b", keyword):
            text = text[0].upper() + text[1:]  # "remember to run X" → the instruction "Run X"
            type_ = "feedback"
        else:
            text = _third_person(text)
            text = text[0].upper() + text[1:]
            type_ = classify(text)
        if text[-1] not in ".!":
            text += "."
        if all(text != existing for _, existing in found):
            found.append((type_, text))
    return found


def _unquote(text: str) -> str:
    """Drop quotes that wrap the whole text; keep quotes and backticks that belong to it (`make ship`)."""
    while len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`" and text.count(text[0]) == 2:
        text = text[1:-1].strip()
    return text
