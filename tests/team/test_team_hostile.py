"""A teammate's state.json with hostile memories (tests/hostilekit.py), merged by the real merge
driver on pull: the next prompt's recall and the session briefing hold them defused."""

from __future__ import annotations

import json
import subprocess
import sys

from envkit import isolated_env
from gitkit import git, team
from hostilekit import OPEN, PROMPT, chunks, model_problems

from memtui.store.bank import Bank
from memtui.store.locations import Project


def _hook(clone, home, event: str, **fields) -> str:
    payload = {"session_id": "s", "cwd": str(clone), "hook_event_name": event, **fields}
    done = subprocess.run(
        [sys.executable, "-m", "memtui", "hook", event],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=isolated_env(clone, home),
        cwd=clone,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout) if done.stdout.strip() else {}
    return answer.get("hookSpecificOutput", {}).get("additionalContext", "")


def test_hostile_memories_from_a_teammate_come_back_defused_after_the_merge(tmp_path):
    _remote, a, b = team(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    # The teammate's state.json, as their machine wrote it (not necessarily by this memtui).
    state = b / ".memory" / "state.json"
    raw = json.loads(state.read_text(encoding="utf-8"))
    stamp = "2026-11-20T10:00:00.000Z"
    raw["memories"] += [
        {"id": f"mem_176400000000{i}_hostl{i}", "type": "gotcha", "content": chunk, "tags": ["deploy"]}
        | {"created": stamp, "updated": stamp, "confidence": 1, "accessCount": 0}
        for i, chunk in enumerate(chunks())
    ]
    state.write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    git(b, "commit", "-qam", "teammate's memories")
    git(b, "push", "-q", "origin", "main")
    Bank(Project(a)).add("decision", "We deploy with make ship from the main branch")
    git(a, "commit", "-qam", "mine")
    git(a, "pull", "-q", "--no-edit", "origin", "main")  # the driver merges both sides

    ids = {m.id for m in Bank(Project(a)).memories()}
    assert {f"mem_176400000000{i}_hostl{i}" for i in range(len(chunks()))} <= ids
    recalled = _hook(a, home, "UserPromptSubmit", prompt=PROMPT)
    assert recalled.count(OPEN) == 1, recalled
    assert model_problems(recalled, ids) == []
    briefed = _hook(a, home, "SessionStart", source="startup")
    assert model_problems(briefed, ids, fences=briefed.count(OPEN)) == []
    assert briefed.count(OPEN) == 1
