"""End to end with the real opencode (1.18.33), offline: `memtui setup --agent opencode` in a project,
then real `opencode run` turns against the fake Chat Completions API (tests/fakechat.py), memtui's
plugin calling its hooks, and memtui's own model calls against the fake Messages API.

One opencode home serves the module, set up once with `--global` (its config names the fake model,
memtui's MCP server and plugin): each test has a project of its own. The test of the project's own
files sets that project up too, and takes it out again.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from envkit import isolated_env
from fakechat import call, start_fake_chat, text
from hookkit import wait_for_worker
from opencodekit import opencode_home, plugin_sdk_installed, require_opencode, run

from memtui.store.bank import Bank
from memtui.store.locations import Project

pytestmark = pytest.mark.e2e
FENCE = '<recalled-memories source="memtui">'


class Opencode:
    def __init__(self, binary: Path, home: Path, api, scratch: Path) -> None:
        self.binary, self.home, self.api, self.scratch = binary, home, api, scratch

    def env(self, **extra: str) -> dict[str, str]:
        """memtui's environment: opencode's config home is the module's."""
        config = str(self.home / "config")
        return isolated_env(
            None, self.scratch / "user", MEMTUI_OPENCODE=str(self.binary), XDG_CONFIG_HOME=config, **extra
        )

    def project(self, name: str) -> Path:
        """A fresh initialised project (a git repository, `memtui init`)."""
        root = self.scratch / name
        root.mkdir()
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        memtui("init", cwd=root, env=self.env())
        return root

    def run(self, prompt: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
        """One `opencode run` turn; the hooks answer in their own process (no service left behind)."""
        done = run(self.binary, self.home, prompt, cwd=cwd, env={"MEMTUI_SERVICE": "off", **env}, timeout=120)
        assert done.returncode == 0, done.stderr[-3000:]
        return done


def memtui(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "memtui", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def opencode(tmp_path_factory: pytest.TempPathFactory):
    binary = require_opencode()
    scratch = tmp_path_factory.mktemp("opencode-e2e")
    (scratch / "user").mkdir()
    api = start_fake_chat()
    kit = Opencode(binary, opencode_home(scratch / "opencode", api.url), api, scratch)
    memtui("setup", "--agent", "opencode", "--global", cwd=kit.project("setup-project"), env=kit.env())
    yield kit
    api.close()


@pytest.fixture
def model(opencode: Opencode):
    """The fake Chat Completions API, its queue and log emptied for this test."""
    opencode.api.clear()
    yield opencode.api
    opencode.api.clear()


def settle(root: Path) -> None:
    wait_for_worker(root / ".memory", timeout=60)


def memories(root: Path) -> list:
    return Bank(Project(root)).memories()


def test_a_memory_is_recalled_into_opencodes_request_for_a_related_prompt_only(opencode: Opencode, model):
    root = opencode.project("recall")
    config = root / ".memory" / "config.toml"
    config.write_text(config.read_text() + "\n[hooks]\nbriefing_bytes = 0\n")  # the prompt's recall, no briefing
    memtui(
        "add",
        "--type",
        "decision",
        "We deploy the billing service with make ship from main",
        cwd=root,
        env=opencode.env(),
    )

    opencode.run("How do we deploy the billing service?", root)
    opencode.run("What is the capital of Australia?", root)
    settle(root)

    related, unrelated = model.turns()
    assert FENCE in related.last_user_text and "make ship" in related.last_user_text
    assert "How do we deploy the billing service?" in related.last_user_text
    assert FENCE not in json.dumps(unrelated.messages) and "make ship" not in json.dumps(unrelated.messages)


def test_opencode_offers_memtuis_tools_and_a_memory_search_call_returns_the_memory(opencode: Opencode, model):
    root = opencode.project("search")
    memtui("add", "--type", "decision", "The job queue runs on Redis streams", cwd=root, env=opencode.env())
    model.script(call("memtui_memory_search", {"query": "job queue"}), text("done"))

    opencode.run("Where does the job queue run? Search the memory.", root)
    settle(root)

    first, second = model.turns()[:2]
    assert "memtui_memory_search" in first.tool_names
    assert any("Redis streams" in out for out in second.tool_outputs), second.tool_outputs


def test_remember_that_in_an_opencode_prompt_is_saved_without_a_model(opencode: Opencode, model):
    root = opencode.project("remember")

    opencode.run("remember that the staging database listens on port 5433", root)
    settle(root)

    saved = [m for m in memories(root) if "5433" in m.content]
    assert len(saved) == 1 and saved[0].source is not None and saved[0].source.agent == "opencode"
    assert len(model.turns()) == 1  # opencode's own turn: memtui asked no model


def test_the_extraction_after_an_opencode_turn_holds_the_turn_and_none_of_memtuis_text(opencode: Opencode, model):
    import fakeapi

    root = opencode.project("extract")
    memtui(
        "add",
        "--type",
        "pattern",
        "Integration tests for payments run against a local Postgres",
        cwd=root,
        env=opencode.env(),
    )
    found = {"type": "decision", "content": "Payments retry failed charges three times", "tags": []}
    messages = fakeapi.start_fake_api(default=fakeapi.tool({"memories": [found]}))
    model.script(text("Understood: payments retry failed charges three times before giving up."))
    try:
        opencode.run(
            "For payments we decided to retry failed charges three times; tests use Postgres.", root, **messages.env()
        )
        settle(root)
        extractions = [r for r in messages.messages() if r.tool_name]
    finally:
        messages.close()

    assert "local Postgres" in model.turns()[0].last_user_text  # what opencode sent: memtui's recall
    assert extractions, "the worker asked no model"
    sent = json.dumps(extractions[0].body["messages"])
    assert "retry failed charges three times" in sent and "Understood: payments retry" in sent
    assert "OPENCODE" in json.dumps(extractions[0].body.get("system"))  # whose lines OPENCODE: are
    transcript = sent.split("<transcript>", 1)[1]
    assert "recalled-memories" not in sent and "local Postgres" not in transcript  # memtui's injected part
    saved = [m for m in memories(root) if m.content == found["content"]]
    assert len(saved) == 1 and saved[0].source is not None and saved[0].source.agent == "opencode"


def test_agents_md_keeps_the_persons_text_and_uninstall_restores_every_file_byte_for_byte(opencode: Opencode, model):
    root = opencode.project("files")
    plugin_sdk_installed(root / ".opencode")  # as opencode leaves it once it has installed its SDK there
    mine = "# Team rules\r\n\r\nAGENTS-MARK: answer in one line.\r\n"
    config = '{\n    "$schema": "https://opencode.ai/config.json",\n    "mcp": {"other": {"type": "local", "command": ["true"], "enabled": false}},\n    "share": "disabled"\n}'
    (root / "AGENTS.md").write_bytes(mine.encode())
    (root / "opencode.json").write_bytes(config.encode())
    memtui("add", "--type", "decision", "Releases are cut on Thursdays", cwd=root, env=opencode.env())
    memtui("setup", "--agent", "opencode", cwd=root, env=opencode.env())

    written = (root / "AGENTS.md").read_bytes()
    assert written.startswith(mine.encode()) and b"Thursdays" in written
    assert json.loads((root / "opencode.json").read_text())["mcp"]["other"]["enabled"] is False
    opencode.run("hello", root)
    [turn] = model.turns()
    assert "AGENTS-MARK" in turn.system_text and "Thursdays" in turn.system_text

    memtui("setup", "--agent", "opencode", "--uninstall", cwd=root, env=opencode.env())

    assert (root / "AGENTS.md").read_bytes() == mine.encode()
    assert (root / "opencode.json").read_bytes() == config.encode()
    assert not (root / ".opencode" / "plugins").exists()


def test_a_hook_that_hangs_or_answers_garbage_costs_opencode_nothing_but_the_time_limit(opencode: Opencode, model):
    """The plugin's promise: a recall hook that never answers is cut off at its limit (this one
    would outlast the run's own timeout), one that prints something else is ignored, and the turn
    goes on without memories."""
    from memtui.agents import opencode as agent

    home = opencode_home(opencode.scratch / "broken-hook", opencode.api.url)
    script = 'if [ "$3" = UserPromptSubmit ]; then exec sleep 150; fi; echo "not json"'
    plugins = home / "config" / "opencode" / "plugins"
    plugins.mkdir()
    (plugins / "memtui.ts").write_text(agent.plugin_source(["/bin/sh", "-c", script, "hook"]))
    root = opencode.project("broken")
    model.script(text("answered anyway"))

    done = run(opencode.binary, home, "How do we deploy the billing service?", cwd=root, timeout=120)

    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("answered anyway")
    [turn] = model.turns()
    assert "How do we deploy the billing service?" in turn.last_user_text and FENCE not in turn.last_user_text
