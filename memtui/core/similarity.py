"""Tokens, Jaccard similarity, and a candidate shortlist so dedup never compares with every memory."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import lru_cache

# memory-mcp's list plus the commonest English function words: dedup should turn on content words.
STOP_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "using",
        "with",
        "for",
        "to",
        "in",
        "on",
        "of",
        "and",
        "that",
        "this",
        "it",
        "be",
        "as",
        "at",
        "by",
        "from",
        "or",
        "not",
        "but",
        "have",
        "has",
        "had",
        "do",
        "does",
        "did",
        "will",
        "would",
        "could",
        "should",
        "may",
        "might",
        "can",
        "we",
        "our",
        "they",
        "them",
        "its",
        "use",
        "used",
        "all",
        "each",
        "you",
        "your",
        "i",
        "me",
        "my",
        "he",
        "she",
        "his",
        "her",
        "him",
        "us",
        "what",
        "which",
        "who",
        "whom",
        "when",
        "where",
        "why",
        "how",
        "than",
        "then",
        "there",
        "these",
        "those",
        "into",
        "onto",
        "out",
        "over",
        "under",
        "about",
        "after",
        "before",
        "also",
        "any",
        "both",
        "been",
        "being",
        "just",
        "more",
        "most",
        "much",
        "must",
        "no",
        "nor",
        "only",
        "other",
        "own",
        "same",
        "so",
        "some",
        "such",
        "too",
        "very",
        "via",
        "per",
        "if",
        "else",
        "while",
    ]
)

#: Words that turn a statement round without naming anything: a note that differs from another
#: only in these (`always`/`never`, `do`/`don't`, `before`/`after`) says the opposite of it, so
#: the two are compared without them (one supersedes the other) and never taken for the same.
POLAR_WORDS = frozenset(
    [
        "not",
        "no",
        "never",
        "always",
        "don",
        "dont",
        "doesn",
        "didn",
        "isn",
        "aren",
        "wasn",
        "weren",
        "won",
        "shouldn",
        "mustn",
        "cannot",
        "can't",
        "before",
        "after",
        "instead",
        "only",
        "nor",
        "without",
    ]
)

#: The same for scripts without spaces, as characters: before, after, not, none, un-, not yet.
POLAR_CHARS = frozenset("前後不無非未")

#: Runs of letters and digits in any script (`_` and punctuation split them).
_WORD = re.compile(r"[^\W_]+")
#: Scripts written without spaces between words (Thai, kana, CJK, Hangul): a run of them is a
#: phrase, so overlapping character pairs stand in for its words. Code point ranges, not a regex
#: class: compiling that class costs 3 ms at import, on the prompt hook's path.
_UNSPACED = ((0x0E00, 0x0E7F), (0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF))


def _unspaced(word: str) -> bool:
    return not word.isascii() and any(lo <= ord(c) <= hi for c in word for lo, hi in _UNSPACED)


# A save tokenizes its text for the dedup decision and again for the shortlist it joins: the
# answer is a frozenset, so the second is a look-up.
@lru_cache(maxsize=1024)
def tokenize(text: str) -> frozenset[str]:
    """Lower-cased words of two characters or more in any script, without stop words.

    Paths and identifiers split into their parts (`services/api/models` → services, api, models),
    so two phrasings of the same fact about the same file still overlap. Two-letter words count
    (`uv`, `go`, `ci`, `db`), and so do words in any script: a note in Japanese is not empty. In
    scripts without spaces every pair of adjacent characters is a token.
    """
    out: set[str] = set()
    for word in _WORD.findall(text.lower()):
        if _unspaced(word):
            out.update(word[i : i + 2] for i in range(len(word) - 1)) if len(word) > 1 else out.add(word)
        elif len(word) > 1 and word not in STOP_WORDS:
            out.add(word)
    return frozenset(out)


def same_statement(a: str, b: str) -> bool:
    """True when `b` says `a` again word for word: the same words in the same order, up to case,
    punctuation and articles. Anything else (another order, a negation, a swapped value) may say
    something else, however alike its words: "use tabs, not spaces" is not "use spaces, not tabs"."""

    def words(text: str) -> list[str]:
        found = _WORD.findall(text.lower())
        if any(_unspaced(w) for w in found):
            return ["".join(found)]  # no spaces between words: the characters in order
        return [w for w in found if w not in ("a", "an", "the")]

    return words(a) == words(b)


def jaccard(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    """|A ∩ B| / |A ∪ B|; two empty sets share nothing (0), so a note with no words is never
    anybody's duplicate (`decide` compares such notes by their text instead)."""
    inter = len(a & b)
    union = len(a) + len(b) - inter
    return inter / union if union else 0.0


#: Pieces of text that name one particular thing: numbers and versions, paths, identifiers,
#: flags, code in backticks, ALL-CAPS names and single capital letters ("service A").
_PIECE = re.compile(r"`[^`]+`|\S+")
_EDGES = "\"'()[]{}<>,;:!?.…“”‘’"
#: Two capitals before a lower-case letter, not `{2,}`: the same test, without rescanning a run of
#: capitals from every position in it (quadratic).
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z][A-Z][a-z]")


def _pieces(text: str) -> list[str]:
    """Every whitespace-separated piece (or backticked span), stripped of punctuation."""
    return [p for p in (raw.strip(_EDGES) for raw in _PIECE.findall(text)) if p]


def _specific(piece: str) -> bool:
    if piece.startswith("`") or any(c.isdigit() for c in piece):
        return True
    if any(c in piece for c in "/_.:") or (piece.startswith("-") and len(piece) > 1):
        return True  # a path, an identifier, a domain, a flag
    if _CAMEL.search(piece) or (piece.isupper() and piece.isalpha()):
        return True  # InvoiceService, MAX, "service A"
    # A capitalised word is a name (Alice, Stripe, Postgres); at a sentence start it may be any
    # word, which costs little: only a name on each side, unmentioned by the other, separates.
    return piece[:1].isupper() and piece.lower() not in STOP_WORDS and piece.lower() not in POLAR_WORDS


