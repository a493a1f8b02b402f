"""The CLI's listings line up: long store names and ids do not push a column, and piped output stays
whole lines (a script reads them); at a terminal long values wrap under themselves."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys


def _column_starts(lines: list[str], column: int) -> set[int]:
    """Where the `column`-th run of non-space text starts on each line (runs split by two spaces)."""
    starts = set()
    for line in lines:
        at, seen, i = 0, -1, 0
        while i < len(line):
            if line[i] != " " and (i == 0 or line[i - 2 : i] == "  "):
                seen += 1
                if seen == column:
                    at = i
                    break
            i += 1
        starts.add(at)
    return starts


def test_status_keeps_one_value_column_with_a_long_store_name(run):
    run("add", "--type", "decision", "Use integer cents for money")
    memory_id = json.loads(run("list", "--json")[1])[0]["id"]
    assert run("promote", memory_id, "agent:reviewer-of-long-names")[0] == 0
    code, out, _ = run("status")
    assert code == 0
    lines = out.splitlines()
    assert "md:agent:reviewer-of-long-names" in lines  # on its own line
    labelled = [line for line in lines if line[:1] not in (" ", "") and len(line) > 13 and line[12] == " "]
    assert len(labelled) >= 4 and all(line[13] != " " for line in labelled), labelled


def test_ask_without_a_model_lists_the_closest_in_columns(run):
    run("add", "--type", "decision", "Stripe webhooks are written raw to the stripe_events table first")
    run("add", "--type", "architecture", "Stripe Billing is the payments backbone")
    run("add", "--type", "gotcha", "Stripe webhooks can arrive out of order")
    code, out, err = run("ask", "how", "are", "stripe", "webhooks", "stored", env={"ANTHROPIC_API_KEY": ""})
    assert code == 0 and "To get one: set ANTHROPIC_API_KEY" in err and "((" not in err
    rows = out.splitlines()
    assert len(rows) == 3
    assert len(_column_starts(rows, 1)) == 1 and len(_column_starts(rows, 2)) == 1, rows


def at_terminal(project, home, *args: str, columns: int = 60) -> list[str]:
    """`memtui ARGS` with its stdout on a pseudo-terminal `columns` wide; the lines it showed."""
    env = {
        **os.environ,
        "HOME": str(home),
        "CLAUDE_PROJECT_DIR": str(project.root),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "ANTHROPIC_API_KEY": "",
        "COLUMNS": str(columns),
        "LINES": "24",
    }
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "memtui", *args],
            stdout=follower,
            stderr=subprocess.PIPE,
            cwd=project.root,
            env=env,
            timeout=60,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    assert done.returncode == 0, done.stderr
    return b"".join(chunks).decode().replace("\r\n", "\n").splitlines()


def test_status_wraps_under_its_values_at_a_terminal(project, home):
    lines = at_terminal(project, home, "status")
    fix = next(i for i, line in enumerate(lines) if line.startswith("  fix"))
    assert all(len(line) <= 60 for line in lines if "/" not in line), lines
    assert lines[fix + 1].startswith(" " * 13) and lines[fix + 1][13] != " ", lines


def test_setup_wraps_its_sentences_at_words_at_a_terminal(project, home):
    lines = at_terminal(project, home, "setup", columns=60)
    prose = [line for line in lines if not line.startswith("/")]  # file lines name long paths
    # Wrapped by memtui at words, so the terminal never cuts one (a long path may stand alone).
    assert len(prose) >= 6 and all(len(line) <= 60 or " " not in line for line in prose), prose
