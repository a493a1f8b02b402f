"""Every kind of secret through the CLI's ways in (add, edit, promote of a memory another tool
wrote) and out (journal, index, CLAUDE.md, MEMORY.md), then `memtui scan` and `--fix` on what was
stored in clear before memtui saw it, and `memtui undo` after the fix."""

from __future__ import annotations

import json

from secretkit import SECRETS, SENTENCES, batches, leaked


def places(project, home):
    return [project.memory_dir, project.root / "CLAUDE.md", project.root / ".claude", home / ".claude"]


def test_cli_paths_keep_every_secret_out_and_scan_fixes_what_was_stored_before(run, project, home):
    ids = []
    for text in batches():
        code, out, err = run("add", "-t", "context", text, "--json")
        assert code == 0, err
        ids.append(json.loads(out)["id"])
    code, _, err = run("edit", ids[0], "--text", batches()[-1], "--name", f"token {SECRETS['npm-token']}")
    assert code == 0, err

    # A memory Claude Code (or a person) wrote, with a key in it: memtui did not write it.
    local = project.root / ".claude" / "memory"
    local.mkdir(parents=True)
    foreign = local / "release-bot.md"
    foreign.write_text(
        "---\nname: release-bot\ndescription: how the release bot pushes\ntype: reference\n---\n\n"
        f"{SENTENCES['github-token']}\n",
        encoding="utf-8",
    )
    code, out, err = run("list", "--json")
    foreign_id = next(m["id"] for m in json.loads(out) if m.get("name") == "release-bot")
    code, _, err = run("promote", foreign_id, "state")
    assert code == 0, err
    assert code == 0
    assert run("render")[0] == 0
    assert run("search", "release bot")[0] == 0  # builds the index
    assert leaked(*places(project, home)) == []

    # Stored in clear before memtui saw it: scan reports it by memory and kind, never the value.
    foreign.write_text(
        f"---\nname: old-note\ndescription: an old note\ntype: reference\n---\n\n{SENTENCES['gitlab-token']}\n",
        encoding="utf-8",
    )
    state = project.path("state.json")
    data = json.loads(state.read_text(encoding="utf-8"))
    data["memories"][0]["content"] = SENTENCES["sendgrid-key"]
    state.write_text(json.dumps(data, indent=2), encoding="utf-8")
    assert run("search", "old note")[0] == 0
    code, out, err = run("scan")
    assert code == 1
    assert "gitlab-token" in out and "sendgrid-key" in out and data["memories"][0]["id"] in out
    index = list(project.memory_dir.glob("index.db*"))
    assert index and leaked(*index) == []  # the index never took the secrets in
    assert SECRETS["gitlab-token"] not in out + err and SECRETS["sendgrid-key"] not in out + err
    code, out, err = run("scan", "--json")
    report = json.loads(out)
    assert code == 1 and report["secrets"] == 2 and {m["store"] for m in report["memories"]} == {"state", "md:local"}

    code, out, err = run("scan", "--fix")
    assert code == 0, out + err
    assert leaked(*places(project, home)) == []
    assert "[REDACTED:gitlab-token]" in foreign.read_text(encoding="utf-8")
    assert run("scan") == (0, "memtui scan: no secrets stored\n", "")

    code, out, err = run("undo")
    assert code == 0, err
    assert leaked(*places(project, home)) == []  # undo restores the memories, not their secrets
    assert "[REDACTED:sendgrid-key]" in state.read_text(encoding="utf-8")


def test_short_passwords_never_reach_the_store_or_the_claude_md_block_and_scan_finds_old_ones(run, project):
    assert run("render")[0] == 0  # the committed CLAUDE.md block
    for text in ("PASSWORD=hunter2", "DB_PASSWORD=hunter2 on the reporting replica", "The admin password is hunter2"):
        code, _, err = run("add", "-t", "context", text)
        assert code == 0, err
    for path in (project.path("state.json"), project.root / "CLAUDE.md", project.path("journal.jsonl")):
        assert "hunter2" not in path.read_text(encoding="utf-8"), path
    state = project.path("state.json")
    data = json.loads(state.read_text(encoding="utf-8"))
    data["memories"][0]["content"] = "export PGPASSWORD=hunter2"  # stored in clear by an older version
    state.write_text(json.dumps(data, indent=2), encoding="utf-8")
    code, out, _ = run("scan")
    assert code == 1 and "password" in out and "hunter2" not in out
