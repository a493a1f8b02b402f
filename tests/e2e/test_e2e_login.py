"""A Claude subscriber with no API key: capture, recall and status through their own Claude Code login.

The real Claude Code CLI (the one claude-agent-sdk bundles), on PATH as `claude`, signed in the way
a logged-in CLI is and memtui cannot see (an `apiKeyHelper` in the isolated HOME's settings), its
requests going to the fake Messages API. memtui is set up per project, globally and as a plugin;
no ANTHROPIC_API_KEY is visible to memtui's processes, so `auto` must pick `claude-code` itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from claudekit import bundled_claude, sign_in
from e2ekit import wait_for_capture

fakeapi = pytest.importorskip("fakeapi")
pytestmark = pytest.mark.skipif(not bundled_claude().exists(), reason="claude-agent-sdk bundles no Claude Code CLI")

FACT = "We deploy with make ship from the main branch"
REPO = Path(__file__).resolve().parents[2]


def respond(request):
    """memtui's extraction (Claude Code's one StructuredOutput tool) gets the fact; every other turn a short answer."""
    if request.tool_name == "StructuredOutput":
        return fakeapi.tool({"memories": [{"type": "decision", "content": FACT, "tags": ["deploy"]}]})
    return fakeapi.text("Okay.")


@pytest.fixture
def subscriber(tmp_path):
    api = fakeapi.start_fake_api(default=respond)
    home, repo, bin_dir = tmp_path / "home", tmp_path / "repo", tmp_path / "bin"
    for folder in (home, repo, bin_dir):
        folder.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (bin_dir / "claude").symlink_to(bundled_claude())  # installed, on PATH, as a person has it
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_"))}
    env.update(sign_in(home, api.url), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
    env.pop("MEMTUI_CLAUDE")  # found on PATH, as a person's is
    env["PATH"] = f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    # A hook of the person's own, in their user settings: it records every event that fires, and where.
    fired = tmp_path / "fired.txt"
    settings_path = home / ".claude" / "settings.json"
    settings = json.loads(settings_path.read_text())
    record = (
        f'{sys.executable} -c "import json,sys; d=json.load(sys.stdin); '
        f"open({str(fired)!r},'a').write(d['hook_event_name']+' '+d.get('cwd','')+'\\n')\""
    )
    settings["hooks"] = {
        event: [{"hooks": [{"type": "command", "command": record}]}]
        for event in ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")
    }
    settings_path.write_text(json.dumps(settings, indent=2))
    yield api, home, repo, env, fired
    api.close()
    from memtui.runtime import service as control
    from memtui.store.locations import Project

    control.stop(Project(repo.resolve()))


def run(args: list[str], repo: Path, env: dict, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=repo, env=env, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)


def test_a_subscriber_without_a_key_gets_capture_recall_and_status(subscriber):
    api, home, repo, env, fired = subscriber
    memtui = [sys.executable, "-m", "memtui"]
    assert run([*memtui, "init"], repo, env).returncode == 0
    setup = run([*memtui, "setup"], repo, env)
    assert setup.returncode == 0, setup.stderr.decode()
    assert "your Claude Code login" in setup.stdout.decode()  # setup says what capture will use
    assert run([*memtui, "setup", "--global"], repo, env).returncode == 0
    trust = home / ".claude.json"
    data = json.loads(trust.read_text()) if trust.exists() else {}
    data.setdefault("projects", {}).setdefault(str(repo), {})["hasTrustDialogAccepted"] = True
    trust.write_text(json.dumps(data))

    # Session 1 (with memtui also loaded as a plugin): the turn ends, the worker extracts through claude-code.
    session = run(
        ["claude", "-p", "We decided to deploy with make ship.", "--plugin-dir", str(REPO), "--output-format", "json"],
        repo,
        env,
    )
    assert session.returncode == 0, session.stderr.decode()[-2000:]
    wait_for_capture(repo, timeout=60)
    from memtui.store.bank import Bank
    from memtui.store.locations import Project

    saved = [m for m in Bank(Project(repo), env=env).memories() if m.content == FACT]
    assert saved and not saved[0].reviewed and saved[0].source and saved[0].source.event in ("Stop", "SessionEnd")

    # The nested run: our system prompt, no tool but the structured answer, no MCP server.
    nested = [r for r in api.messages() if r.tool_name == "StructuredOutput"]
    assert nested, [r.body.get("tools") for r in api.messages()]
    assert "memor" in nested[0].system_text and [t["name"] for t in nested[0].body["tools"]] == ["StructuredOutput"]
    assert not any("mcp__" in json.dumps(r.body.get("tools")) for r in nested)

    # No hook fired inside it (the person's own hook saw only the real session), no session kept.
    runs = Path(env.get("XDG_CACHE_HOME") or home / ".cache") / "memtui" / "model-runs"
    lines = fired.read_text().splitlines()
    assert lines and all(str(repo) in line for line in lines), lines
    assert not any(str(runs) in line for line in lines)
    from memtui.store.locations import sanitize

    assert not (home / ".claude" / "projects" / sanitize(str(runs))).exists()  # nothing to --resume
    usage = [json.loads(line) for line in (repo / ".memory" / "usage.jsonl").read_text().splitlines()]
    assert usage and all(u.get("backend") == "claude-code" and u["input"] > 0 for u in usage)

    # Session 2 recalls it; status names the backend and today's use.
    api.clear()
    again = run(["claude", "-p", "How do we deploy this again?", "--output-format", "json"], repo, env)
    assert again.returncode == 0
    turns = [r for r in api.messages() if r.tool_name != "StructuredOutput"]
    assert FACT in json.dumps(turns[0].body.get("messages"))
    wait_for_capture(repo, timeout=60)
    status = run([*memtui, "status"], repo, env)
    text = status.stdout.decode()
    assert "via your Claude Code login" in text and "calls" in text and "to switch it off" in text
