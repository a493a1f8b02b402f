"""What an agent wrote into its own store since the person's last review counts as "to review" in
`memtui list --unreviewed`, `memtui status` and `memory_status`, as it does in the TUI's queue."""

from __future__ import annotations

import json

from memtui.store import reviewmarks
from memtui.store.bank import Bank


def _looked_in_the_tui(project) -> None:
    """What the TUI does when it first opens the stores: what they hold now counts as seen."""
    bank = Bank(project)
    marks = reviewmarks.Marks.load(project)
    marks.start(bank.stores(), bank.memories())
    marks.save()


def test_what_claude_wrote_after_the_last_review_is_to_review_everywhere(run, project):
    assert run("add", "--store", "project", "--type", "feedback", "Seen before: run the linters first")[0] == 0
    _looked_in_the_tui(project)
    # Claude Code writes a new auto-memory file itself (the CLI's write stands in for it: no marks).
    assert run("add", "--store", "project", "--type", "feedback", "Written since: tests need Docker")[0] == 0

    code, out, err = run("list", "--unreviewed", "--json")
    assert code == 0, err
    assert [m["content"] for m in json.loads(out)] == ["Written since: tests need Docker"]
    code, out, err = run("status", "--json")
    assert code == 0, err
    assert json.loads(out)["stores"]["md:project"]["unreviewed"] == 1
