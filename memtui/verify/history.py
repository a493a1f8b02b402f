"""What git's recent history says existed and where it went.

A memory written before a refactor names things the current tree no longer holds. The tree scan
sees that happen when memtui scanned before the change; git's history also knows it when it did
not. From `git log -p -M -U0` over the commits since the last look (the last `WINDOW` the first
time), for deleted, renamed and modified files only:

* renamed and deleted paths go to `vgone` (git's own rename detection gives the new path);
* every token on a removed line, and every definition among them, goes to `vwords` with no
  current count: it existed, so a memory naming it and not finding it has drifted;
* a removed line that an added line replaced by swapping one name for another
  (`def handle_webhook(` → `def process_webhook(`, or any call site) votes for that rename in
  `vrenames`, as do definitions that vanished from a file beside new ones.

The output is read as a stream and cut at `MAX_BYTES`, so a huge history costs a bounded time once.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections import Counter
from pathlib import Path

from memtui.verify import scan, tree

#: Commits read the first time (later, only those since the last look).
WINDOW = 200
MAX_BYTES = 64 * 1024 * 1024
#: Hunks with more lines than this are not paired line by line (a rewrite, not a rename).
PAIR_LINES = 40


def absorb(conn: sqlite3.Connection, root: Path, head: str, last: str | None) -> bool:
    """Read history from `last` (exclusive) to `head` into the tables. False outside git."""
    if not head:
        return False
    if last and last != head and tree.git(root, "merge-base", "--is-ancestor", last, head) is not None:
        revs = [f"{last}..{head}"]
    elif last == head:
        return True
    else:
        revs = ["-n", str(WINDOW), head]
    args = [
        "git", "-C", str(root), "-c", "log.showRoot=false", "log", "-p", "-M", "-U0", "--no-color", "--no-ext-diff",
        "--diff-filter=ADMR",
        "--format=%x00commit %H", *revs, "--",
    ]  # fmt: skip
    try:
        process = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"},
        )
    except OSError:
        return False
    reader = _Reader(conn)
    read = 0
    assert process.stdout is not None
    try:
        for raw in process.stdout:
            read += len(raw)
            if read > MAX_BYTES:
                break
            reader.line(raw.decode("utf-8", errors="replace").rstrip("\n"))
    finally:
        process.stdout.close()
        process.kill()
        process.wait()
    reader.flush()
    return True


class _Reader:
    """A small state machine over `git log -p` output."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.path = ""
        self.old_path = ""
        self.removed: list[str] = []
        self.added: list[str] = []
        self.file_removed_defs: set[str] = set()
        self.file_added_defs: set[str] = set()
        self.tokens: set[str] = set()
        self.defs: set[str] = set()
        self.votes: Counter[tuple[str, str]] = Counter()
        self.in_hunk = False
        self.added_file = False
        self.commit_removed: set[str] = set()
        self.commit_added: set[str] = set()

    def line(self, text: str) -> None:
        if text.startswith(("diff --git ", "\0commit ")):
            self._end_file()
            if text.startswith("\0commit "):
                self._end_commit()
            self.in_hunk = False
            return
        if text.startswith("new file mode"):
            self.added_file = True
            return
        if text.startswith("@@"):
            self._end_hunk()
            self.in_hunk = True
            return
        if self.in_hunk:
            if text.startswith("-"):
                self.removed.append(text[1:])
            elif text.startswith("+"):
                self.added.append(text[1:])
            return
        if text.startswith("rename from "):
            self.old_path = text[12:]
            return
        if text.startswith("rename to "):
            new = text[10:]
            tree.record_gone(self.conn, self.old_path, new)
            tree.record_path_rename(self.conn, self.old_path, new)
            self.path = new
            return
        if text.startswith("--- "):
            if text.startswith("--- a/"):
                self.old_path = text[6:]
            return
        if text.startswith("+++ "):
            if text == "+++ /dev/null" and self.old_path:
                tree.record_gone(self.conn, self.old_path, None)
                self.path = self.old_path
            elif text.startswith("+++ b/"):
                self.path = text[6:]
                if self.added_file:
                    self.conn.execute("INSERT OR IGNORE INTO vborn (path) VALUES (?)", (self.path,))
            return

    def _end_hunk(self) -> None:
        if not self.removed and not self.added:
            return
        name = self.old_path or self.path
        new_text = "\n".join(self.added)
        if self.removed:
            old_text = "\n".join(self.removed)
            self.tokens |= scan.words(old_text) | scan.targets(name, old_text)
            removed_defs = scan.definitions(name, old_text)
            self.defs |= removed_defs
            self.file_removed_defs |= removed_defs
        self.file_added_defs |= scan.definitions(self.path or name, new_text)
        if self.added_file:
            self.added, self.removed = [], []
            return  # a new file replaced nothing line by line
        if len(self.removed) == len(self.added) and len(self.removed) <= PAIR_LINES:
            for old_line, new_line in zip(self.removed, self.added, strict=True):
                swap = _swap(old_line, new_line)
                if swap is not None:
                    self.votes[swap] += 1
        self.removed, self.added = [], []

    def _end_file(self) -> None:
        self._end_hunk()
        gone = self.file_removed_defs - self.file_added_defs
        new = self.file_added_defs - self.file_removed_defs
        paired = set()
        if gone and new:
            for pair in tree.pair_names(gone, new):
                self.votes[pair] += 1
                paired.add(pair[0])
        self.commit_removed |= gone - paired
        self.commit_added |= new
        self.file_removed_defs, self.file_added_defs = set(), set()
        self.path = self.old_path = ""
        self.added_file = False

    def _end_commit(self) -> None:
        """Definitions that left one file for another in the same commit (a module split or moved)."""
        gone = self.commit_removed - self.commit_added
        if gone and self.commit_added:
            for pair in tree.pair_names(gone, self.commit_added - self.commit_removed, cutoff=70.0):
                self.votes[pair] += 1
        self.commit_removed, self.commit_added = set(), set()

    def flush(self) -> None:
        self._end_file()
        self._end_commit()
        self.conn.executemany(
            "INSERT INTO vwords (word, files, defs, ever_def) VALUES (?, 0, 0, ?)"
            " ON CONFLICT (word) DO UPDATE SET ever_def = max(ever_def, excluded.ever_def)",
            [(t, 1 if t in self.defs else 0) for t in self.tokens | self.defs],
        )
        self.conn.executemany(
            "INSERT INTO vrenames (old, new, votes) VALUES (?, ?, ?)"
            " ON CONFLICT (old, new) DO UPDATE SET votes = votes + excluded.votes",
            [(old, new, n) for (old, new), n in self.votes.items()],
        )


def _tokens(line: str) -> Counter[str]:
    found = Counter(scan.WORD.findall(line))
    if "--" in line:
        found.update(scan.FLAG.findall(line))
    return found


def _swap(old: str, new: str) -> tuple[str, str] | None:
    """(a, b) when `new` is `old` with every `a` replaced by `b` and nothing else changed."""
    before, after = _tokens(old), _tokens(new)
    gone = before - after
    came = after - before
    if len(gone) != 1 or len(came) != 1:
        return None
    (a, n), (b, m) = next(iter(gone.items())), next(iter(came.items()))
    if n != m or len(a) < 3 or len(b) < 3:
        return None
    return a, b
