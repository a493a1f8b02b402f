"""End to end with the real Claude Code CLI, offline against the fake Messages API.

`memtui init && memtui setup` in a fresh git repository, then real `claude -p` sessions: the
first asks to remember something; capture runs in the background; the second session's request
to the model carries the memory in the hooks' context; `claude mcp list` reports our server
connected; a scripted model turn calls `mcp__memtui__memory_search` and gets the memory back.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2ekit import wait_for_capture
from factkit import FACTS

fakeapi = pytest.importorskip("fakeapi", reason="tests/fakeapi.py (the fake Messages API) is not in this checkout")


def claude_binary() -> str | None:
    configured = os.environ.get("MEMTUI_CLAUDE_BIN")
    if configured:
        return configured if Path(configured).exists() else None
    try:
        import claude_agent_sdk
    except ImportError:
        return shutil.which("claude")
    bundled = Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude"
    return str(bundled) if bundled.exists() else shutil.which("claude")


CLAUDE = claude_binary()
pytestmark = pytest.mark.skipif(
    CLAUDE is None, reason="no Claude Code CLI: install claude-agent-sdk (it bundles one) or set MEMTUI_CLAUDE_BIN"
)
SEARCH_PROMPT = "Please search memory for how we deploy"


def respond(request):
    """The model's side: memtui's own extraction calls get no new memories; Claude Code's turns get
    a short answer, except that a prompt asking to search memory gets a memory_search tool call."""
    if request.tool_name:
        return fakeapi.tool({"memories": []})
    messages = request.body.get("messages") or []
    last = messages[-1].get("content") if messages else None
    if isinstance(last, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in last):
        return fakeapi.text("Done.")
    if SEARCH_PROMPT in request.prompt_text:
        return fakeapi.tool({"query": "deploy"}, name="mcp__memtui__memory_search")
    return fakeapi.text("Okay.")


@pytest.fixture
def world(tmp_path):
    api = fakeapi.start_fake_api(default=respond)
    home = tmp_path / "home"
    home.mkdir()
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(api.env(), HOME=str(home), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
    yield api, home, repo, env
    api.close()
    from memtui.runtime import service as control
    from memtui.store.locations import Project

    control.stop(Project(repo.resolve()))  # the SessionStart hooks started one: it leaves with the test


def memtui(*args: str, repo: Path, env: dict) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "memtui", *args], cwd=repo, env=env, capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr.decode()
    return result


def claude(*args: str, repo: Path, env: dict, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CLAUDE, *args], cwd=repo, env=env, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL
    )


def ask(prompt: str, repo: Path, env: dict) -> dict:
    result = claude("-p", prompt, "--model", "claude-haiku-4-5", "--output-format", "json", repo=repo, env=env)
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    answer = json.loads(result.stdout)
    assert answer["is_error"] is False, answer
    return answer


def trust(home: Path, repo: Path) -> None:
    """What accepting Claude Code's trust dialog once records; until then it ignores the project's
    permission rules (and says so), as it would for any freshly cloned repository."""
    path = home / ".claude.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault("projects", {}).setdefault(str(repo), {})["hasTrustDialogAccepted"] = True
    path.write_text(json.dumps(data, indent=2))


def conversation(request) -> str:
    return json.dumps(request.body.get("messages") or [])


def test_remember_recall_and_search_through_claude_code(world):
    api, home, repo, env = world
    memtui("init", repo=repo, env=env)
    memtui("setup", repo=repo, env=env)
    trust(home, repo)

    # Session 1: an explicit request to remember.
    ask("remember that we deploy with `make ship`", repo, env)
    wait_for_capture(repo)
    from memtui.store.bank import Bank
    from memtui.store.locations import Project

    memories = Bank(Project(repo), env=env).memories()
    assert [m for m in memories if "make ship" in m.content], memories
    worker_log = (repo / ".memory" / "logs" / "worker.log").read_text()
    # One short turn is not worth a call at its Stop: the session's end captured it, in the background.
    assert " SessionEnd " in worker_log and " Stop " not in worker_log and "exiting after" in worker_log
    assert any(r.tool_name for r in api.messages())  # …and called the (fake) model to extract
    status = json.loads((repo / ".memory" / "status.json").read_text())
    assert status["lastRun"]["ok"] is True

    # Session 2: the memory reaches the model through the hooks.
    api.clear()
    ask("How do we ship this project to production again?", repo, env)
    turns = [r for r in api.messages() if not r.tool_name]
    assert turns
    first = conversation(turns[0])
    assert "hook additional context: <recalled-memories" in first
    assert "make ship" in first and "not instructions" in first
    wait_for_capture(repo)

    # Claude Code itself connects to our MCP server.
    listed = claude("mcp", "list", repo=repo, env=env, timeout=60)
    line = next((ln for ln in listed.stdout.decode().splitlines() if ln.startswith("memtui:")), "")
    assert "✔ Connected" in line, listed.stdout.decode() + listed.stderr.decode()

    # Session 3: the model calls memory_search; the tool result carries the memory.
    api.clear()
    ask(SEARCH_PROMPT, repo, env)
    turns = [r for r in api.messages() if not r.tool_name]
    tools = {t.get("name") for t in turns[0].body.get("tools") or []}
    assert "mcp__memtui__memory_search" in tools  # alwaysLoad: schemas sent up front, not deferred
    results = [
        b
        for r in turns
        for m in r.body["messages"]
        if isinstance(m.get("content"), list)
        for b in m["content"]
        if isinstance(b, dict) and b.get("type") == "tool_result"
    ]
    assert results, "Claude Code never returned a tool result"
    text = json.dumps(results[-1])
    assert "make ship" in text and 'is_error": true' not in text
    wait_for_capture(repo)


def test_plugin_manifest_validates(tmp_path):
    repo_root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "HOME": str(tmp_path), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    env.pop("CLAUDE_CONFIG_DIR", None)
    result = subprocess.run([CLAUDE, "plugin", "validate", str(repo_root)], capture_output=True, timeout=60, env=env)
    out = result.stdout.decode() + result.stderr.decode()
    assert result.returncode == 0, out
    assert "Validation passed" in out
    for event in (
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "Stop",
        "SubagentStop",
        "PreCompact",
        "SessionEnd",
        "Notification",
    ):
        assert f'command "memtui hook {event} --plugin"' in out
    assert 'memtui stdio memtui ["mcp","--plugin"]' in out.replace(", ", ",")


def test_plugin_and_setup_together_recall_and_capture_once(world):
    """Issue 14.4: `--plugin-dir` in a project that also ran `memtui setup`: one recalled block,
    one set of memtui tools, one capture job per turn."""
    api, home, repo, env = world
    memtui("init", repo=repo, env=env)
    memtui("setup", repo=repo, env=env)
    trust(home, repo)
    memtui("add", "--type", "decision", "We deploy with make ship from the main branch", repo=repo, env=env)
    env = {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"}
    plugin = Path(__file__).resolve().parents[2]
    result = claude(
        "-p",
        "How do we deploy to production with make?",
        "--plugin-dir",
        str(plugin),
        "--model",
        "claude-haiku-4-5",
        "--output-format",
        "json",
        repo=repo,
        env=env,
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    [turn] = [r for r in api.messages() if not r.tool_name]
    assert conversation(turn).count("hook additional context: <recalled-memories") == 1
    tools = [t.get("name") for t in turn.body.get("tools") or []]
    assert sum(name.endswith("__memory_search") for name in tools) == 1, tools
    wait_for_capture(repo)
    log = (repo / ".memory" / "logs" / "worker.log").read_text()
    assert log.count(" SessionEnd ") == 1, log  # one capture job (a short turn's Stop queues none)


def test_the_repository_works_as_a_plugin(world):
    """`claude --plugin-dir <this repo>`: the plugin's hooks (memtui on PATH) recall, its server loads."""
    api, _home, repo, env = world
    memtui("init", repo=repo, env=env)
    memtui("add", "--type", "decision", "We deploy with make ship from the main branch", repo=repo, env=env)
    env = {**env, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"}
    plugin = Path(__file__).resolve().parents[2]
    result = claude(
        "-p",
        "How do we deploy to production with make?",
        "--plugin-dir",
        str(plugin),
        "--model",
        "claude-haiku-4-5",
        "--output-format",
        "json",
        repo=repo,
        env=env,
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    [turn] = [r for r in api.messages() if not r.tool_name]
    assert "hook additional context: <recalled-memories" in conversation(turn) and "make ship" in conversation(turn)
    tools = {t.get("name") for t in turn.body.get("tools") or []}
    assert "mcp__plugin_memtui_memtui__memory_search" in tools
    wait_for_capture(repo)


#: Shares no content word with the Timezones memory: only the recall service's model can find it.
PARAPHRASE = "what time zone should dates be saved in?"


def test_a_paraphrase_is_recalled_through_the_warm_service(world):
    """Session 1 starts the recall service (SessionStart); the second prompt, a paraphrase, is
    answered by it with the memory no word of the prompt matches."""
    from memtui.index import remote
    from memtui.runtime import service as control
    from memtui.store.bank import Bank
    from memtui.store.locations import Project

    api, home, repo, env = world
    memtui("init", repo=repo, env=env)
    memtui("setup", repo=repo, env=env)
    trust(home, repo)
    config = repo / ".memory" / "config.toml"
    config.write_text(config.read_text() + "\n[hooks]\nbriefing_bytes = 0\n")  # recall, not the briefing, must find it
    project = Project(repo)
    bank = Bank(project, env=env)
    for type_, text in FACTS:
        bank.add(type_, text)
    try:
        ask("hello", repo, env)
        deadline = time.monotonic() + 60
        while remote.ping(str(repo.resolve()), budget=1.0) is None:
            assert time.monotonic() < deadline, "the SessionStart hook did not start the recall service"
            time.sleep(0.2)
        api.clear()
        result = claude(
            "-p", PARAPHRASE, "--continue", "--model", "claude-haiku-4-5", "--output-format", "json", repo=repo, env=env
        )
        assert result.returncode == 0, result.stderr.decode()[-2000:]
        turns = [r for r in api.messages() if not r.tool_name]
        first = conversation(turns[0])
        assert "hook additional context: <recalled-memories" in first
        assert "store UTC in Postgres" in first
        assert remote.ping(str(repo.resolve()))["requests"] >= 2  # the service answered the hooks
    finally:
        control.stop(project)
        wait_for_capture(repo)


def test_a_forked_session_is_not_captured_twice(world):
    """Issue 14.5: `claude --resume <id> --fork-session` copies the parent's records into the new
    session; the extraction for the fork sees only what the fork added."""
    api, home, repo, env = world
    memtui("init", repo=repo, env=env)
    memtui("setup", repo=repo, env=env)
    trust(home, repo)
    parent = ask("We chose Redis for the job queue because Celery already needs it", repo, env)
    wait_for_capture(repo)
    assert any("We chose Redis" in r.prompt_text for r in api.messages() if r.tool_name)
    api.clear()
    result = claude(
        "-p",
        "Also note the staging database is reset every Sunday night",
        "--resume",
        parent["session_id"],
        "--fork-session",
        "--model",
        "claude-haiku-4-5",
        "--output-format",
        "json",
        repo=repo,
        env=env,
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    fork = json.loads(result.stdout)["session_id"]
    assert fork != parent["session_id"]
    wait_for_capture(repo)
    extractions = [r.prompt_text.split("<transcript>")[-1] for r in api.messages() if r.tool_name]
    assert extractions and any("staging database is reset" in e for e in extractions)
    assert not any("We chose Redis" in e for e in extractions)


def test_the_first_request_holds_each_auto_memory_line_once(world):
    """memtui's block, its briefing and Claude Code's own MEMORY.md together: no line twice."""
    api, home, repo, env = world
    memtui("init", repo=repo, env=env)
    memtui("setup", repo=repo, env=env)
    trust(home, repo)
    from memtui.store.locations import sanitize

    folder = home / ".claude" / "projects" / sanitize(str(repo)) / "memory"
    folder.mkdir(parents=True)
    said = [
        "We ship with make ship from the main branch",
        "The staging database is reset every night at two",
        "Integration tests need the docker compose stack up",
    ]
    lines = []
    for i, text in enumerate(said):
        (folder / f"project_fact{i}.md").write_text(
            f"---\nname: fact{i}\ndescription: {text}\ntype: project\n---\n\nMore about fact {i}.\n", encoding="utf-8"
        )
        lines.append(f"- [fact{i}](project_fact{i}.md) — {text}")
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    memtui("add", "-t", "decision", "Money is kept in integer cents", repo=repo, env=env)
    memtui("render", repo=repo, env=env)  # memtui's block in CLAUDE.md

    ask("What should I look at first in this project?", repo, env)
    first = json.dumps(next(r for r in api.messages() if not r.tool_name).body)
    assert "integer cents" in first  # memtui's block reached the model
    for text in said:
        assert first.count(text) == 1, text
    wait_for_capture(repo)
