"""The working tree as verification sees it, kept in the index and rescanned only where it changed.

Files are git's tracked ones plus untracked ones .gitignore does not exclude (`git ls-files
--cached --others --exclude-standard`); outside git, a walk that skips the usual build, cache
and environment folders. memtui's own stores (`.memory/`, `.claude/`, CLAUDE.md, MEMORY.md) are
never part of it: they hold the memories' own words, and a memory must not verify itself.

A file is rescanned when its size or mtime changed. The scan keeps, per file, its words and
definitions (`vfiles`), and, per token, how many files hold and define it now and whether it was
ever defined (`vwords`): a token whose count fell to 0 is how the checker knows a name existed
and is gone. Paths that disappeared go to `vgone`, with the file that took their place when one
did (same words); definitions that disappeared from a file beside new ones go to `vrenames`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtui.store.verified import OWN_NAMES, own
from memtui.verify import scan

SKIP_DIRS = frozenset(
    [
        ".git",
        ".hg",
        ".svn",
        ".memory",
        ".claude",
        "node_modules",
        ".venv",
        "venv",
        "env",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".tox",
        ".nox",
        "dist",
        "build",
        "target",
        ".next",
        ".cache",
        ".idea",
        ".vscode",
    ]
)

#: Larger files are listed (their path counts) but not read: generated or data, not code.
MAX_BYTES = 1_000_000
MAX_FILES = 100_000
GIT_TIMEOUT = 20.0


@dataclass
class Change:
    """What a scan changed: the tokens whose presence flipped and the paths added or removed."""

    tokens: set[str] = field(default_factory=set)
    paths: set[str] = field(default_factory=set)
    scanned: int = 0
    files: int = 0

    @property
    def keys(self) -> set[str]:
        """The `vrefs` keys of memories this change may affect."""
        keys = set(self.tokens)
        for path in self.paths:
            keys.update(path_keys(path))
        return keys


def path_keys(path: str) -> set[str]:
    return {"path:" + part for part in path.strip("/").split("/") if part}


def git(root: Path, *args: str, timeout: float = GIT_TIMEOUT) -> str | None:
    """git's standard output, or None outside a repository or when git fails."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            timeout=timeout,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", errors="surrogateescape")


def list_files(root: Path) -> list[str]:
    """The project's files as paths relative to `root`, with forward slashes, sorted."""
    out = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    if out is not None:
        paths = [p for p in dict.fromkeys(out.split("\0")) if p and not own(p)]
        return sorted(paths)[:MAX_FILES]
    found: list[str] = []
    for directory, dirs, files in os.walk(root):
        # Outside git nothing says what is generated: skip the usual build, cache and environment folders.
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        base = os.path.relpath(directory, root)
        for name in sorted(files):
            if name in OWN_NAMES:
                continue
            found.append(name if base == "." else f"{base}/{name}".replace(os.sep, "/"))
            if len(found) >= MAX_FILES:
                return found
    return found


def read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or None for binary, unreadable or oversized files."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_BYTES or b"\0" in data[:8192]:
        return None
    return data


def _signature(path: Path) -> str | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return f"{st.st_mtime_ns}:{st.st_size}"


def _load(conn: sqlite3.Connection, paths: Iterable[str] | None = None) -> dict[str, str]:
    if paths is None:
        return dict(conn.execute("SELECT path, sig FROM vfiles"))
    out: dict[str, str] = {}
    for path in paths:
        row = conn.execute("SELECT sig FROM vfiles WHERE path = ?", (path,)).fetchone()
        if row:
            out[path] = row[0]
    return out


def sync(conn: sqlite3.Connection, root: Path, only: Sequence[str] | None = None, step: Step | None = None) -> Change:
    """Rescan what changed since the last scan (all files, or just `only`). Call inside a transaction.
    `step(done, of)` follows the scan of files never seen (all of them, the first time)."""
    change = Change()
    if only is None:
        listed = list_files(root)
        known = _load(conn)
        candidates: Iterable[str] = listed
        listed_set = set(listed)
        removed = [p for p in known if p not in listed_set]
    else:
        known = _load(conn, only)
        candidates = [p for p in only if not own(p)]
        removed = []
    change.files = len(known)
    fresh: list[tuple[str, str]] = []  # files the index has never seen: nothing to compare with
    changed: list[tuple[str, str]] = []
    for rel in candidates:
        sig = _signature(root / rel)
        if sig is None:
            if rel in known:
                removed.append(rel)
        elif rel not in known:
            fresh.append((rel, sig))
        elif known[rel] != sig:
            changed.append((rel, sig))
    if fresh and known:  # not the first scan: these files are new since the last one
        conn.executemany("INSERT OR IGNORE INTO vborn (path) VALUES (?)", [(rel,) for rel, _ in fresh])
    rows, files_delta, defs_delta = scan_many(root, fresh, step)
    ever: set[str] = set(defs_delta)
    upserts: list[tuple[str, str, str, str]] = list(rows)
    for rel, sig in changed:
        words, defs = scan_file(root, rel)
        old_words, old_defs = _old(conn, rel)
        _diff(files_delta, old_words, words)
        _diff(defs_delta, old_defs, defs)
        ever |= defs
        if old_defs != defs:
            _vote(conn, old_defs - defs, defs - old_defs)
        upserts.append((rel, sig, "\n".join(sorted(words)), "\n".join(sorted(defs))))
    change.scanned = len(upserts)
    gone_rows: dict[str, tuple[set[str], set[str]]] = {}
    for rel in dict.fromkeys(removed):
        old_words, old_defs = _old(conn, rel)
        gone_rows[rel] = (old_words, old_defs)
        _diff(files_delta, old_words, set())
        _diff(defs_delta, old_defs, set())
    conn.executemany("INSERT OR REPLACE INTO vfiles (path, sig, words, defs) VALUES (?, ?, ?, ?)", upserts)
    conn.executemany("DELETE FROM vfiles WHERE path = ?", [(p,) for p in gone_rows])
    change.tokens = _apply(conn, files_delta, defs_delta, ever)
    change.paths = {rel for rel, _ in fresh} | set(gone_rows)
    change.files += len(fresh) - len(gone_rows)
    if gone_rows:  # a file that vanished may have moved to one of the new ones
        new_rows = {rel: (set(words.split("\n")), set(defs.split("\n"))) for rel, _sig, words, defs in rows}
        _moves(conn, gone_rows, new_rows)
    elif fresh:
        conn.executemany("DELETE FROM vgone WHERE path = ?", [(rel,) for rel, _ in fresh])
    return change


