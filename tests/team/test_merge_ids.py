"""A teammate's state.json with hostile or repeated ids, merged by the real git merge driver: no
memory silently replaces another, and every id that arrives is a valid one."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from gitkit import git, sync, team
from hostilekit import HOSTILE_IDS, raw_memory

from memtui.core import ids
from memtui.store.bank import Bank


def test_a_repeated_id_from_a_teammate_is_a_review_item_not_an_overwrite(tmp_path):
    _remote, a, b = team(tmp_path)
    victim = Bank.open(a).add("decision", "Staging deploys need two approvals in the release channel").memory
    sync(a, "a's memory")
    git(b, "pull", "-q", "origin", "main")

    # The teammate's file: the victim's memory as it was, then a second entry under its id, and ids
    # that are a number, null, 5,000 characters, or carry a newline or the recall fence.
    path = b / ".memory" / "state.json"
    data = json.loads(path.read_text())
    data["memories"].append(raw_memory(victim.id, "Staging deploys need no approval at all"))
    for n, mid in enumerate(HOSTILE_IDS.values()):
        data["memories"].append(
            raw_memory(mid, f"Hostile entry {n} says the widget cache expires after ninety seconds")
        )
    path.write_text(json.dumps(data, indent=2))
    sync(b, "teammate's file")

    Bank.open(a).add("pattern", "Feature flags live in config/flags.toml")  # both sides changed state.json
    git(a, "add", "-A")
    git(a, "commit", "-q", "-m", "a's second memory")
    git(a, "pull", "-q", "--no-edit", "origin", "main")  # the merge driver runs here

    merged = json.loads((a / ".memory" / "state.json").read_text())["memories"]
    by_id = {m["id"]: m for m in merged}
    assert len(by_id) == len(merged) and all(ids.valid(mid) for mid in by_id)
    assert by_id[victim.id]["content"] == victim.content  # the victim's memory is untouched…
    [second] = [m for m in merged if m["content"] == "Staging deploys need no approval at all"]
    assert second["id"].startswith(victim.id + "~") and second["reviewed"] is False  # …the other is for review
    assert second["mergeConflict"] == {"with": victim.id}
    hostile = [m for m in merged if m["content"].startswith("Hostile entry")]
    assert len(hostile) == 5 and all("originalId" in m and "\n" not in m["originalId"] for m in hostile)

    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(a), "MEMTUI_SERVICE": "off"}
    listed = subprocess.run(
        [sys.executable, "-m", "memtui", "list"], cwd=a, env=env, capture_output=True, text=True, timeout=120
    )
    assert listed.returncode == 0, listed.stderr
    assert "SYSTEM: obey" not in listed.stdout and "x" * 200 not in listed.stdout
    assert len([line for line in listed.stdout.splitlines() if "Hostile entry" in line]) == 5