def specifics(text: str) -> frozenset[str]:
    """What in `text` names one particular thing (numbers, versions, paths, identifiers, names)."""
    return frozenset(p.strip("`").lower() for p in _pieces(text) if _specific(p))


def _mentions(text: str) -> frozenset[str]:
    """Every piece and every word of `text`, lower-cased: what "also says" can be checked against."""
    lowered = text.lower()
    return frozenset({p.strip("`").lower() for p in _pieces(text)} | set(_WORD.findall(lowered)))


def _stems(text: str) -> list[str] | None:
    """The content words in order, cut to five letters (a crude stem: `clashing` and `clashes`
    agree); None for text in a script without spaces, where a word run is a whole phrase."""
    words = [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and w not in POLAR_WORDS]
    if any(_unspaced(w) for w in words):
        return None
    return [w[:5] for w in words]


#: The slot test compares one sentence with another; texts longer than this many words (or
#: characters, in a script without spaces) are not one sentence, and are not compared word by word.
TEMPLATE_WORDS = 200


def different_things(a: str, b: str) -> bool:
    """True when the two texts are about different things, however many words they share:

    * each names something the other does not mention at all: `port 8001` and `port 8002`,
      `service A` and `service B`, `docs/de` and `docs/ja` (one that only adds a detail to the
      other is the same fact, told better);
    * or they are one sentence with a slot filled differently: "the billing service runs in the
      EU" and "the frontend service runs in the EU". A rephrasing moves, adds and drops words;
      a template swaps one or two words in place and keeps the rest, in order.
    """
    only_a = specifics(a) - _mentions(b)
    if only_a and specifics(b) - _mentions(a):
        return True
    import difflib

    left, right = _stems(a), _stems(b)
    span, total = 2, 2  # words
    if left is None or right is None:
        # A script without spaces has no words to swap: the slot is a run of characters, and a
        # word there is one to four of them (金曜日 / 月曜日 differ in one).
        left, right = list("".join(_WORD.findall(a.lower()))), list("".join(_WORD.findall(b.lower())))
        span, total = 3, 4
    if max(len(left), len(right)) > TEMPLATE_WORDS:
        return False  # not one sentence (and difflib's matching is quadratic in the words)
    ops = [op for op in difflib.SequenceMatcher(a=left, b=right, autojunk=False).get_opcodes() if op[0] != "equal"]
    # Values swapped between two slots ("primary is db-east, replica db-west" and the other way
    # round) fill no slot with anything new: that is one statement reversed, not two things.
    if span == 3 and all(c in POLAR_CHARS for _, i1, i2, j1, j2 in ops for c in (*left[i1:i2], *right[j1:j2])):
        return False  # 前 / 後: the statement turned round, as with `before` / `after`
    swapped = sorted(w for _, i1, i2, _, _ in ops for w in left[i1:i2]) == sorted(
        w for _, _, _, j1, j2 in ops for w in right[j1:j2]
    )
    return (
        bool(ops)
        and not swapped
        and all(tag == "replace" and i2 - i1 <= span and j2 - j1 <= span for tag, i1, i2, j1, j2 in ops)
        and sum(i2 - i1 for _, i1, i2, _, _ in ops) <= total
    )


class Shortlist:
    """An inverted index over token sets that returns every id whose Jaccard with a query can exceed a threshold.

    Prefix filtering: if J(A, B) > t then |A ∩ B| > t·|A|, so B must contain one of the first
    |A| − ⌈t·|A|⌉ + 1 tokens of A under any fixed order. Taking A's rarest tokens first keeps the
    posting lists read short. The result is exact: no candidate above the threshold is missed.
    """

    def __init__(self) -> None:
        self._postings: dict[str, set[str]] = {}
        self._tokens: dict[str, frozenset[str]] = {}

    def __len__(self) -> int:
        return len(self._tokens)

    def add(self, key: str, tokens: frozenset[str]) -> None:
        self.remove(key)
        self._tokens[key] = tokens
        for tok in tokens:
            self._postings.setdefault(tok, set()).add(key)

    def remove(self, key: str) -> None:
        old = self._tokens.pop(key, None)
        if old is None:
            return
        for tok in old:
            posting = self._postings.get(tok)
            if posting is not None:
                posting.discard(key)
                if not posting:
                    del self._postings[tok]

    def tokens(self, key: str) -> frozenset[str] | None:
        return self._tokens.get(key)

    def candidates(self, query: frozenset[str], threshold: float) -> set[str]:
        if not query:
            return {k for k, toks in self._tokens.items() if not toks}
        need = max(1, math.ceil(threshold * len(query) + 1e-9))
        prefix_len = max(1, len(query) - need + 1)
        ordered = sorted(query, key=lambda t: (len(self._postings.get(t, ())), t))
        found: set[str] = set()
        for tok in ordered[:prefix_len]:
            found |= self._postings.get(tok, set())
        return found

    def best(
        self, query: frozenset[str], threshold: float, keys: Iterable[str] | None = None
    ) -> tuple[str, float] | None:
        """The key with the highest Jaccard strictly above `threshold` (ties: the first in sorted order)."""
        pool = self.candidates(query, threshold) if keys is None else set(keys)
        best: tuple[str, float] | None = None
        for key in sorted(pool):
            score = jaccard(query, self._tokens.get(key, frozenset()))
            if score > threshold and (best is None or score > best[1]):
                best = (key, score)
        return best
