"""Hooks run as Claude Code runs them: a fresh `python -m memtui hook <Event>` fed JSON on stdin.

`payload()` builds the shapes captured from Claude Code 2.1.330 (claude-code-contracts.md §1.2);
`hook()` runs one and checks the contract every hook keeps whatever it was fed: exit 0, stdout
empty or exactly one JSON object.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from envkit import isolated_env

TRANSCRIPT = Path(__file__).resolve().parent / "data" / "transcripts" / "captured-2.1.330.jsonl"
SESSION = "83173cbb-9f0e-4a51-8a34-0c1d2e3f4a5b"


def payload(event: str, root: Path, *, session: str = SESSION, transcript: str | None = None, **extra: Any) -> dict:
    base: dict[str, Any] = {
        "session_id": session,
        "transcript_path": transcript or f"/nonexistent/.claude/projects/x/{session}.jsonl",
        "cwd": str(root),
        "hook_event_name": event,
    }
    shapes: dict[str, dict[str, Any]] = {
        "SessionStart": {"source": "startup"},
        "UserPromptSubmit": {
            "prompt_id": "22f8d364-1111-2222-3333-444455556666",
            "permission_mode": "default",
            "prompt": "Say hello and remember that I prefer uv",
        },
        "PostToolUse": {
            "permission_mode": "default",
            "effort": {"level": "medium"},
            "tool_name": "Bash",
            "tool_input": {"command": "echo hello-from-tool", "description": "Print a greeting"},
            "tool_response": {
                "stdout": "hello-from-tool",
                "stderr": "",
                "interrupted": False,
                "isImage": False,
                "noOutputExpected": False,
            },
            "tool_use_id": "toolu_0e8b",
            "duration_ms": 36,
        },
        "Stop": {
            "effort": {"level": "medium"},
            "stop_hook_active": False,
            "last_assistant_message": "Hello from the fake API.",
            "background_tasks": [],
            "session_crons": [],
        },
        "SubagentStop": {
            "agent_id": "a7ce6e7cb53e678ec",
            "agent_type": "Explore",
            "stop_hook_active": False,
            "agent_transcript_path": f"/nonexistent/{session}/subagents/agent-a7ce6e7cb53e678ec.jsonl",
            "last_assistant_message": "…",
            "background_tasks": [],
            "session_crons": [],
        },
        "PreCompact": {
            "prompt_id": "2257b24a-0000",
            "trigger": "manual",
            "custom_instructions": "keep the uv preference",
        },
        "SessionEnd": {"prompt_id": "2257b24a-0000", "reason": "other"},
    }
    return {**base, **shapes.get(event, {}), **extra}


hook_env = isolated_env


def run_hook(
    event: str,
    data: Any,
    *,
    root: Path | None,
    home: Path,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 30,
    agent: str | None = None,
) -> dict | None:
    """Run one hook (as `agent`'s hook when given: `memtui hook --agent NAME <Event>`); assert the
    contract; return the JSON answer or None."""
    if isinstance(data, (dict, list)):
        stdin = json.dumps(data).encode()
    elif isinstance(data, str):
        stdin = data.encode()
    else:
        stdin = data
    proc = subprocess.run(
        [sys.executable, "-m", "memtui", "hook", *(["--agent", agent] if agent else []), event],
        input=stdin,
        capture_output=True,
        env={**hook_env(root, home), **(env or {})},
        cwd=cwd or root or home,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode("utf-8")
    if not out.strip():
        assert out == "", f"whitespace on stdout: {out!r}"
        return None
    answer = json.loads(out)  # exactly one JSON value, or this raises
    assert isinstance(answer, dict)
    return answer


def context_of(answer: dict | None) -> str:
    if not answer:
        return ""
    return answer["hookSpecificOutput"]["additionalContext"]


def wait_for_worker(memory_dir: Path, timeout: float = 20) -> None:
    """Until no worker holds the spool lock (hooks start workers that outlive them)."""
    from memtui.runtime import spool

    deadline = time.monotonic() + timeout
    time.sleep(0.1)
    while spool.worker_running(memory_dir):
        if time.monotonic() > deadline:
            raise AssertionError("the worker did not exit")
        time.sleep(0.05)


#: Relevance is relative to the rest of the bank (BM25's IDF): recall is tested inside a bank of
#: unrelated memories, as in a real project, not in a bank holding only the memory sought.
BACKGROUND = [
    "billing invoices are generated nightly by the cron worker",
    "the frontend uses React with Vite and Tailwind",
    "Postgres migrations run with alembic before the API restarts",
    "feature flags live in LaunchDarkly",
    "the mobile app talks to GraphQL",
    "logs are collected by Loki through promtail",
    "emails go out through Postmark templates",
    "tests run with pytest and xdist in CI",
    "the search service is Elasticsearch 8",
    "Redis caches sessions for 24 hours",
    "images are resized by a Lambda function",
    "the admin panel is Django admin",
    "payments use Stripe webhooks",
    "translations are managed in Crowdin",
    "metrics go to Prometheus",
]
