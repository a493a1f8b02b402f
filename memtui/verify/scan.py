"""One file of the working tree, read for what a memory can name: definitions and words.

A fast line-anchored regex scan per language, not a parser: it runs over thousands of files on
every full verify, and a missed definition only weakens a check (the word is still seen), while a
parser per language would be a dependency per language. Definitions are read for Python,
JavaScript/TypeScript, Go, Rust, Java/Kotlin, Ruby and shell; scripts and targets from Makefiles,
justfiles, package.json and pyproject.toml; keys from YAML, TOML, JSON, INI and .env files.
Every other text file contributes its words only (the weaker signal).

Tokens carry a prefix where a bare word would mislead: `make:ship`, `script:build`, `just:deploy`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# No look-behind, so the engine can search for the literal `--` (25× faster over a large tree).
FLAG = re.compile(r"--[a-z0-9][a-z0-9-]*[a-z0-9]")
_WORD_BYTES = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_FLAG_BYTES = re.compile(rb"--[a-z0-9][a-z0-9-]*[a-z0-9]")

_PY = re.compile(
    r"^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)"
    r"|^(\w+)[ \t]*(?::[^=\n]*)?=(?!=)"
    r"|^[ \t]+([A-Z][A-Z0-9_]+)[ \t]*(?::[^=\n]*)?=(?!=)",
    re.M,
)
_JS = re.compile(
    r"\bfunction\b[ \t]*\*?[ \t]*(\w+)"
    r"|\b(?:class|interface|enum|type|namespace)[ \t]+(\w+)"
    r"|\b(?:const|let|var)[ \t]+(\w+)"
    r"|^[ \t]+(?:(?:public|private|protected|static|async|readonly|get|set|override)[ \t]+)*(\w+)[ \t]*\([^)\n]*\)[ \t]*(?::[^{\n]*)?\{",
    re.M,
)
_GO = re.compile(
    r"^func[ \t]+(?:\([^)]*\)[ \t]*)?(\w+)|^type[ \t]+(\w+)|^(?:const|var)[ \t]+(\w+)|^[ \t]+(\w+)[ \t]+(?:\w+[ \t]*)?=",
    re.M,
)
_RUST = re.compile(r"\b(?:fn|struct|enum|trait|type|const|static|mod|union)[ \t]+(\w+)|\bmacro_rules![ \t]*(\w+)")
_JAVA = re.compile(
    r"\b(?:class|interface|enum|record|object|fun|val|var)[ \t]+(\w+)"
    # Possessive `)++`: the modifiers never give words back to the type, which can hold them too
    # (backtracking between the two was quadratic on a line of `public public …`).
    r"|^[ \t]+(?:(?:public|private|protected|static|final|abstract|synchronized|override|default)[ \t]+)++[\w<>\[\],.? ]+?[ \t]+(\w+)[ \t]*[(=;]",
    re.M,
)
_RUBY = re.compile(
    r"^[ \t]*def[ \t]+(?:self\.)?(\w+[?!=]?)|^[ \t]*(?:class|module)[ \t]+(\w+)|^[ \t]*([A-Z]\w*)[ \t]*=", re.M
)
_SHELL = re.compile(
    r"^[ \t]*(?:function[ \t]+)?([\w-]+)[ \t]*\(\)|^[ \t]*(?:export[ \t]+|readonly[ \t]+)?([A-Za-z_]\w*)=", re.M
)
_KEYS = re.compile(r"^[ \t]*[\"']?([\w.-]+)[\"']?[ \t]*[:=]|^[ \t]*\[+[ \t]*([\w.\"-]+)[ \t]*\]+", re.M)
_MAKE = re.compile(r"^([\w.%/-]+(?:[ \t]+[\w.%/-]+)*)[ \t]*:(?!=)", re.M)
_JUST = re.compile(r"^@?([\w-]+)(?:[ \t]+[^:\n]*)?:(?!=)", re.M)

_BY_EXT: dict[str, re.Pattern[str]] = {}
for _exts, _pattern in (
    ("py pyi pyx", _PY),
    ("js jsx mjs cjs ts tsx mts cts vue svelte", _JS),
    ("go", _GO),
    ("rs", _RUST),
    ("java kt kts scala groovy cs swift", _JAVA),
    ("rb rake", _RUBY),
    ("sh bash zsh fish ksh", _SHELL),
    ("yaml yml toml json jsonc ini cfg conf env properties", _KEYS),
):
    for _ext in _exts.split():
        _BY_EXT[_ext] = _pattern
_NOT_NAMES = frozenset(
    ["if", "for", "while", "switch", "catch", "return", "function", "constructor", "else", "elif", "do", "try", "with"]
)


def language(path: str) -> re.Pattern[str] | None:
    name = path.rsplit("/", 1)[-1]
    if name.startswith(".env"):
        return _KEYS
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    pattern = _BY_EXT.get(ext)
    if pattern is None and ext == "" and name not in ("Makefile", "makefile", "GNUmakefile", "justfile", "Justfile"):
        return None
    return pattern


def definitions(path: str, text: str) -> set[str]:
    """Names `text` defines (functions, classes, methods, constants, keys, targets), by the file's language."""
    names: set[str] = set()
    pattern = language(path)
    if pattern is not None:
        for groups in pattern.findall(text):
            for group in groups if isinstance(groups, tuple) else (groups,):
                if group and group not in _NOT_NAMES:
                    if pattern is _KEYS:
                        names.update(p for p in group.strip('"').split(".") if p)
                    else:
                        names.add(group)
    names.update(targets(path, text))
    return names