def scan_file(root: Path, rel: str) -> tuple[set[str], set[str]]:
    """(words, definitions) of one file; its path's names (directories, module) count as both."""
    data = read_bytes(root / rel)
    words = scan.words_of_bytes(data) if data is not None else set()
    defs = scan.definitions(rel, data.decode("utf-8", errors="replace")) if data is not None else set()
    names = scan.path_names(rel)
    defs |= names
    words |= defs
    return words, defs


#: From this many unseen files (a first scan), the scan runs in worker processes, one per core.
PARALLEL_FILES = 1000
Step = Callable[[int, int], None]  # step(files done, files): how far a scan got
Scanned = tuple[list[tuple[str, str, str, str]], Counter[str], Counter[str]]  # rows, files and defs per token
SCAN_CHUNK = 200  # files per piece of a first scan: a smooth bar, at no cost worth counting


def scan_many(root: Path, items: Sequence[tuple[str, str]], step: Step | None = None) -> Scanned:
    """Scan files the index has never seen: their rows, and how many of them hold and define each
    token. Reading and matching dominate a first scan of a large tree and are independent per file,
    so from PARALLEL_FILES files they are split across processes (fork, where the platform has it);
    in pieces of SCAN_CHUNK files, which `step` follows (a progress bar)."""
    import multiprocessing

    workers = min(os.cpu_count() or 1, 4)
    chunks = [(str(root), list(items[i : i + SCAN_CHUNK])) for i in range(0, len(items), SCAN_CHUNK)]
    rows: list[tuple[str, str, str, str]] = []
    files: Counter[str] = Counter()
    defs: Counter[str] = Counter()
    with contextlib.ExitStack() as stack:
        if len(items) < PARALLEL_FILES or workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
            parts: Iterable[Any] = map(_scan_chunk, chunks)
        else:
            pool = stack.enter_context(multiprocessing.get_context("fork").Pool(workers))
            parts = pool.imap(_scan_chunk, chunks)
        for part_rows, part_files, part_defs in parts:
            rows += part_rows
            files.update(part_files)
            defs.update(part_defs)
            if step is not None:
                step(len(rows), len(items))
    return rows, files, defs


def _scan_chunk(chunk: tuple[str, list[tuple[str, str]]]) -> Scanned:
    root, items = chunk
    base = Path(root)
    rows = []
    files: Counter[str] = Counter()
    defs_count: Counter[str] = Counter()
    for rel, sig in items:
        words, defs = scan_file(base, rel)
        files.update(words)
        defs_count.update(defs)
        rows.append((rel, sig, "\n".join(sorted(words)), "\n".join(sorted(defs))))
    return rows, files, defs_count


def _old(conn: sqlite3.Connection, rel: str) -> tuple[set[str], set[str]]:
    row = conn.execute("SELECT words, defs FROM vfiles WHERE path = ?", (rel,)).fetchone()
    if row is None:
        return set(), set()
    return set(filter(None, row[0].split("\n"))), set(filter(None, row[1].split("\n")))


def _diff(delta: Counter[str], old: set[str], new: set[str]) -> None:
    if not old:
        delta.update(new)  # a new file (every file, the first time): Counter.update counts in C
        return
    delta.update(new - old)
    delta.subtract(old - new)


