"""Claude Code and Codex CLI in one project, both real and offline: the world of the cross-agent tests.

    world = two_agents(tmp_path, claude_reply, codex_reply)   # memtui init, setup for both
    world.claude("-p", "remember that …")                      # the bundled Claude Code CLI
    world.codex("how do we deploy?")                           # the Codex CLI of tests/codexkit.py
    world.close()                                              # the fakes, the project's service

Claude Code talks to the fake Messages API (tests/fakeapi.py), which also answers memtui's own
extraction calls from both agents' captures; Codex talks to the fake Responses API
(tests/fakeresponses.py). Each agent has its own HOME; the project, its store and its recall
service are the one thing they share, as on a person's machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import claudekit
import fakeapi
import fakeresponses
from codexkit import codex_env, codex_home, require_codex

#: Where memtui's recalled block starts, in a Claude Code request and in a Codex one.
CLAUDE_FENCE = "hook additional context: <recalled-memories"
CODEX_FENCE = '<recalled-memories source="memtui">'


class TwoAgents:
    """A git repository with `memtui init`, `memtui setup` (Claude Code, the project's trust dialog
    accepted) and `memtui setup --agent codex --trust-hooks` (a private CODEX_HOME); `claude_reply`
    and `codex_reply` answer each request of the two fakes (`default=` of each)."""

    def __init__(self, root: Path, claude_reply: Callable, codex_reply: Callable) -> None:
        self.repo = root / "repo"
        self.repo.mkdir()
        subprocess.run(["git", "init", "-q", str(self.repo)], check=True)
        self.messages = fakeapi.start_fake_api(default=claude_reply)
        self.responses = fakeresponses.start_fake_responses(default=codex_reply)
        self.codex_bin = require_codex()
        self.codex_home = codex_home(root / "codex-home", self.responses.url)
        home = root / "claude-home"
        home.mkdir()
        base = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMTUI_", "ANTHROPIC_", "CODEX_"))}
        base.pop("XDG_RUNTIME_DIR", None)  # both agents' hooks must find the same runtime folder
        self.claude_env = {
            **base,
            **self.messages.env(),
            "HOME": str(home),
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        # memtui's captures from Codex's hooks extract through the same fake Messages API.
        self.codex_env = {**codex_env(self.codex_home), **self.messages.env()}
        self.memtui("init")
        self.memtui("setup")
        self.memtui(
            "setup",
            "--agent",
            "codex",
            "--trust-hooks",
            env={"CODEX_HOME": str(self.codex_home), "MEMTUI_CODEX": str(self.codex_bin)},
        )
        trust = home / ".claude.json"  # accepting Claude Code's trust dialog once, as a person does
        data = json.loads(trust.read_text()) if trust.exists() else {}
        data.setdefault("projects", {}).setdefault(str(self.repo), {})["hasTrustDialogAccepted"] = True
        trust.write_text(json.dumps(data, indent=2))

    def memtui(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "memtui", *args],
            cwd=self.repo,
            env={**self.claude_env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def claude_cmd(self, prompt: str, *args: str) -> list[str]:
        model = ("--model", "claude-haiku-4-5", "--output-format", "json")
        return [str(claudekit.bundled_claude()), "-p", prompt, *model, *args]

    def codex_cmd(self, prompt: str, resume: str | None = None) -> list[str]:
        again = ["resume", resume] if resume else []
        return [str(self.codex_bin), "exec", *again, "--json", "--skip-git-repo-check", prompt]

    def start_claude(self, prompt: str, *args: str) -> subprocess.Popen[str]:
        return _start(self.claude_cmd(prompt, *args), self.repo, self.claude_env)

    def start_codex(self, prompt: str, resume: str | None = None) -> subprocess.Popen[str]:
        return _start(self.codex_cmd(prompt, resume), self.repo, self.codex_env)

    def claude(self, prompt: str, *args: str) -> dict:
        answer = json.loads(finish(self.start_claude(prompt, *args)))
        assert answer["is_error"] is False, answer
        return answer

    def codex(self, prompt: str, resume: str | None = None) -> str:
        """The Codex thread's id (to resume it)."""
        return thread_id(finish(self.start_codex(prompt, resume)))

    def close(self) -> None:
        from memtui.runtime import service as control
        from memtui.store.locations import Project

        self.messages.close()
        self.responses.close()
        control.stop(Project(self.repo.resolve()))  # the SessionStart hooks started it


def _start(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def finish(process: subprocess.Popen[str], timeout: float = 120) -> str:
    """The agent's stdout, once it exited 0."""
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, f"{process.args[:2]} exited {process.returncode}: {err[-3000:]}"
    return out


def thread_id(stdout: str) -> str:
    events = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    return next(e["thread_id"] for e in events if e.get("type") == "thread.started")


class FourAgents(TwoAgents):
    """TwoAgents plus the real Gemini CLI and opencode, each in a HOME of its own and set up for every
    project (`memtui setup --agent gemini|opencode --global`), on the same project. Gemini talks to the
    fake Gemini API (tests/fakegemini.py), opencode to the fake Chat Completions API
    (tests/fakechat.py); memtui's extractions from every agent's captures go to the one fake Messages
    API, as memtui's own model calls would on a person's machine."""

    def __init__(
        self, root: Path, claude_reply: Callable, codex_reply: Callable, gemini_reply: Callable, chat_reply: Callable
    ) -> None:
        from fakechat import start_fake_chat
        from fakegemini import start_fake_gemini
        from geminikit import gemini_home, require_gemini
        from opencodekit import opencode_home, require_opencode

        super().__init__(root, claude_reply, codex_reply)
        self.gemini_bin, self.opencode_bin = require_gemini(), require_opencode()
        self.gemini_api = start_fake_gemini(default=gemini_reply)
        self.chat = start_fake_chat(default=chat_reply)
        self.gemini_home = gemini_home(root / "gemini-home")
        self.opencode_home = opencode_home(root / "opencode", self.chat.url)
        self.gemini_env = self._gemini_env()
        self.opencode_env = self._opencode_env()
        self.memtui(
            "setup", "--agent", "gemini", "--global", env={**self.gemini_env, "MEMTUI_GEMINI": str(self.gemini_bin)}
        )
        found = {**self.opencode_env, "MEMTUI_OPENCODE": str(self.opencode_bin)}
        self.memtui("setup", "--agent", "opencode", "--global", env=found)

    def _gemini_env(self) -> dict[str, str]:
        from geminikit import gemini_env

        return {**gemini_env(self.gemini_home, self.gemini_api.url), **self.messages.env()}

    def _opencode_env(self) -> dict[str, str]:
        from opencodekit import opencode_env

        return {**opencode_env(self.opencode_home), **self.messages.env()}

    def start_gemini(self, prompt: str) -> subprocess.Popen[str]:
        return _start([str(self.gemini_bin), "-p", prompt, "-o", "json"], self.repo, self.gemini_env)

    def start_opencode(self, prompt: str) -> subprocess.Popen[str]:
        return _start([str(self.opencode_bin), "run", prompt], self.repo, self.opencode_env)

    def close(self) -> None:
        self.gemini_api.close()
        self.chat.close()
        super().close()
