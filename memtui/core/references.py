"""What a memory says about the code that can be checked against the working tree.

    refs = extract("Webhooks go through `handle_webhook` in src/billing/stripe.py; run `make ship`.")
    # path src/billing/stripe.py, symbol handle_webhook, command make ship

Precision over recall: a word that merely looks like code is not a reference. Inside backticks
the text is code, so any identifier, dotted name, path, flag or command is taken. Outside them
only shapes prose does not use are: paths with a slash and a file extension (or a trailing slash),
bare file names with a code extension, `snake_case` and `Class.method` names, calls `name()`,
`ALL_CAPS_WITH_UNDERSCORES`, `--flags` and `make target` / `npm run script` commands. A
CamelCase word in prose (`InvoiceService`, but also `GitHub`) is *weak*: the checker counts it
only when the tree defines, or once defined, that name.

Pure: no I/O. The checker (`memtui.verify`) decides which references resolve.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

PATH = "path"
SYMBOL = "symbol"
COMMAND = "command"
FLAG = "flag"
KINDS = (PATH, SYMBOL, COMMAND, FLAG)

#: File extensions that make a bare `name.ext` a file reference (code, config, docs the repo holds).
CODE_EXTENSIONS = frozenset(
    [
        "py",
        "pyi",
        "pyx",
        "ipynb",
        "js",
        "jsx",
        "mjs",
        "cjs",
        "ts",
        "tsx",
        "vue",
        "svelte",
        "go",
        "rs",
        "java",
        "kt",
        "kts",
        "scala",
        "rb",
        "php",
        "cs",
        "fs",
        "swift",
        "m",
        "mm",
        "c",
        "h",
        "cc",
        "cpp",
        "cxx",
        "hpp",
        "hh",
        "ex",
        "exs",
        "erl",
        "hs",
        "ml",
        "lua",
        "pl",
        "sh",
        "bash",
        "zsh",
        "fish",
        "ps1",
        "sql",
        "graphql",
        "proto",
        "toml",
        "yaml",
        "yml",
        "json",
        "jsonc",
        "ini",
        "cfg",
        "conf",
        "env",
        "lock",
        "mk",
        "cmake",
        "gradle",
        "tf",
        "hcl",
        "dockerfile",
        "md",
        "rst",
        "txt",
        "csv",
        "html",
        "htm",
        "css",
        "scss",
        "sass",
        "less",
        "xml",
        "svg",
    ]
)
#: Product names that look like files (`Node.js`): never references.
_PRODUCT_FILES = frozenset(
    [
        "node.js",
        "vue.js",
        "next.js",
        "nuxt.js",
        "three.js",
        "d3.js",
        "chart.js",
        "express.js",
        "ember.js",
        "backbone.js",
        "react.js",
        "angular.js",
        "socket.io",
        "deno.js",
        "bun.js",
        "alpine.js",
    ]
)
#: Words prose puts around a slash (`and/or`, `I/O`): a slash path needs more than this.
_SLASH_PROSE = re.compile(r"^[A-Za-z]{1,12}/[A-Za-z]{1,12}$")
_KEYWORDS = frozenset(
    [
        "if",
        "else",
        "elif",
        "for",
        "while",
        "return",
        "def",
        "class",
        "import",
        "from",
        "as",
        "with",
        "try",
        "except",
        "finally",
        "raise",
        "yield",
        "lambda",
        "pass",
        "break",
        "continue",
        "and",
        "or",
        "not",
        "in",
        "is",
        "none",
        "true",
        "false",
        "null",
        "self",
        "this",
        "super",
        "new",
        "let",
        "const",
        "var",
        "function",
        "async",
        "await",
        "fn",
        "pub",
        "mut",
        "impl",
        "struct",
        "enum",
        "trait",
        "type",
        "interface",
        "package",
        "func",
        "go",
        "defer",
        "static",
        "public",
        "private",
        "protected",
        "void",
        "int",
        "str",
        "float",
        "bool",
        "string",
        "print",
        "len",
        "range",
        "list",
        "dict",
        "set",
        "echo",
        "export",
        "local",
        "then",
        "fi",
        "do",
        "done",
        "case",
        "esac",
    ]
)
#: Shells and runners whose next word is a script or target the repository defines.
_RUNNERS = {"make": 1, "just": 1, "npm run": 1, "yarn run": 1, "pnpm run": 1, "bun run": 1, "yarn": 1, "pnpm": 1}
#: `make it work`, `just a note`: English after a runner's name, in prose.
_NOT_TARGETS = frozenset(
    [
        "it",
        "sure",
        "sense",
        "the",
        "a",
        "an",
        "this",
        "that",
        "them",
        "us",
        "use",
        "up",
        "out",
        "of",
        "for",
        "to",
        "do",
        "so",
        "one",
        "way",
        "room",
        "time",
        "changes",
        "progress",
        "things",
        "everything",
        "something",
        "any",
        "all",
        "some",
        "more",
        "less",
        "no",
        "not",
        "our",
        "your",
        "my",
        "its",
        "their",
    ]
)
_YARN_BUILTINS = frozenset(
    ["add", "install", "remove", "upgrade", "init", "why", "info", "list", "link", "dlx", "exec", "create"]
)

_SPAN = re.compile(r"`([^`\n]{1,200})`")
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_PATHLIKE = re.compile(
    r"(?<![\w/.~:@$-])((?:\.{0,2}/)?(?:[\w@.+-]+/)+[\w@.+-]*|[\w+-]+(?:\.[\w+-]+)*\.[A-Za-z][\w]{0,9})(?![\w/])"
)
_DOTTED = re.compile(rf"(?<![\w.$/-])({_IDENT}(?:\.{_IDENT})+)(\(\))?(?![\w/])")
_CALL = re.compile(rf"(?<![\w.$/-])({_IDENT})\(\)")
_SNAKE = re.compile(r"(?<![\w.$/-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w/(])")
_CONST = re.compile(r"(?<![\w.$/-])\$?\{?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\}?(?![\w/])")
_CAMEL = re.compile(r"(?<![\w.$/-])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+)(?![\w/(])")
_FLAG = re.compile(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*[a-z0-9])(?![\w-])")
_COMMAND = re.compile(r"\b(make|just|(?:npm|yarn|pnpm|bun) run|yarn|pnpm)\s+([a-z][\w:.-]*)", re.IGNORECASE)
_RUNNER_WORDS = ("make ", "just ", " run ", "yarn ", "pnpm ")
_DOT_WORD = re.compile(r"\w\.[A-Za-z_]")
_CASE_CHANGE = re.compile(r"[a-z][A-Z]")
# Each alternative starts only where its run starts (the lookbehinds), so no run is rescanned from
# every position in it: `\S+@` and `\b[a-z][a-z0-9+.-]*` were quadratic on a long word or `a.a.a…`.
_URL = re.compile(r"(?<![\w+.-])[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+|(?<![^\s@])[^\s@]+@[^\s@]+\.\w+", re.IGNORECASE)
_VERSION = re.compile(r"^v?\d+(?:\.\d+)+\w*$")


@dataclass(frozen=True, slots=True)
class Reference:
    """One thing a memory names: `kind` is path, symbol, command or flag; `value` as written
    (a symbol may be dotted: `InvoiceService.finalize`); `strong` is False for a CamelCase word
    in prose, which counts only where the tree defines (or once defined) that name."""

    kind: str
    value: str
    strong: bool = True

    def __str__(self) -> str:
        return self.value


def extract(*texts: str) -> tuple[Reference, ...]:
    """The references in a memory's texts (name, description, content), each once, in order."""
    found: dict[tuple[str, str], Reference] = {}

    def add(ref: Reference | None) -> None:
        if ref is None:
            return
        key = (ref.kind, ref.value)
        old = found.get(key)
        if old is None or (ref.strong and not old.strong):
            found[key] = ref

    for text in texts:
        if not text:
            continue
        text = _URL.sub(" ", text)
        for span in _SPAN.findall(text):
            for ref in _in_code(span):
                add(ref)
        for ref in _in_prose(_SPAN.sub(" ", text)):
            add(ref)
    return tuple(found.values())


