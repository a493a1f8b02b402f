"""`memtui setup` then `memtui uninstall`, through the real CLI, on a person's real-shaped JSON
settings in every shape people keep them (no final newline, CRLF, one line, tabs): every file comes
back byte for byte, for Claude Code (project, `--team`, `--global`) and Gemini CLI, and a folder
that was there before setup (empty or not) is still there after uninstall, `--global` included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

#: How a person's file may be written: each shape is a render of the same document.
SHAPES = {
    "no-final-newline": lambda doc: json.dumps(doc, indent=2),
    "crlf": lambda doc: json.dumps(doc, indent=2).replace("\n", "\r\n") + "\r\n",
    "one-line": lambda doc: json.dumps(doc),
    "tabs": lambda doc: json.dumps(doc, indent="\t") + "\n",
    "four-spaces-one-line-arrays": lambda doc: json.dumps(doc, indent=4).replace(
        '[\n        "Bash(make check)"\n    ]', '["Bash(make check)"]'
    ),
}

#: Claude Code's settings as a person has them: a permission, a hook of their own, a model.
SETTINGS = {
    "permissions": {"allow": ["Bash(make check)"]},
    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}]},
    "model": "opus",
}

#: Gemini CLI's settings (agents-contracts.md §2.2), with a context file, a hook and a server of theirs.
GEMINI = {
    "general": {"vimMode": True},
    "context": {"fileName": "CONTEXT.md"},
    "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "audit.sh"}]}]},
    "mcpServers": {"docs": {"command": "docs-mcp", "args": ["--stdio"]}},
}


def put(path: Path, text: str) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode())
    return path.read_bytes()


def user_json(project, shape) -> dict:
    """~/.claude.json as Claude Code keeps it: the person's servers and this project's entry."""
    doc = {
        "numStartups": 7,
        "mcpServers": {"docs": {"type": "stdio", "command": "docs-mcp", "args": []}},
        "projects": {str(project.root.resolve()): {"allowedTools": [], "hasTrustDialogAccepted": True}},
    }
    return shape(doc)


def uninstalled(run, *setup: str, env: dict | None = None) -> str:
    code, _, err = run("setup", *setup, env=env)
    assert code == 0, err
    code, out, err = run("uninstall", env=env)
    assert code == 0, err
    return out


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_claude_project_settings_come_back_to_the_byte(run, project, home, shape):
    local = put(project.root / ".claude" / "settings.local.json", shape(SETTINGS))
    users = put(home / ".claude" / ".claude.json", user_json(project, shape))
    assert run("render")[0] == 0
    code, _, err = run("setup")
    assert code == 0, err
    assert b"memtui" in (project.root / ".claude" / "settings.local.json").read_bytes()
    code, _, err = run("uninstall")
    assert code == 0, err
    assert (project.root / ".claude" / "settings.local.json").read_bytes() == local
    assert (home / ".claude" / ".claude.json").read_bytes() == users


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_claude_team_settings_and_mcp_json_come_back_to_the_byte(run, project, home, shape):
    shared = put(project.root / ".claude" / "settings.json", shape(SETTINGS))
    mcp = put(project.root / ".mcp.json", shape({"mcpServers": {"docs": {"command": "docs-mcp", "args": ["--stdio"]}}}))
    uninstalled(run, "--team")
    assert (project.root / ".claude" / "settings.json").read_bytes() == shared
    assert (project.root / ".mcp.json").read_bytes() == mcp


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_claude_user_settings_come_back_to_the_byte(run, project, home, shape):
    settings = put(home / ".claude" / "settings.json", shape(SETTINGS))
    users = put(home / ".claude" / ".claude.json", user_json(project, shape))
    uninstalled(run, "--global")
    assert (home / ".claude" / "settings.json").read_bytes() == settings
    assert (home / ".claude" / ".claude.json").read_bytes() == users


def fake_gemini(home: Path) -> dict[str, str]:
    script = home / "bin" / "gemini"
    script.parent.mkdir(exist_ok=True)
    script.write_text("#!/bin/sh\necho fake\n")
    script.chmod(0o755)
    return {"MEMTUI_GEMINI": str(script)}


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("scope", ["project", "global"])
def test_gemini_settings_come_back_to_the_byte(run, project, home, shape, scope):
    path = (home if scope == "global" else project.root) / ".gemini" / "settings.json"
    mine = put(path, shape(GEMINI))
    flags = ("--agent", "gemini", *(("--global",) if scope == "global" else ()))
    code, _, err = run("setup", *flags, env=fake_gemini(home))
    assert code == 0, err
    assert b"memtui" in path.read_bytes()
    code, _, err = run("uninstall")
    assert code == 0, err
    assert path.read_bytes() == mine


def test_empty_folders_that_were_there_stay(run, project, home):
    """An empty `.claude/` and `.gemini/` of the person's: setup writes into them, uninstall takes
    its files out, and the folders stay, as they were."""
    for folder in (project.root / ".claude", project.root / ".gemini", home / ".claude"):
        folder.mkdir(exist_ok=True)
    env = fake_gemini(home)
    assert run("setup", env=env)[0] == 0
    assert run("setup", "--agent", "gemini", env=env)[0] == 0
    assert run("setup", "--global", env=env)[0] == 0
    uninstalled(run, "--agent", "gemini", "--global", env=env)
    for folder in (project.root / ".claude", project.root / ".gemini", home / ".claude", home / ".gemini"):
        assert folder.is_dir() == (folder != home / ".gemini"), folder  # ~/.gemini was setup's: it goes
    for folder in (project.root / ".claude", project.root / ".gemini", home / ".claude"):
        assert list(folder.iterdir()) == [], folder


#: The MCP-only agents' user folders (agents/mcponly.py) and opencode's, each with its binary.
GLOBAL = {
    "crush": ("crush", ".config/crush"),
    "qwen": ("qwen", ".qwen"),
    "cursor": ("cursor-agent", ".cursor"),
    "amp": ("amp", ".config/amp"),
    "opencode": ("opencode", ".config/opencode"),
}


def installed(home: Path, *names: str) -> dict[str, str]:
    folder = home / "fake-bin"
    folder.mkdir(exist_ok=True)
    env = {"PATH": f"{folder}:/usr/bin:/bin"}
    for name in names:
        script = folder / GLOBAL[name][0]
        script.write_text("#!/bin/sh\necho fake\n")
        script.chmod(0o755)
        env[f"MEMTUI_{name.upper()}"] = str(script)
    return env


@pytest.mark.parametrize("existed", ["empty", "absent"])
def test_global_uninstall_removes_only_the_folders_setup_made(run, project, home, existed):
    """`~/.config/opencode`, `~/.config/crush`, `~/.qwen`, `~/.cursor`, `~/.config/amp`: a folder
    of the agent's that was there before setup (empty, as after a fresh install) stays; one setup
    made for its file goes with it."""
    if existed == "empty":
        for _, folder in GLOBAL.values():
            (home / folder).mkdir(parents=True)
    env = installed(home, *GLOBAL)
    for name in GLOBAL:
        code, _, err = run("setup", "--agent", name, "--global", env=env)
        assert code == 0, f"{name}: {err}"
    code, _, err = run("uninstall", env=env)
    assert code == 0, err
    for name, (_, folder) in GLOBAL.items():
        assert (home / folder).is_dir() == (existed == "empty"), name
        if existed == "empty":
            assert list((home / folder).iterdir()) == [], name
    assert (home / ".config").is_dir() == (existed == "empty")  # setup made ~/.config too, when it did


def test_uninstall_says_one_line_per_file_it_changed_and_one_for_the_rest(run, project, home):
    """Claude Code, Gemini CLI, Crush and Amp set up here (three read AGENTS.md): uninstall takes the
    AGENTS.md block out once, with one line, never "stays" for agents it takes out the same run;
    every file it leaves alone is one summary line, not one "already clean" each."""
    (project.root / "AGENTS.md").write_bytes(b"# Ours\n")
    put(home / ".qwen" / "settings.json", '{"model": {"name": "qwen3-coder-plus"}}')  # Qwen's, never set up
    env = {**fake_gemini(home), **installed(home, "crush", "amp")}
    env["PATH"] = env["PATH"]  # the fake agents' folder first
    for agent in ("claude", "gemini", "crush", "amp"):
        code, _, err = run("setup", "--agent", agent, env=env)
        assert code == 0, f"{agent}: {err}"
    code, out, err = run("uninstall", env=env)
    assert code == 0, err
    lines = out.splitlines()
    agents_md = [line for line in lines if "AGENTS.md" in line]
    assert agents_md == [f"{project.root / 'AGENTS.md'}: removed the memory block (your text kept as it was)"], out
    assert (project.root / "AGENTS.md").read_bytes() == b"# Ours\n"
    named = [line.split(": ", 1)[0] for line in lines if line.startswith("/")]
    assert len(named) == len(set(named)), out  # one line per file
    clean = [line for line in lines if "clean" in line]
    assert clean == ["Already clean: 1 other agent file (nothing of memtui's in them)"], out
