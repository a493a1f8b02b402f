"""`memtui show` and `--json` say which agent's session a memory came from."""

from __future__ import annotations

import json

from memtui.core.memory import Source
from memtui.store.bank import Bank


def _saved(project, source: Source | None) -> str:
    return Bank(project).add("gotcha", f"A fact captured from {source}", source=source).memory.id


def test_show_names_the_agent_and_json_carries_it(run, project):
    mid = _saved(project, Source("s-0123456789abcdef", "Stop", agent="codex"))
    code, out, _ = run("show", mid)
    assert code == 0 and "written by:  Codex CLI, " in out and "session:     s-0123456789abcdef (Stop)\n" in out
    code, out, _ = run("show", "--json", mid)
    source = json.loads(out)["source"]
    assert {k: v for k, v in source.items() if v} == {
        "session": "s-0123456789abcdef",
        "event": "Stop",
        "agent": "codex",
    }
    assert json.loads(out)["provenance"]["by"] == "Codex CLI"
    code, out, _ = run("list", "--json")
    assert [m["source"]["agent"] for m in json.loads(out)] == ["codex"]


def test_a_memory_from_before_agents_were_recorded_shows_no_agent(run, project):
    mid = _saved(project, Source("s-0123456789abcdef", "PreCompact"))
    code, out, _ = run("show", mid)
    assert code == 0 and "written by:  an agent, " in out and "session:     s-0123456789abcdef (PreCompact)\n" in out
    _, out, _ = run("show", "--json", mid)
    assert json.loads(out)["source"]["agent"] is None


def test_a_merge_of_one_agents_memories_shows_that_agent_alone(run, project):
    bank = Bank(project)
    ids = [_saved(project, Source(f"s-{n}", "Stop", agent="codex")) for n in (1, 2)]
    merged = bank.merge(ids, "Both facts at once")
    _, out, _ = run("show", merged.id)
    assert "written by:  Codex CLI, " in out
