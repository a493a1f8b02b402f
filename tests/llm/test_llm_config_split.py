"""Which keys a project's shared `.memory/config.toml` may set, and which only the person's own
config (`$XDG_CONFIG_HOME/memtui/config.toml`) or the environment: decided once
(`memtui.config.PER_USER`), and every `[llm]` key is on one side of it."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from memtui.config import PER_USER, Config, user_path
from memtui.errors import ConfigError
from memtui.llm import settings as llm_settings
from memtui.llm.settings import LLMSettings

#: Fields that say where a value came from, not a setting.
DERIVED = {"model_source", "backend_source", "origins", "ignored"}


def test_every_llm_setting_is_shared_or_the_persons_and_never_both():
    names = {f.name for f in fields(LLMSettings)} - DERIVED
    shared, own = set(llm_settings.SHARED), set(llm_settings.PER_USER)

    assert not shared & own
    assert names <= shared | own, f"say whether {sorted(names - shared - own)} is shared or the person's"
    assert {"claude", "codex", "gemini", "api_key"} <= own
    assert {f"llm.{k}" for k in own} <= set(PER_USER)


def test_a_projects_program_keys_are_dropped_and_named(tmp_path):
    text = '[llm]\nbackend = "claude-code"\nclaude = "~/x/claude"\ncodex = "/x/codex"\napi_key = "sk-x"\nmodel = "m"\n'
    config = Config.parse(text, tmp_path / "config.toml")

    assert config.section("llm") == {"backend": "claude-code", "model": "m"}
    assert config.get("llm.claude") is None and config.get("llm.model") == "m"
    assert config.get("llm") == config.section("llm")
    lines = config.ignored()
    assert [line.split(" in ")[0] for line in lines] == [
        "ignored: [llm] claude",
        "ignored: [llm] codex",
        "ignored: [llm] api_key",
    ]
    assert "cannot choose a program; set it in" in lines[0] and lines[0].endswith("or MEMTUI_CLAUDE)")
    assert "cannot choose a key" in lines[2]


@pytest.mark.parametrize("path", ["/etc/passwd", "~/.ssh/config", "../../outside.md", "docs/../../x.md"])
def test_a_claude_md_path_outside_the_project_is_dropped(tmp_path, path):
    config = Config.parse(f'[claude_md]\npath = "{path}"\nauto = false\n', tmp_path / "config.toml")

    assert config.get("claude_md.path", "CLAUDE.md") == "CLAUDE.md"
    assert config.section("claude_md") == {"auto": False}
    assert config.ignored() == [
        "ignored: [claude_md] path in .memory/config.toml (a project file cannot choose a path outside the "
        "project; give one inside it)"
    ]


def test_a_claude_md_path_inside_the_project_is_kept(tmp_path):
    config = Config.parse('[claude_md]\npath = "docs/CLAUDE.md"\n', tmp_path / "config.toml")

    assert config.get("claude_md.path") == "docs/CLAUDE.md" and config.ignored() == []


def test_the_persons_config_names_programs_and_wins_the_environment_wins_over_both(tmp_path):
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    own = user_path(env)
    own.parent.mkdir(parents=True)
    own.write_text('[llm]\nclaude = "/mine/claude"\nmodel = "mine"\n')
    project = {"claude": "/theirs/claude", "codex": "/theirs/codex", "model": "theirs", "daily_calls": 5}

    found = LLMSettings.load(project, env)

    assert (found.claude, found.codex, found.model, found.daily_calls) == ("/mine/claude", None, "mine", 5)
    assert found.origin("claude") == "[llm] claude in ~/cfg/memtui/config.toml (your config)"
    assert found.origin("daily_calls") == "[llm] daily_calls in .memory/config.toml (the project's config)"
    assert found.model_source == "[llm] model in ~/cfg/memtui/config.toml (your config)"
    by_env = LLMSettings.load(project, {**env, "MEMTUI_CLAUDE": "/env/claude"})
    assert by_env.claude == "/env/claude" and by_env.origin("claude") == "the MEMTUI_CLAUDE environment variable"


def test_the_persons_config_is_named_under_home_as_a_person_reads_it(tmp_path):
    env = {"HOME": str(tmp_path)}
    own = user_path(env)
    own.parent.mkdir(parents=True)
    own.write_text('[llm]\nbackend = "off"\n')

    found = LLMSettings.load({"backend": "claude-code"}, env)

    assert found.backend == "off"
    assert found.backend_source == "[llm] backend in ~/.config/memtui/config.toml (your config)"


def test_a_broken_persons_config_is_one_line_naming_it(tmp_path):
    env = {"HOME": str(tmp_path)}
    user_path(env).parent.mkdir(parents=True)
    user_path(env).write_text("[llm\n")

    with pytest.raises(ConfigError) as caught:
        LLMSettings.load({}, env)

    assert str(caught.value).startswith("~/.config/memtui/config.toml could not be read (")


def test_no_persons_config_is_the_projects_settings(tmp_path):
    found = LLMSettings.load({"claude": "/theirs/claude", "backend": "codex"}, {"HOME": str(tmp_path)})

    assert found.claude is None and found.backend == "codex"
    assert not Path(tmp_path / ".config").exists()


def test_a_project_may_tighten_a_spending_limit_never_loosen_it():
    """A cloned repository's config.toml spends your money and time: it may lower the daily budget,
    calls, tokens, timeouts and retries, or price a model higher, but a larger limit or a lower price
    (0 would make the budget no cap) is ignored and named; your own config may set any value."""
    project = {"daily_budget_usd": 500, "daily_calls": 50, "max_retries": 1000, "timeout": 5, "price_input": 0}
    settings = LLMSettings.load(project, env={}, user={})

    assert settings.daily_budget_usd == 1.0 and settings.max_retries == 3  # the defaults, not the project's
    assert settings.daily_calls == 50 and settings.timeout == 5.0  # tighter: taken
    assert settings.price_input is None
    named = [line.split(" in ")[0] for line in settings.ignored]
    assert named == ["ignored: [llm] daily_budget_usd", "ignored: [llm] max_retries", "ignored: [llm] price_input"]
    assert all("may lower this limit" in line or "below" in line for line in settings.ignored)

    mine = LLMSettings.load(project, env={}, user={"daily_budget_usd": 800.0})
    assert mine.daily_budget_usd == 800.0 and "your config" in (mine.origin("daily_budget_usd") or "")
    assert LLMSettings.load({}, env={}, user={"daily_budget_usd": 5000, "price_input": 0}).daily_budget_usd == 5000


def test_a_project_cannot_keep_memtuis_processes_running():
    from memtui.runtime.settings import HookSettings, ServiceSettings

    assert HookSettings.from_table({"worker_idle": 1e9}).worker_idle == 60.0
    assert HookSettings.from_table({"worker_idle": 5}).worker_idle == 5.0
    assert ServiceSettings.from_table({"idle_seconds": 1e12}, env={}).idle_seconds == 4 * 3600.0
    assert ServiceSettings.from_table({"idle_seconds": 60}, env={}).idle_seconds == 60.0