def targets(path: str, text: str) -> set[str]:
    """Commands the repository defines: `make:X`, `just:X`, `script:X` (package.json, pyproject.toml)."""
    name = path.rsplit("/", 1)[-1]
    found: set[str] = set()
    if name in ("Makefile", "makefile", "GNUmakefile") or name.endswith(".mk"):
        for group in _MAKE.findall(text):
            found.update(f"make:{t}" for t in group.split() if not t.startswith(".") and "%" not in t)
    elif name.lower() == "justfile":
        found.update(f"just:{t}" for t in _JUST.findall(text))
    elif name == "package.json":
        found.update(f"script:{s}" for s in _package_scripts(text))
    elif name == "pyproject.toml":
        found.update(f"script:{s}" for s in _pyproject_scripts(text))
    return found


def _package_scripts(text: str) -> Iterable[str]:
    try:
        scripts = json.loads(text).get("scripts")
    except (ValueError, AttributeError, RecursionError):  # nesting deeper than json's recursion limit
        # A fragment (a removed diff line) or a broken file: the lines that look like script entries.
        return re.findall(r'^[ \t]*"([\w:.-]+)"\s*:\s*"', text, re.M)
    return [str(k) for k in scripts] if isinstance(scripts, dict) else []


def _pyproject_scripts(text: str) -> Iterable[str]:
    section = re.search(r"^\[(?:project\.scripts|tool\.poetry\.scripts)\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if section is None:
        return []
    return re.findall(r"^[ \t]*[\"']?([\w.-]+)[\"']?\s*=", section.group(1), re.M)


def words(text: str) -> set[str]:
    """Every identifier and `--flag` in `text` (the weaker signal: a mention)."""
    found = set(WORD.findall(text))
    if "--" in text:
        found.update(FLAG.findall(text))
    return found


def words_of_bytes(data: bytes) -> set[str]:
    """`words` of a file's raw bytes: matching ASCII identifiers on bytes is about twice as fast
    as on text, and only the distinct ones are decoded."""
    found = set(_WORD_BYTES.findall(data))
    if b"--" in data:
        found.update(_FLAG_BYTES.findall(data))
    return {w.decode("ascii") for w in found}


def path_names(path: str) -> set[str]:
    """The names a file's path defines: its directories and its stem (Python's module path)."""
    parts = path.split("/")
    names = {p for p in parts[:-1] if WORD.fullmatch(p)}
    stem = parts[-1].split(".", 1)[0]
    if WORD.fullmatch(stem):
        names.add(stem)
    return names