def _in_code(span: str) -> Iterable[Reference]:
    """Everything inside one backtick span: the writer marked it as code."""
    span = span.strip()
    command = _command(span)
    if command is not None:
        yield command
        return
    words = span.split()
    for flag in _FLAG.findall(span):
        yield Reference(FLAG, flag)
    if len(words) == 1:
        word = words[0].rstrip(",;:")
        word = re.sub(r"\(.*\)$", "", word)  # `fn(x, y)` → fn
        path = _path(word, in_code=True)
        if path is not None:
            yield path
            return
        symbol = _symbol(word.lstrip("$").strip("{}"))
        if symbol is not None:
            yield symbol
        return
    # A longer snippet (a command line, a call with arguments): take the paths and dotted or
    # called names in it, not every word (`git push origin main` names nothing of ours).
    for ref in _in_prose(span, code=True):
        if ref.kind != FLAG:
            yield ref


def _in_prose(text: str, *, code: bool = False) -> Iterable[Reference]:
    # Each pattern runs only where its shape can occur: most memories are prose, and a cheap
    # substring test saves the regex scan (extraction runs over every memory on a full verify).
    lower = text.lower()
    if any(runner in lower for runner in _RUNNER_WORDS):
        for match in _COMMAND.finditer(text):
            ref = _command(match.group(0))
            if ref is not None:
                yield ref
    # The characters a reference already took: a later pattern's match inside them is part of it.
    # A mark per character, not a list of spans searched per match (quadratic on `a() a() a()…`).
    taken = bytearray(len(text))

    def take(m: re.Match[str]) -> None:
        start, end = m.span(1)
        taken[start:end] = b"\x01" * (end - start)

    def free(m: re.Match[str]) -> bool:
        start, end = m.span(1)
        return taken.find(0, start, end) >= 0

    dotted = _DOT_WORD.search(text) is not None
    if "/" in text or dotted:
        for match in _PATHLIKE.finditer(text):
            ref = _path(match.group(1), in_code=code)
            if ref is not None:
                take(match)
                yield ref

    if dotted:
        for match in _DOTTED.finditer(text):
            if free(match):
                ref = _dotted(match.group(1), called=bool(match.group(2)), code=code)
                if ref is not None:
                    take(match)
                    yield ref
    patterns = ([_CALL] if "()" in text else []) + ([_SNAKE, _CONST] if "_" in text else [])
    for pattern in patterns:
        for match in pattern.finditer(text):
            if free(match) and match.group(1).lower() not in _KEYWORDS:
                take(match)
                yield Reference(SYMBOL, match.group(1))
    if _CASE_CHANGE.search(text) is not None:
        for match in _CAMEL.finditer(text):
            if free(match):
                yield Reference(SYMBOL, match.group(1), strong=code)
    if not code and "--" in text:
        for flag in _FLAG.findall(text):
            yield Reference(FLAG, flag)


