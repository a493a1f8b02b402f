"""From whatever the user typed to an FTS5 expression that cannot fail to parse.

Only runs of letters and digits reach FTS5, each one double-quoted, so quotes, `*`, `:`, `-`,
`NEAR`, `AND`, parentheses, emoji and 10 KB pastes are all just text. The words are OR-ed (BM25
ranks documents that match more of them higher); words of one compound token — a path
`src/lib/stripe.ts`, an identifier `handle_webhook` or `HTTPServer` — also go in as a phrase, so
the memory that names exactly that thing outranks ones that merely share a part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from memtui.core.similarity import STOP_WORDS
from memtui.index.rows import MAX_IDENT, split_identifier

# The usual English function words (NLTK's list) and the filler prompts are full of: a memory
# that matches only these is not relevant, and they would lift it over the recall threshold.
EXTRA_STOP = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "ok",
        "okay",
        "hi",
        "hey",
        "yes",
        "yeah",
        "please",
        "thanks",
        "thank",
        "also",
        "still",
        "really",
        "actually",
        "maybe",
        "anything",
        "something",
        "thing",
        "things",
        "got",
        "get",
        "gets",
        "getting",
        "want",
        "wants",
        "wanted",
        "need",
        "needs",
        "let",
        "lets",
        "know",
        "think",
        "see",
        "look",
        "tell",
        "say",
        "said",
        "make",
        "way",
        "like",
        "one",
        "going",
        "try",
        "tried",
        "trying",
        "whats",
        "hows",
        "whos",
    ]
)
STOP = STOP_WORDS | EXTRA_STOP

#: A long paste adds little past this many distinct words, and costs posting-list reads.
MAX_WORDS = 64
#: Longer "words" are pasted blobs (base64, minified code, a run of one letter), not words anyone
#: wrote in a memory: kept as query terms they only lower the share of the prompt that matched.
MAX_WORD_CHARS = 40
PREFIX_MAX_WORDS = 3
_WORD = re.compile(r"[^\W_]+")
_CHUNK = re.compile(r"\S+")


@dataclass(frozen=True)
class Query:
    text: str
    #: Distinct lower-case content words, in the order typed.
    words: tuple[str, ...]
    #: Compound tokens as word sequences (`src/lib/stripe.ts` → src lib stripe ts).
    phrases: tuple[tuple[str, ...], ...] = ()
    #: Typo corrections found in the index vocabulary: typed word → indexed terms.
    corrections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Match the last word as a prefix (someone is still typing it).
    prefix_last: bool = False

    @property
    def empty(self) -> bool:
        return not self.words

    def expression(self) -> str:
        """The FTS5 MATCH expression: every word, phrase and correction OR-ed, each quoted."""
        parts: list[str] = []
        for i, word in enumerate(self.words):
            parts.append(f'"{word}"')
            if self.prefix_last and i == len(self.words) - 1 and len(word) >= 3:
                parts.append(f'"{word}"*')
        parts += ('"' + " ".join(p) + '"' for p in self.phrases)
        for terms in self.corrections.values():
            parts += (f'"{t}"*' for t in terms)
        return " OR ".join(dict.fromkeys(parts))

    def with_words(self, more: tuple[str, ...]) -> Query:
        """The same query with more words OR-ed in (the conversation's; not typed, never a prefix)."""
        words = tuple(dict.fromkeys((*self.words, *more)))
        return Query(self.text, words, self.phrases, self.corrections, False)

    def with_corrections(self, corrections: dict[str, tuple[str, ...]]) -> Query:
        return Query(self.text, self.words, self.phrases, corrections, self.prefix_last)


def _keep(word: str) -> bool:
    return (len(word) > 1 or word.isdigit()) and len(word) <= MAX_WORD_CHARS and word not in STOP


def parse(text: str, *, prefix_last: bool = False) -> Query:
    words: dict[str, None] = {}
    phrases: dict[tuple[str, ...], None] = {}
    for chunk in _CHUNK.findall(text):
        pieces: list[str] = []
        for part in _WORD.findall(chunk):
            mixed = not (part.islower() or part.isupper()) and len(part) <= MAX_IDENT
            sub = split_identifier(part) if mixed else []
            if len(sub) > 1 and all(s.isascii() for s in sub):
                pieces += (s.lower() for s in sub)
                if _keep(part.lower()):
                    words.setdefault(part.lower(), None)
            else:
                pieces.append(part.lower())
        for piece in pieces:
            if _keep(piece):
                words.setdefault(piece, None)
        if 1 < len(pieces) <= 8 and sum(map(_keep, pieces)) >= 2:
            phrases.setdefault(tuple(pieces), None)
        if len(words) >= MAX_WORDS:
            break
    kept = tuple(list(words)[:MAX_WORDS])
    # Someone typing into a filter: the last word may be unfinished. A prompt ends in punctuation
    # or is longer, and prefix matching its last word only adds noise (measured on the dev data).
    typing = bool(text) and text[-1].isalnum() and 0 < len(kept) <= PREFIX_MAX_WORDS
    return Query(text, kept, tuple(list(phrases)[:16]), {}, prefix_last and typing)
