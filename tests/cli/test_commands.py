"""Every command through the real subprocess: output, effects on disk, exit codes."""

from __future__ import annotations

import json

import pytest

from memtui.core.render_block import END, START


def _add(run, *args, input=None):
    code, out, err = run("add", "--json", *args, input=input)
    assert code == 0, err
    return json.loads(out)


def test_init(cli, tmp_path, home):
    repo = tmp_path / "fresh"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    env = {"HOME": str(home), "CLAUDE_PROJECT_DIR": ""}
    result = cli("init", "--name", "Ledger", "--description", "Billing service", cwd=repo / "src", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().startswith(f"Initialised {repo / '.memory'}")
    state = json.loads((repo / ".memory" / "state.json").read_text())
    assert (state["version"], state["project"], state["description"], state["memories"]) == (
        2,
        "Ledger",
        "Billing service",
        [],
    )
    assert "[claude_md]" in (repo / ".memory" / "config.toml").read_text()
    assert "journal.jsonl" in (repo / ".memory" / ".gitignore").read_text()
    assert not (repo / "CLAUDE.md").exists() and not (repo / "src" / ".memory").exists()
    again = cli("init", cwd=repo, env=env)
    assert again.returncode == 0 and again.stdout.decode().startswith("Already initialised")
    other = tmp_path / "explicit"
    made = cli("init", str(other), cwd=tmp_path, env=env)
    assert made.returncode == 0 and made.stdout.decode().startswith(f"Created {other}\n")
    assert (other / ".memory" / "state.json").exists()
    deep = tmp_path / "typo" / "deeper" / "project"
    refused = cli("init", str(deep), cwd=tmp_path, env=env)
    assert refused.returncode == 1 and "create it first" in refused.stderr.decode()
    assert not (tmp_path / "typo").exists()
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine\n")
    refused = cli("init", str(a_file), cwd=tmp_path, env=env)
    assert (
        refused.returncode == 1
        and "is a file" in refused.stderr.decode()
        and "Traceback" not in refused.stderr.decode()
    )


def test_add_from_arguments_and_stdin(run, project):
    first = _add(run, "--type", "decision", "--tags", "money, db", "Use", "integer", "cents")
    assert (first["type"], first["content"], first["tags"]) == ("decision", "Use integer cents", ["money", "db"])
    assert first["superseded"] == [] and first["reaffirmed"] is False and first["redacted"] == []
    piped = _add(run, "--type", "gotcha", input="Postgres listens on 5433\nin Docker Compose\n")
    assert piped["content"] == "Postgres listens on 5433\nin Docker Compose"
    again = _add(run, "--type", "decision", "use integer CENTS")
    assert again["reaffirmed"] is True and again["id"] == first["id"]
    missing = _add(
        run, "--type", "decision", "--supersedes", "nothing like this exists", "Invoices numbered per tenant"
    )
    assert missing["unmatched_supersede"] == "nothing like this exists"
    code, out, _ = run("add", "-t", "context", "Staging key sk-ant-api03-" + "x1Y2z3" * 6)
    assert code == 0 and "redacted: anthropic-key" in out
    ids = [m["id"] for m in json.loads(project.path("state.json").read_text())["memories"]]
    assert len(ids) == 4 and first["id"] in ids and piped["id"] in ids


def test_add_text_output_reports_supersede(run):
    _add(
        run,
        "-t",
        "gotcha",
        "Docker Compose Postgres listens on port 5433 not 5432 to avoid clashing with a local install",
    )
    code, out, _ = run(
        "add",
        "-t",
        "gotcha",
        "Docker Compose Postgres listens on port 5433 not 5432 to avoid clashes with the local install",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("Saved mem_") and lines[0].endswith("(gotcha)")
    assert lines[1].startswith("  supersedes mem_")
    code, out, _ = run("add", "-t", "gotcha", "--supersedes", "zzz qqq", "Totally different thing")
    assert "note: nothing matched --supersedes 'zzz qqq'; saved as a new memory" in out


def test_list_filters_and_json(run):
    a = _add(run, "-t", "decision", "Use integer cents for money")
    b = _add(run, "-t", "gotcha", "Postgres listens on 5433")
    c = _add(run, "-t", "gotcha", "Celery tasks take ids, not ORM objects")
    assert run("drop", c["id"])[0] == 0

    def listed(*args):
        code, out, err = run("list", "--json", *args)
        assert code == 0, err
        return [m["id"] for m in json.loads(out)]

    assert listed() == [a["id"], b["id"]]  # active, in type order
    assert listed("--type", "gotcha") == [b["id"]]
    assert listed("--status", "archived") == [c["id"]]
    assert set(listed("--status", "all")) == {a["id"], b["id"], c["id"]}
    code, out, _ = run("list", "--json")
    item = json.loads(out)[0]
    assert set(item) == {
        "id",
        "type",
        "name",
        "description",
        "content",
        "tags",
        "status",
        "confidence",
        "access_count",
        "created",
        "updated",
        "age_days",
        "freshness",
        "supersedes",
        "merged_from",
        "source",
        "provenance",
        "reviewed",
        "questions",
        "valid_until",
        "valid_from",
        "expired",
        "store",
        "scope",
        "path",
    }
    code, out, _ = run("list")
    assert code == 0 and a["id"] in out and "decision" in out and c["id"] not in out
    code, out, _ = run("list", "--status", "archived")
    assert "[archived]" in out
    code, out, err = run("list", "--type", "decison")
    assert code == 1 and out == "" and "unknown type 'decison'; did you mean 'decision'?" in err
    code, out, _ = run("list", "--type", "pattern")
    assert out.strip() == "no memories match"


def test_list_empty(run):
    code, out, _ = run("list")
    assert code == 0 and "no memories yet" in out


def test_show(run):
    memory = _add(run, "-t", "decision", "--tags", "money", "--name", "Cents", "Use integer cents for money")
    code, out, _ = run("show", memory["id"][-6:])  # a unique suffix
    assert code == 0
    assert out.startswith(f"{memory['id']}  (decision, active, state)")
    assert (
        "name:        Cents" in out
        and "tags:        money" in out
        and out.rstrip().endswith("Use integer cents for money")
    )
    code, out, _ = run("show", "--json", memory["id"])
    assert json.loads(out)["content"] == "Use integer cents for money"


def test_touch_drop_restore_undo_edit(run):
    memory = _add(run, "-t", "progress", "Refunds API done")
    mid = memory["id"]
    assert run("touch", mid)[1] == f"Touched {mid}\n"
    assert run("drop", mid)[1] == f"Dropped {mid}\n"
    assert json.loads(run("show", "--json", mid)[1])["status"] == "archived"
    assert run("restore", mid)[1] == f"Restored {mid}\n"
    assert json.loads(run("show", "--json", mid)[1])["status"] == "active"
    code, out, _ = run("undo")
    assert code == 0 and out.startswith("Undid #4: restore")
    assert json.loads(run("show", "--json", mid)[1])["status"] == "archived"
    code, out, _ = run("edit", mid, "--text", "Refunds API and worker done", "--tags", "refunds")
    assert code == 0 and out == f"Updated {mid}\n"
    shown = json.loads(run("show", "--json", mid)[1])
    assert (shown["content"], shown["tags"]) == ("Refunds API and worker done", ["refunds"])


def test_render_check_diff_print(run, project):
    claude = project.root / "CLAUDE.md"
    claude.write_text("# Team notes\n")
    _add(run, "-t", "decision", "Use integer cents for money")
    code, out, _ = run("render", "--check")
    assert code == 1 and out.startswith("out of date:") and "memtui render" in out
    code, out, _ = run("render", "--diff")
    assert (
        code == 0 and out.startswith("--- a/CLAUDE.md\n+++ b/CLAUDE.md\n") and "+- Use integer cents for money" in out
    )
    assert claude.read_text() == "# Team notes\n"  # --diff and --check write nothing
    code, out, _ = run("render", "--print")
    assert code == 0 and out.startswith(START) and out.rstrip().endswith(END)
    code, out, _ = run("render")
    assert code == 0 and out.startswith(f"Wrote {claude}")
    assert claude.read_text().startswith("# Team notes\n\n" + START)
    code, out, _ = run("render", "--check")
    assert code == 0 and "up to date" in out
    assert run("render", "--diff")[1] == ""


def test_status(run, project):
    _add(run, "-t", "decision", "Use integer cents for money")
    code, out, _ = run("status")
    assert code == 0 and f"project      {project.root}" in out and "state" in out and "1 active" in out
    code, out, _ = run("status", "--json")
    status = json.loads(out)
    assert status["stores"]["state"]["active"] == 1 and status["stores"]["state"]["by_type"] == {"decision": 1}
    assert status["claude_md"]["installed"] is False


def test_merge_and_promote(run, project):
    a = _add(run, "-t", "gotcha", "Celery tasks take ids")
    b = _add(run, "-t", "gotcha", "Pickled ORM objects detach")
    code, out, _ = run("merge", a["id"], b["id"], "--text", "Pass ids to Celery: pickled ORM objects detach")
    assert code == 0 and out.startswith("Merged 2 memories into mem_")
    merged = json.loads(run("list", "--json")[1])
    assert len(merged) == 1 and merged[0]["merged_from"] == [a["id"], b["id"]]
    code, out, _ = run("promote", merged[0]["id"], "local")
    assert code == 0 and "md:local" in out
    assert (project.root / ".claude" / "memory" / "MEMORY.md").exists()


def test_demo_print(cli, tmp_path, home):
    target = tmp_path / "demo"
    result = cli(
        "demo", "--print", "--dir", str(target), cwd=tmp_path, env={"HOME": str(home), "CLAUDE_PROJECT_DIR": ""}
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert out.startswith(f"Demo project: {target}")
    assert "md:local" in out and "[superseded]" in out and "[archived]" in out and "[new]" in out
    assert START in (target / ".memory" / ".." / "CLAUDE.md").read_text()
    assert (target / ".claude" / "memory" / "MEMORY.md").exists()
    assert not (home / ".claude").exists()  # the demo keeps its Claude config inside its own directory
    again = cli(
        "demo", "--print", "--dir", str(target), cwd=tmp_path, env={"HOME": str(home), "CLAUDE_PROJECT_DIR": ""}
    )
    assert again.returncode == 0 and again.stdout.decode().count("Demo project") == 1


def test_dash_c_runs_on_another_project(cli, tmp_path, home, project):
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    env = {"HOME": str(home)}
    assert cli("init", str(other), cwd=tmp_path, env=env).returncode == 0
    result = cli("-C", str(other), "add", "-t", "decision", "Only in the other project", cwd=tmp_path, env=env)
    assert result.returncode == 0
    assert "Only in the other project" in (other / ".memory" / "state.json").read_text()
    assert "Only in the other project" not in project.path("state.json").read_text()


@pytest.mark.parametrize(
    ("args", "input", "code", "needle"),
    [
        (("add", "-t", "gotcha"), b"caf\xe9 au lait", 1, "standard input is not UTF-8"),
        (("add", "-t", "gotcha"), b"   \n", 1, "the memory is empty"),
        (("show", "mem_0_nosuch"), None, 1, "no memory 'mem_0_nosuch'"),
        (("touch", "nosuch"), None, 1, "`memtui list` shows the ids"),
        (("drop", "nosuch"), None, 1, "no memory"),
        (("undo",), None, 1, "nothing to undo"),
        (("promote", "x", "nowhere"), None, 1, "no memory"),
        (("list", "--status", "bogus"), None, 2, "invalid choice"),
        (("add", "no type given"), None, 2, "--type"),
        (("frobnicate",), None, 2, "invalid choice"),
    ],
    ids=[
        "non-utf8-stdin",
        "empty-stdin",
        "show-unknown",
        "touch-unknown",
        "drop-unknown",
        "undo-nothing",
        "promote-unknown",
        "bad-status",
        "missing-type",
        "unknown-command",
    ],
)
def test_bad_input_gets_one_line_and_an_exit_code(run, args, input, code, needle):
    result = run(*args, input=input)
    assert result[0] == code
    assert "Traceback" not in result[2] and needle in result[2]
    if code == 1:
        assert result[2].startswith("memtui: ") and result[2].count("\n") == 1


@pytest.mark.parametrize(
    "args", [("list",), ("status",), ("add", "-t", "gotcha", "x"), ("render",), ("undo",), ("repair",)]
)
def test_no_project_is_one_line_and_creates_nothing(cli, tmp_path, home, args):
    loose = tmp_path / "loose"
    (loose / ".git").mkdir(parents=True)
    before = sorted(tmp_path.rglob("*"))
    result = cli(*args, cwd=loose, env={"HOME": str(home), "CLAUDE_PROJECT_DIR": ""})
    err = result.stderr.decode()
    assert result.returncode == 1 and err.count("\n") == 1 and "run `memtui init`" in err and "Traceback" not in err
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize(
    ("setup", "needle"),
    [
        (lambda p: p.path("state.json").write_bytes(b"{not json"), "memtui repair"),
        (lambda p: p.path("config.toml").write_text("[types.progress]\nlifetime_days = 'x'\n"), "config.toml"),
        (lambda p: (p.root / "CLAUDE.md").write_text(f"{START}\nno end\n"), "exactly one pair"),
        (lambda p: (p.root / "CLAUDE.md").write_bytes(b"\xff\xfe bad"), "not UTF-8"),
    ],
    ids=["corrupt-state", "bad-config", "broken-markers", "claude-md-not-utf8"],
)
def test_broken_files_are_one_line_errors(run, project, setup, needle):
    setup(project)
    code, _, err = run("render")
    assert code == 1 and needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_short_non_latin_and_template_notes_are_all_kept(run, project):
    """Issue 14.1, as reported: each of these was thrown away as a "duplicate" of the one before."""
    pairs = [
        ("decision", "Use uv"),
        ("decision", "CI: go 1.22"),
        ("decision", "日本語のドキュメントは docs/ja にある"),
        ("decision", "ドイツ語のドキュメントは docs/de にある"),
    ]
    pairs += [("context", f"service {name} listens on {8000 + n}") for n, name in enumerate("ABCDEFGHIJKLMNO", 1)]
    for type_, text in pairs:
        saved = _add(run, "--type", type_, text)
        assert not saved["reaffirmed"] and saved["superseded"] == [], text
    active = [
        m
        for m in json.loads(project.path("state.json").read_text())["memories"]
        if not {"superseded", "archived"} & set(m["tags"])
    ]
    assert sorted(m["content"] for m in active) == sorted(text for _, text in pairs)


def test_add_drops_private_spans(run, project):
    saved = _add(
        run, "--type", "decision", "Use the shared staging account <private>password hunter22</private> for demos"
    )
    assert saved["content"].startswith("Use the shared staging account") and saved["content"].endswith("for demos")
    assert "hunter22" not in saved["content"] and "private" in saved["redacted"]
    assert "hunter22" not in project.path("state.json").read_text()
    assert "hunter22" not in project.path("journal.jsonl").read_text()


def test_a_reversed_decision_supersedes_the_old_one(run):
    code, first, _ = run("add", "--type", "decision", "--json", "Use tabs, not spaces, for indentation")
    old = json.loads(first)["id"]
    code, out, _ = run("add", "--type", "decision", "Use spaces, not tabs, for indentation")
    assert code == 0 and out.startswith("Saved ") and f"supersedes {old}" in out and "Re-affirmed" not in out
    active = json.loads(run("list", "--json")[1])
    assert [m["content"] for m in active] == ["Use spaces, not tabs, for indentation"]
    assert active[0]["supersedes"] == old


def test_hook_without_an_event_prints_usage_at_once(cli, project):
    import subprocess
    import sys

    started = subprocess.Popen(
        [sys.executable, "-m", "memtui", "hook"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        out, err = started.communicate(timeout=4)  # stdin left open, as at a terminal: it must not wait on it
    finally:
        started.kill()
    assert (
        started.returncode == 0 and out == b"" and err.startswith(b"usage: memtui hook [--agent NAME] EVENT")
    )  # hooks exit 0
    helped = cli("hook", "--help")
    assert helped.returncode == 0 and b"SessionStart" in helped.stdout


def test_ask_without_a_question_at_a_terminal_prints_usage(project):
    import os
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "memtui", "ask"], stdin=follower, capture_output=True, timeout=30, env=os.environ
        )
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 2 and done.stderr.startswith(b"usage: memtui ask")


@pytest.mark.parametrize("command", ["ask", "search"])
@pytest.mark.parametrize("given", [[], ["   "]], ids=["nothing", "blank words"])
def test_ask_and_search_with_nothing_to_work_on_print_usage_and_exit_2(project, cli, command, given):
    """No words and an empty standard input (a script's `memtui search < /dev/null`) is a usage error,
    never "no memories match" with exit 0 nor a bare exit 1."""
    done = cli(command, *given, cwd=project.root, input=b"")
    err = done.stderr.decode().splitlines()
    assert done.returncode == 2, done
    assert err[0].startswith(f"usage: memtui {command}") and len(err) == 2 and err[1].startswith("memtui: ")


def test_a_json_command_that_cannot_run_answers_with_a_json_error(run):
    code, out, err = run("consolidate", "--json")
    assert code == 1 and len(err.strip().splitlines()) == 1
    answer = json.loads(out)
    assert answer["error"].startswith("no model") and "ANTHROPIC_API_KEY" in answer["fix"]
    code, out, _ = run("show", "mem_nosuchid", "--json")
    assert code == 1 and "mem_nosuchid" in json.loads(out)["error"]


def test_merge_without_text_joins_as_the_tui_does(run):
    a = _add(run, "-t", "gotcha", "--tags", "celery,orm", "Celery tasks take ids")
    b = _add(run, "-t", "gotcha", "--tags", "orm,pickle", "Pickled ORM objects detach")
    assert run("merge", a["id"], b["id"])[0] == 0
    merged = json.loads(run("list", "--json")[1])[0]
    assert merged["content"] == "Celery tasks take ids\n\nPickled ORM objects detach"
    assert merged["tags"] == ["celery", "orm", "pickle"]  # the TUI's merge screen starts from the same


def test_ctrl_c_says_nothing_was_half_written_and_exits_130(project):
    """Ctrl-C (SIGINT) while a command waits is a line that says what was kept, not a bare exit."""
    import os
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "memtui", "search"], cwd=project.root, stdin=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # until it blocks reading its words from standard input
            with open(f"/proc/{proc.pid}/syscall") as syscall:
                if syscall.read().split()[:2] in (["0", "0x0"], ["63", "0x0"]):  # read(0, …): x86_64, arm64
                    break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill() if proc.poll() is None else None
    assert proc.returncode == 130
    assert err.decode().splitlines() == [
        "memtui: interrupted; every change that finished is saved, nothing is half-written"
    ]
    assert os.path.exists(project.root / ".memory" / "state.json")


def test_every_commands_help_fits_a_terminal(cli):
    """--help is read in a terminal: no line of any command's help runs past 100 columns (argparse
    wraps options; descriptions and epilogs that are kept raw must be wrapped by the command)."""
    import re

    top = cli("--help").stdout.decode()
    names = sorted(set(re.findall(r"^    ([a-z][a-z-]+)", top, re.M)))
    assert "setup" in names and "search" in names
    long = {}
    for name in names:
        for line in cli(name, "--help").stdout.decode().splitlines():
            if len(line) > 100:
                long.setdefault(name, []).append(len(line))
    assert not long, long
