"""Progress of `memtui consolidate` (issue 42): one step per model call, a bar on a terminal's
stderr only; what the command prints is the same at a terminal and in a pipe."""

from __future__ import annotations

from fakeapi import tool
from progresskit import plain, read_until, spawn


def _groups(bank) -> list[dict]:
    """Two types with enough memories to be looked at: two model calls, each keeping its group."""
    answers = []
    for kind, words in (("pattern", "naming style"), ("gotcha", "flaky step")):
        ids = [
            bank.add(kind, f"{kind.title()} {i}: module{i} has its own {words} number {i * 37}").memory.id
            for i in range(5)
        ]
        answers.append(tool({"keep": ids, "merge": [], "drop": []}))
    return answers


def test_consolidate_at_a_terminal_draws_a_bar_of_its_model_calls(api_llm, project, cli, bank):
    answers = _groups(bank)
    api_llm.script(*answers, *answers)
    piped = cli("consolidate", "--dry-run", cwd=project.root)
    assert piped.returncode == 0 and piped.stderr == b"", piped  # no bar, no line: as before
    proc, leader = spawn("consolidate", "--dry-run", cwd=project.root)
    shown = plain(read_until(leader, proc, None))
    out = proc.stdout.read() if proc.stdout else b""
    assert proc.wait(timeout=60) == 0, shown
    assert "consolidating" in shown and "━" in shown and "2/2" in shown
    assert out == piped.stdout  # the answer on stdout is the same, bar or not
