"""Codex CLI's configuration writers (memtui/agents/codex.py) on real-shaped files: memtui's hooks in
hooks.json, its MCP server and the trust of its hooks in config.toml, and each taken out again to
the byte, whatever else the files held (another hook, another server, comments, someone else's
trust record). The real CLI reading what they write: tests/cli/test_setup_codex.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.agents import codex
from memtui.errors import UsageError

PREFIX = "/opt/py/bin/python3 -S /opt/memtui/runtime/launch.py"
COMMAND = ["/opt/py/bin/memtui"]

#: A person's hooks.json: a SessionStart hook and a PostToolUse hook of their own.
THEIR_HOOKS = json.dumps(
    {
        "hooks": {
            "SessionStart": [
                {"matcher": "startup", "hooks": [{"type": "command", "command": "~/bin/greet.sh", "timeout": 5}]}
            ],
            "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit.sh"}]}],
        }
    },
    indent=2,
)

#: A person's config.toml: comments, a provider, another MCP server, the trust of their own hook.
THEIR_CONFIG = """\
# Codex, the way I like it
model = "gpt-5.1-codex"   # the default
approval_policy = "on-request"

[model_providers.mine]
name = "mine"
base_url = "http://localhost:8080/v1"  # a local proxy

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]
default_tools_approval_mode = "approve"

[hooks.state."/home/me/.codex/hooks.json:session_start:0:0"]
trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"

[profiles.fast]
model = "gpt-5.1-codex-mini"
"""


def test_hooks_go_in_after_everyone_elses_and_come_out_to_the_byte():
    installed = codex.install_hooks(THEIR_HOOKS, PREFIX)
    hooks = json.loads(installed)["hooks"]

    assert hooks["SessionStart"][0] == json.loads(THEIR_HOOKS)["hooks"]["SessionStart"][0]  # their key: …:0:0
    assert hooks["SessionStart"][1]["hooks"][0]["command"] == f"{PREFIX} --agent codex SessionStart"
    assert {event: hooks[event][-1]["hooks"][0]["timeout"] for event in codex.EVENTS} == {
        "SessionStart": 10,
        "UserPromptSubmit": 10,
        "Stop": 10,
        "PreCompact": 10,
        "SessionEnd": 3,  # what Codex clamps it to
    }
    assert hooks["PostToolUse"] == json.loads(THEIR_HOOKS)["hooks"]["PostToolUse"]
    assert codex.uninstall_hooks(installed) == THEIR_HOOKS


@pytest.mark.parametrize(
    "theirs",
    [
        json.dumps(json.loads(THEIR_HOOKS)),  # one line, no final newline
        json.dumps(json.loads(THEIR_HOOKS), indent="\t").replace("\n", "\r\n") + "\r\n",  # tabs, CRLF
        '{\n  "hooks": {"Stop": [ {"hooks": [{"type": "command", "command": "x"}]} ]},\n  "z": 1, "a": 2\n}',
    ],
)
def test_setup_then_uninstall_gives_back_every_byte_of_their_hooks_file(theirs: str):
    installed = codex.install_hooks(theirs, PREFIX)
    assert codex.uninstall_hooks(installed) == theirs
    assert codex.install_hooks(installed, PREFIX) == installed


def test_setting_up_again_replaces_memtuis_hooks_where_they_stand():
    """A new command (memtui moved) takes the old one's place: the trust keys of every hook after it stay."""
    first = codex.install_hooks(THEIR_HOOKS, PREFIX)
    theirs_after = json.loads(first)
    theirs_after["hooks"]["SessionStart"].append({"hooks": [{"type": "command", "command": "~/bin/later.sh"}]})

    again = json.loads(codex.install_hooks(json.dumps(theirs_after, indent=2), "/new/memtui hook"))

    commands = [group["hooks"][0]["command"] for group in again["hooks"]["SessionStart"]]
    assert commands == ["~/bin/greet.sh", "/new/memtui hook --agent codex SessionStart", "~/bin/later.sh"]
    settled = json.dumps(again, indent=2) + "\n"
    assert codex.install_hooks(settled, "/new/memtui hook") == settled  # nothing to do: nothing changes


def test_a_hooks_file_memtui_made_is_empty_again_after():
    assert codex.uninstall_hooks(codex.install_hooks(None, PREFIX)) == ""


def test_the_trust_keys_are_codexs_for_memtuis_handlers_only(tmp_path: Path):
    path = tmp_path / "hooks.json"
    keys = codex.trust_keys(codex.install_hooks(THEIR_HOOKS, PREFIX), path)

    assert sorted(keys) == sorted(
        f"{path}:{event}:{group}:0"
        for event, group in [
            ("session_start", 1),
            ("user_prompt_submit", 0),
            ("stop", 0),
            ("pre_compact", 0),
            ("session_end", 0),
        ]
    )