def _command(text: str) -> Reference | None:
    match = _COMMAND.match(text.strip())
    if match is None:
        return None
    runner = " ".join(match.group(1).lower().split())
    target = match.group(2).rstrip(".,;:")
    if runner in ("yarn", "pnpm") and target in _YARN_BUILTINS:
        return None
    if not target or target.startswith("-") or runner not in _RUNNERS or target.lower() in _NOT_TARGETS:
        return None
    return Reference(COMMAND, f"{runner} {target}")


def _path(word: str, *, in_code: bool) -> Reference | None:
    word = word.strip("'\"()[]{}<>,;:")
    word = word.rstrip(".")
    if not word or word.startswith(("/", "~", "http", "$")) or "//" in word or "\\" in word:
        return None  # absolute, home-relative or remote: not part of the repository
    if word.startswith("./"):
        word = word[2:]
    if word.startswith("../") or _VERSION.match(word) or word.lower() in _PRODUCT_FILES:
        return None
    last = word.rstrip("/").rsplit("/", 1)[-1]
    ext = last.rsplit(".", 1)[-1].lower() if "." in last.strip(".") else ""
    if "/" in word:
        if _SLASH_PROSE.match(word) and not in_code:
            return None
        parts = [p for p in word.split("/") if p]
        if not parts or any(p in (".", "..") for p in parts):
            return None
        shaped = ext in CODE_EXTENSIONS or word.endswith("/") or len(parts) >= 3 or in_code
        if shaped and all(re.fullmatch(r"[\w@.+-]+", p) for p in parts) and not all(p.isdigit() for p in parts):
            return Reference(PATH, word)
        return None
    if ext in CODE_EXTENSIONS and re.fullmatch(r"[\w.+-]+", word) and len(last) > len(ext) + 1:
        stem = last[: -len(ext) - 1]
        if stem and not stem.isdigit() and (in_code or not _VERSION.match(stem)):
            return Reference(PATH, word)
    return None


def _symbol(word: str) -> Reference | None:
    if re.fullmatch(_IDENT, word):
        if word.lower() in _KEYWORDS or len(word) < 3:
            return None
        return Reference(SYMBOL, word)
    if re.fullmatch(rf"{_IDENT}(?:\.{_IDENT})+", word):
        return _dotted(word, called=False, code=True)
    if re.fullmatch(r"--?[a-z0-9][a-z0-9-]*", word) and word.startswith("--"):
        return Reference(FLAG, word)
    return None


def _dotted(name: str, *, called: bool, code: bool) -> Reference | None:
    parts = name.split(".")
    while parts and parts[0] in ("self", "this", "cls"):
        parts = parts[1:]
    if not parts:
        return None
    if len(parts) == 1:
        return _symbol(parts[0]) if (code or called or "_" in parts[0]) else None
    last = parts[-1].lower()
    if not code and not called:
        # Prose: `e.g`, `example.com`, `config.toml` and sentence ends are not code; a file name
        # is a path (taken above); a dotted name needs a code shape somewhere in it.
        if last in CODE_EXTENSIONS or len(parts[0]) < 2:
            return None
        shaped = any("_" in p or (p[:1].isupper() and any(c.islower() for c in p)) for p in parts)
        if not shaped:
            return None
    elif last in CODE_EXTENSIONS and not called:
        return None
    return Reference(SYMBOL, ".".join(parts))


def note(missing: Iterable[Reference | str], suggested: dict[str, str]) -> str:
    """One line for the model and for people: what is gone, and the likely new names.

    `mentions src/billing/invoice.py, which no longer exists (now src/billing/invoices.py?)`"""
    items = []
    for ref in missing:
        value = str(ref)
        new = suggested.get(value)
        items.append(f"{value} (now {new}?)" if new else value)
    if not items:
        return ""
    if len(items) == 1:
        return f"mentions {items[0]}, which no longer exists in the code"
    return f"mentions {', '.join(items[:-1])} and {items[-1]}, which no longer exist in the code"
