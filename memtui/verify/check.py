"""One memory's references against the tree: found, gone, or not ours to judge.

A reference is **found** when the tree holds it now: a path (exactly, as a suffix of a tracked
path, as a directory, or a bare file name anywhere), a symbol defined somewhere (or, for a name
this tree never defined, such as a library's `json.dumps`, mentioned somewhere), a flag or a
script target. It is **gone** when it is not found and the tree or git's history shows it was
there: a name once defined, a path that was renamed or deleted, a token that used to be in the
files. Anything else was never part of this repository (a product name, another project's path),
so it is no reference at all: precision over recall, and nothing is called drifted on a guess.

verified = every reference found; drifted = some gone; unchecked = none to check.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable

from memtui.core.references import COMMAND, FLAG, PATH, Reference
from memtui.index.verdicts import DRIFTED, UNCHECKED, VERIFIED

FOUND, GONE, UNKNOWN = "found", "gone", "unknown"
#: A name this tree once defined and defines nowhere now is gone when at most this many files still
#: mention it (a comment or a changelog the rename missed); more, and it is still in use: an outside
#: module of the same name (`logging` after `utils/logging.py` moved), or a re-export.
LINGERING_FILES = 2
_RUNNER_PREFIX = {"make": "make:", "just": "just:"}
#: Minimum similarity (0-100) for a fuzzy guess at a new name when history has no rename.
FUZZY_CUTOFF = 82.0


def command_token(value: str) -> str:
    runner, _, target = value.rpartition(" ")
    return _RUNNER_PREFIX.get(runner, "script:") + target


class Lookup:
    """What the tree holds, read from the index: every token up front for a full run, or one
    query per token for an incremental one."""

    def __init__(self, conn: sqlite3.Connection, *, preload: bool) -> None:
        self.conn = conn
        self.complete = preload
        self.words: dict[str, tuple[int, int, int] | None] = {}
        if preload:
            for word, files, defs, ever in conn.execute("SELECT word, files, defs, ever_def FROM vwords"):
                self.words[word] = (files, defs, ever)
        self.paths = [p for (p,) in conn.execute("SELECT path FROM vfiles")]
        self.path_set = set(self.paths)
        self.by_name: dict[str, list[str]] = defaultdict(list)
        self.dirs: set[str] = set()
        self.dirs_by_name: dict[str, list[str]] = defaultdict(list)
        for path in self.paths:
            parts = path.split("/")
            self.by_name[parts[-1]].append(path)
            for i in range(1, len(parts)):
                directory = "/".join(parts[:i])
                if directory not in self.dirs:
                    self.dirs.add(directory)
                    self.dirs_by_name[parts[i - 1]].append(directory)
        self._gone: dict[str, str | None] | None = None
        self._renames: dict[str, list[tuple[str, int]]] | None = None

    def word(self, token: str) -> tuple[int, int, int] | None:
        if token in self.words or self.complete:
            return self.words.get(token)
        row = self.conn.execute("SELECT files, defs, ever_def FROM vwords WHERE word = ?", (token,)).fetchone()
        value = (row[0], row[1], row[2]) if row else None
        self.words[token] = value
        return value

    # -- paths -----------------------------------------------------------------------------------

    def path_found(self, ref: str) -> bool:
        ref = ref.strip("/")
        if ref in self.path_set or ref in self.dirs:
            return True
        name = ref.rsplit("/", 1)[-1]
        tail = "/" + ref
        candidates = self.dirs_by_name.get(name, []) + self.by_name.get(name, [])
        return any(c == ref or c.endswith(tail) for c in candidates)

    @property
    def gone(self) -> dict[str, str | None]:
        if self._gone is None:
            self._gone = dict(self.conn.execute("SELECT path, now FROM vgone"))
        return self._gone

    def path_gone(self, ref: str) -> tuple[bool, str | None]:
        """Whether the path existed, and where it went (in the reference's own form) if known."""
        ref_clean = ref.strip("/")
        depth = ref_clean.count("/") + 1
        tail = "/" + ref_clean
        hits = [p for p in self.gone if p == ref_clean or p.endswith(tail)]
        is_dir = False
        if not hits:
            prefix = ref_clean + "/"
            inner = [p for p in self.gone if p.startswith(prefix) or ("/" + prefix) in p]
            if not inner:
                return False, None
            hits, is_dir = inner, True
        for old in hits:
            new = self._follow(old)
            if new is None:
                continue
            if is_dir:
                moved = _moved_dir(ref_clean, old, new)
                if moved is not None and self.path_found(moved):
                    return True, moved + ("/" if ref.endswith("/") else "")
                continue
            shown = new if ref_clean == old else "/".join(new.split("/")[-depth:])
            return True, shown
        return True, self._fuzzy_path(ref_clean) if not is_dir else None

    def _follow(self, path: str) -> str | None:
        seen = set()
        current: str | None = path
        while current is not None and current in self.gone and current not in seen:
            seen.add(current)
            current = self.gone[current]
        return current if current is not None and current in self.path_set else None

    def _fuzzy_path(self, ref: str) -> str | None:
        """A close name among the files that appeared since (git's rename detection missed a file
        that was renamed and rewritten); a file that was always there is no rename of anything."""
        from rapidfuzz import fuzz, process

        name = ref.rsplit("/", 1)[-1]
        ext = name.rsplit(".", 1)[-1] if "." in name else ""
        born = {p for (p,) in self.conn.execute("SELECT path FROM vborn")} & self.path_set
        names = {p.rsplit("/", 1)[-1] for p in born}
        pool = [n for n in names if (n.rsplit(".", 1)[-1] if "." in n else "") == ext]
        best = process.extractOne(name, pool, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
        if best is None:
            return None
        parent = ref.rsplit("/", 1)[0] if "/" in ref else ""
        paths = [p for p in self.by_name[best[0]] if p in born]
        same_dir = [p for p in paths if parent and p.rsplit("/", 1)[0].endswith(parent)]
        chosen = (same_dir or paths)[0]
        return chosen if "/" not in ref else "/".join(chosen.split("/")[-(ref.count("/") + 1) :])

    # -- names -----------------------------------------------------------------------------------

    def name_state(self, name: str, strong: bool) -> str:
        row = self.word(name)
        if row is None:
            return UNKNOWN
        files, defs, ever_def = row
        if defs > 0:
            return FOUND
        if ever_def:  # this tree defined it once and defines it nowhere now
            return GONE if files <= LINGERING_FILES else FOUND
        if files > 0:
            return FOUND if strong else UNKNOWN
        return GONE if strong else UNKNOWN

    def token_state(self, token: str) -> str:
        row = self.word(token)
        if row is None:
            return UNKNOWN
        return FOUND if row[0] > 0 else GONE

    @property
    def renames(self) -> dict[str, list[tuple[str, int]]]:
        if self._renames is None:
            table: dict[str, list[tuple[str, int]]] = defaultdict(list)
            for old, new, votes in self.conn.execute("SELECT old, new, votes FROM vrenames"):
                table[old].append((new, votes))
            self._renames = table
        return self._renames

    def new_name(self, name: str, *, token: bool = False, prefix: str = "") -> str | None:
        """The most voted-for rename of `name` that the tree holds now. No guess among all of
        today's names: a deleted `get_requirement` is no rename of the `get_requirements` that was
        always there, and a wrong new name is worse than none."""
        for new, _votes in sorted(self.renames.get(name, ()), key=lambda t: (-t[1], t[0])):
            state = self.token_state(prefix + new) if token else self.name_state(new, True)
            if state == FOUND:
                return new
        return None


def _moved_dir(ref: str, old: str, new: str) -> str | None:
    """The directory `ref` became, given one of its files moved from `old` to `new`."""
    marker = ref + "/"
    start = old.find(marker) if not old.startswith(marker) else 0
    if start < 0:
        return None
    rest = old[start + len(marker) :]
    if not new.endswith("/" + rest) and new != rest:
        return None
    moved = new[: len(new) - len(rest) - 1]
    depth = ref.count("/") + 1
    return "/".join(moved.split("/")[-depth:]) if moved else None


def _module(parts: list[str], look: Lookup) -> tuple[str, str | None] | None:
    """A dotted name that is (or was) a module path of this tree (`pip._internal.utils.misc`) is
    judged as that path: its parts one by one would each be found somewhere (`utils` is a common
    directory name) after the module itself moved. None when it is no module path here."""
    base = "/".join(parts)
    for candidate in (base + ".py", base + "/"):
        if look.path_found(candidate):
            return FOUND, None
    for candidate in (base + ".py", base + "/"):
        existed, new = look.path_gone(candidate)
        if existed:
            dotted = new.rstrip("/").removesuffix(".py").replace("/", ".") if new else None
            return GONE, dotted
    return None


def judge(refs: Iterable[Reference], look: Lookup) -> tuple[str, list[str], list[str], dict[str, str]]:
    """(status, references checked, references gone, suggested new names) for one memory."""
    checked: list[str] = []
    missing: list[str] = []
    suggested: dict[str, str] = {}
    for ref in refs:
        state, suggestion = resolve(ref, look)
        if state == UNKNOWN:
            continue
        checked.append(ref.value)
        if state == GONE:
            missing.append(ref.value)
            if suggestion:
                suggested[ref.value] = suggestion
    status = UNCHECKED if not checked else DRIFTED if missing else VERIFIED
    return status, checked, missing, suggested


def resolve(ref: Reference, look: Lookup) -> tuple[str, str | None]:
    if ref.kind == PATH:
        if look.path_found(ref.value):
            return FOUND, None
        existed, new = look.path_gone(ref.value)
        return (GONE, new) if existed else (UNKNOWN, None)
    if ref.kind == FLAG:
        state = look.token_state(ref.value)
        return state, look.new_name(ref.value, token=True) if state == GONE else None
    if ref.kind == COMMAND:
        token = command_token(ref.value)
        state = look.token_state(token)
        if state != GONE:
            return state, None
        prefix, _, target = token.partition(":")
        new = look.new_name(token, token=True)
        if new is None:  # a line that swapped the target's name (`ship:` → `release:`) voted for the bare name
            bare = look.new_name(target, token=True, prefix=prefix + ":")
            new = f"{prefix}:{bare}" if bare else None
        return GONE, (ref.value.rpartition(" ")[0] + " " + new.split(":", 1)[1]) if new else None
    parts = ref.value.split(".")
    if len(parts) >= 2:
        module = _module(parts, look)
        if module is not None:
            return module
    states = [look.name_state(p, ref.strong) for p in parts]
    if GONE in states:
        renamed = [look.new_name(p) if s == GONE else p for p, s in zip(parts, states, strict=True)]
        return GONE, ".".join(renamed) if all(renamed) else None  # type: ignore[arg-type]
    if UNKNOWN in states:
        return UNKNOWN, None
    return FOUND, None