@pytest.mark.parametrize(
    "theirs",
    [THEIR_CONFIG, THEIR_CONFIG + "\n", "", 'model = "o3"\n', "# only a comment\n"],
    ids=["full", "trailing-blank", "empty", "one-line", "comment"],
)
def test_the_server_and_trust_records_come_out_to_the_byte(theirs: str):
    ours = {"/home/me/.codex/hooks.json:stop:0:0": "sha256:" + "1" * 64}
    installed = codex.record_trust(codex.install_server(theirs, COMMAND), ours)

    assert codex.has_server(installed)
    assert codex.forget_trust(codex.uninstall_server(installed), ours) == theirs


def test_a_table_the_person_added_after_memtuis_stays_as_written():
    ours = {"/home/me/.codex/hooks.json:stop:0:0": "sha256:" + "1" * 64}
    later = '\n[profiles.late]\nmodel = "o3"  # added later\n'
    installed = codex.record_trust(codex.install_server(THEIR_CONFIG, COMMAND), ours) + later

    assert codex.forget_trust(codex.uninstall_server(installed), ours) == THEIR_CONFIG + later


def test_the_server_entry_is_required_and_approves_memtuis_tools_one_by_one():
    import tomllib

    entry = tomllib.loads(codex.install_server(THEIR_CONFIG, COMMAND))["mcp_servers"]["memtui"]

    assert entry["command"] == COMMAND[0] and entry["args"] == ["mcp", "--agent", "codex"]
    assert entry["required"] is True
    assert entry["tools"] == {tool: {"approval_mode": "approve"} for tool in codex.TOOLS}
    assert "default_tools_approval_mode" not in entry  # nothing a later tool of this name would inherit


def test_forgetting_memtuis_trust_leaves_someone_elses_record():
    theirs = "/home/me/.codex/hooks.json:session_start:0:0"
    ours = {"/home/me/.codex/hooks.json:session_start:1:0": "sha256:" + "2" * 64}
    installed = codex.record_trust(THEIR_CONFIG, ours)

    left = codex.forget_trust(installed, [*ours, "/home/me/.codex/hooks.json:stop:9:9"])

    assert left == THEIR_CONFIG
    assert theirs in left


def test_a_changed_hash_replaces_memtuis_record_and_an_unchanged_one_writes_nothing():
    key = "/h/hooks.json:stop:0:0"
    once = codex.record_trust(THEIR_CONFIG, {key: "sha256:old"})

    assert codex.record_trust(once, {key: "sha256:old"}) == once
    twice = codex.record_trust(once, {key: "sha256:new"})
    assert "sha256:old" not in twice and twice.count(key) == 1


def test_a_memtui_server_entry_that_runs_something_else_is_refused():
    theirs = '[mcp_servers.memtui]\ncommand = "my-own-memtui-thing"\n'

    with pytest.raises(UsageError, match=r"\[mcp_servers.memtui\] runs something else"):
        codex.install_server(theirs, COMMAND)
    assert codex.uninstall_server(theirs) == theirs


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("model = \n", "is not valid TOML"),
        ('mcp_servers = { docs = { command = "docs-mcp" } }\n', "is not valid TOML"),  # inline: no room for ours
        ('mcp_servers = "x"\n', "is not valid TOML"),
    ],
)
def test_a_config_memtui_cannot_add_to_is_one_clear_error(text: str, says: str):
    with pytest.raises(UsageError, match=says):
        codex.install_server(text, COMMAND)


def test_a_broken_hooks_file_is_one_clear_error():
    with pytest.raises(UsageError, match="is not valid JSON"):
        codex.install_hooks("{", PREFIX)


def test_home_is_codex_home_else_dot_codex(tmp_path: Path):
    assert codex.home({"CODEX_HOME": str(tmp_path / "c"), "HOME": "/nowhere"}) == tmp_path / "c"
    assert codex.home({"HOME": str(tmp_path)}) == tmp_path / ".codex"


def test_set_up_says_whether_memtuis_hooks_and_server_are_in_codexs_config(tmp_path: Path):
    env = {"CODEX_HOME": str(tmp_path), "HOME": str(tmp_path)}
    assert not codex.set_up(tmp_path, env)
    (tmp_path / "hooks.json").write_text(codex.install_hooks(None, PREFIX))
    assert not codex.set_up(tmp_path, env)
    (tmp_path / "config.toml").write_text(codex.install_server(THEIR_CONFIG, COMMAND))
    assert codex.set_up(tmp_path, env)