def _apply(conn: sqlite3.Connection, files: Counter[str], defs: Counter[str], ever: set[str]) -> set[str]:
    """Add the deltas to `vwords`; the tokens whose presence (held or defined anywhere) flipped."""
    tokens = set(files) | set(defs)
    if not tokens:
        return set()
    if conn.execute("SELECT 1 FROM vwords LIMIT 1").fetchone() is None:
        # The first scan: plain inserts (a third of the upsert's cost), and every token is new.
        conn.executemany(
            "INSERT INTO vwords (word, files, defs, ever_def) VALUES (?, ?, ?, ?)",
            [(t, files.get(t, 0), defs.get(t, 0), 1 if t in ever else 0) for t in tokens],
        )
        return tokens
    before = _counts(conn, tokens) if len(tokens) < 5000 else dict(_all_counts(conn))
    conn.executemany(
        "INSERT INTO vwords (word, files, defs, ever_def) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (word) DO UPDATE SET files = files + excluded.files, defs = defs + excluded.defs,"
        " ever_def = max(ever_def, excluded.ever_def)",
        [(t, files.get(t, 0), defs.get(t, 0), 1 if t in ever else 0) for t in tokens],
    )
    flipped = set()
    for token in tokens:
        old_files, old_defs = before.get(token, (0, 0))
        new_files, new_defs = old_files + files.get(token, 0), old_defs + defs.get(token, 0)
        if (old_files > 0) != (new_files > 0) or (old_defs > 0) != (new_defs > 0):
            flipped.add(token)
    return flipped


def _counts(conn: sqlite3.Connection, tokens: Iterable[str]) -> dict[str, tuple[int, int]]:
    out = {}
    for token in tokens:
        row = conn.execute("SELECT files, defs FROM vwords WHERE word = ?", (token,)).fetchone()
        if row:
            out[token] = (row[0], row[1])
    return out


def _all_counts(conn: sqlite3.Connection) -> Iterable[tuple[str, tuple[int, int]]]:
    for word, files, defs in conn.execute("SELECT word, files, defs FROM vwords"):
        yield word, (files, defs)


def _vote(conn: sqlite3.Connection, removed: set[str], added: set[str], weight: int = 1) -> None:
    """Pair each vanished name with the most alike new one (a rename) and count the vote."""
    pairs = pair_names(removed, added)
    if pairs:
        record_renames(conn, pairs, weight)


def pair_names(removed: Iterable[str], added: Iterable[str], cutoff: float = 55.0) -> list[tuple[str, str]]:
    from rapidfuzz import fuzz, process

    pool = [a for a in added if not a.startswith(("make:", "just:", "script:"))]
    if not pool:
        return []
    pairs = []
    for old in removed:
        best = process.extractOne(old, pool, scorer=fuzz.ratio, score_cutoff=cutoff)
        if best is not None:
            pairs.append((old, best[0]))
    return pairs


def record_renames(conn: sqlite3.Connection, pairs: Iterable[tuple[str, str]], weight: int = 1) -> None:
    conn.executemany(
        "INSERT INTO vrenames (old, new, votes) VALUES (?, ?, ?)"
        " ON CONFLICT (old, new) DO UPDATE SET votes = votes + excluded.votes",
        [(old, new, weight) for old, new in pairs if old != new],
    )


def record_gone(conn: sqlite3.Connection, path: str, now: str | None) -> None:
    conn.execute(
        "INSERT INTO vgone (path, now) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET now = coalesce(excluded.now, now)",
        (path, now),
    )


def _moves(
    conn: sqlite3.Connection, gone: dict[str, tuple[set[str], set[str]]], new: dict[str, tuple[set[str], set[str]]]
) -> None:
    """Record vanished paths, each with the new file that holds the same words (a move), if any."""
    for path in new:
        conn.execute("DELETE FROM vgone WHERE path = ?", (path,))
    # Definitions that left a vanished file for a new one (a module moved and edited).
    old_defs = set().union(*(d for _w, d in gone.values())) if gone else set()
    new_defs = set().union(*(d for _w, d in new.values())) if new else set()
    if old_defs - new_defs and new_defs - old_defs:
        record_renames(conn, pair_names(old_defs - new_defs, new_defs - old_defs, cutoff=70.0))
    for path, (words, _defs) in gone.items():
        ext = path.rsplit(".", 1)[-1] if "." in path.rsplit("/", 1)[-1] else ""
        best, best_score = None, 0.0
        for candidate, (cand_words, _) in new.items():
            if (candidate.rsplit(".", 1)[-1] if "." in candidate.rsplit("/", 1)[-1] else "") != ext:
                continue
            union = len(words | cand_words) or 1
            score = len(words & cand_words) / union
            if score > best_score:
                best, best_score = candidate, score
        target = best if best_score >= 0.8 else None
        record_gone(conn, path, target)
        if target is not None:
            record_path_rename(conn, path, target)


def record_path_rename(conn: sqlite3.Connection, old: str, new: str) -> None:
    """A moved file renames its module (stem) and any directory whose name changed."""
    old_names, new_names = old.split("/"), new.split("/")
    pairs = []
    old_stem, new_stem = old_names[-1].split(".", 1)[0], new_names[-1].split(".", 1)[0]
    if old_stem != new_stem:
        pairs.append((old_stem, new_stem))
    if len(old_names) == len(new_names):
        pairs.extend((a, b) for a, b in zip(old_names[:-1], new_names[:-1], strict=True) if a != b)
    record_renames(conn, pairs, 2)
