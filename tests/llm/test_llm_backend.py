"""Which backend `[llm] backend` picks on a machine with the real CLIs: `auto` takes a key, else a
signed-in Claude Code, else a signed-in Codex; `codex` asks for Codex by name. The logins are
real: Claude Code's `apiKeyHelper` (claudekit.py), Codex's `codex login` (codexkit.py), and each
CLI is asked by its own status command; nothing reaches a model."""

from __future__ import annotations

from pathlib import Path

import pytest
from claudekit import bundled_claude
from claudekit import sign_in as claude_sign_in
from codexkit import codex_env, codex_home, require_codex
from codexkit import sign_in as codex_sign_in
from fakeresponses import start_fake_responses

from memtui.errors import ConfigError
from memtui.llm.backend import GET_ONE, choose, open_client
from memtui.llm.codex import CodexClient
from memtui.llm.errors import NoApiKey
from memtui.llm.settings import LLMSettings

needs_claude = pytest.mark.skipif(not bundled_claude().exists(), reason="claude-agent-sdk bundles no Claude Code CLI")


@pytest.fixture
def api():
    server = start_fake_responses()
    yield server
    server.close()


def machine(tmp_path: Path, api, *, claude: str | None, codex: str | None) -> dict[str, str]:
    """The environment of a memtui process on a machine whose Claude Code and Codex are each
    "in" (signed in), "out" (installed, never signed in) or None (not installed). No API key."""
    home = tmp_path / "codex"
    if codex == "in":
        env = codex_sign_in(require_codex(), home, api.url)
    else:
        env = {k: v for k, v in codex_env(codex_home(home, api.url)).items() if not k.startswith("FAKE_")}
        env["MEMTUI_CODEX"] = str(require_codex()) if codex == "out" else str(tmp_path / "no-codex")
    env["MEMTUI_CLAUDE"] = str(tmp_path / "no-claude")
    env["MEMTUI_GEMINI"] = str(tmp_path / "no-gemini")  # Gemini's place in `auto`: test_llm_gemini_backend.py
    if claude is not None:
        user = Path(env["HOME"])
        env.update(claude_sign_in(user, api.url) if claude == "in" else {"MEMTUI_CLAUDE": str(bundled_claude())})
        if claude == "out":
            (user / ".claude").mkdir(exist_ok=True)
            (user / ".claude" / "settings.json").write_text("{}")
    return env


def picked(env: dict[str, str], *, login: bool, **section: str):
    return choose(LLMSettings.load(section, env), env, login=login)


@needs_claude
@pytest.mark.parametrize("login", [True, False])
def test_auto_takes_a_key_before_either_login(tmp_path, api, login):
    env = {**machine(tmp_path, api, claude="in", codex="in"), "ANTHROPIC_API_KEY": "sk-ant-test"}

    assert picked(env, login=login).name == "api"


@needs_claude
@pytest.mark.parametrize("login", [True, False])
def test_auto_takes_a_signed_in_claude_code_before_codex(tmp_path, api, login):
    choice = picked(machine(tmp_path, api, claude="in", codex="in"), login=login)

    assert choice.name == "claude-code" and "Claude Code login" in choice.why


@needs_claude
@pytest.mark.parametrize("login", [True, False])
def test_auto_takes_codex_when_claude_code_is_installed_but_not_signed_in(tmp_path, api, login):
    """Even unasked (`login=False`, the worker's view), Claude Code's login is checked when a Codex
    is there: taking the unsigned one would leave capture waiting beside a working login."""
    env = machine(tmp_path, api, claude="out", codex="in")

    choice = picked(env, login=login)

    assert (choice.name, choice.cli) == ("codex", Path(env["MEMTUI_CODEX"]))
    assert choice.why == f"your Codex login ({env['MEMTUI_CODEX']})" and "backend" in choice.fix
    assert api.requests == []


def test_auto_takes_codex_when_there_is_no_claude_code(tmp_path, api):
    env = machine(tmp_path, api, claude=None, codex="in")

    assert picked(env, login=True).name == "codex"
    assert isinstance(open_client(tmp_path / ".memory", {}, env=env), CodexClient)


def test_a_codex_that_is_not_signed_in_is_no_backend_and_says_codex_login(tmp_path, api):
    env = machine(tmp_path, api, claude=None, codex="out")

    choice = picked(env, login=True)

    assert choice.name == "off" and choice.why.startswith("Codex is not signed in")
    assert "`codex login`" in choice.fix


@needs_claude
def test_with_neither_signed_in_auto_is_off_and_names_both_ways_in(tmp_path, api):
    choice = picked(machine(tmp_path, api, claude="out", codex="out"), login=True)

    assert choice.name == "off" and "neither Claude Code" in choice.why and "nor Codex" in choice.why
    assert choice.fix == GET_ONE and "`codex login`" in GET_ONE and "`claude`" in GET_ONE


def test_with_nothing_installed_the_fix_names_every_way_to_a_model(tmp_path, api):
    choice = picked(machine(tmp_path, api, claude=None, codex=None), login=True)

    assert choice.name == "off"
    assert choice.why == "no Anthropic API key, no Claude Code, no Codex and no Gemini CLI found"
    assert choice.fix == GET_ONE
    with pytest.raises(NoApiKey) as caught:
        open_client(tmp_path / ".memory", {}, env=machine(tmp_path, api, claude=None, codex=None))
    assert "`codex login`" in caught.value.fix


@needs_claude
def test_backend_codex_asks_for_codex_over_a_key_and_a_claude_login(tmp_path, api):
    env = {**machine(tmp_path, api, claude="in", codex="in"), "ANTHROPIC_API_KEY": "sk-ant-test"}

    from_config = picked(env, login=True, backend="codex")
    from_env = picked({**env, "MEMTUI_LLM_BACKEND": "codex"}, login=False)

    assert from_config.name == from_env.name == "codex"
    assert isinstance(open_client(tmp_path / ".memory", {"backend": "codex"}, env=env), CodexClient)


def test_backend_codex_without_codex_says_how_to_install_it(tmp_path, api):
    env = machine(tmp_path, api, claude=None, codex=None)

    choice = picked(env, login=False, backend="codex")

    assert choice.name == "off" and "Codex CLI was not found ([llm] backend" in choice.why
    assert "npm install -g @openai/codex" in choice.fix


def test_the_codex_path_can_be_set_in_the_persons_own_config(tmp_path, api):
    env = machine(tmp_path, api, claude=None, codex="in")
    codex = env.pop("MEMTUI_CODEX")

    assert picked(env, login=False, backend="codex").name == "off"  # not on PATH here
    assert picked(env, login=True, backend="codex", codex=codex).name == "off"  # a project's file cannot say
    own = Path(env["HOME"]) / ".config" / "memtui" / "config.toml"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text(f'[llm]\ncodex = "{codex}"\n')
    assert picked(env, login=True, backend="codex").cli == Path(codex)


def test_an_unknown_backend_names_codex_among_the_choices():
    with pytest.raises(ConfigError) as caught:
        LLMSettings.load({"backend": "gpt"}, {})

    assert "auto, api, claude-code, codex, gemini, off" in str(caught.value)


def test_the_codex_model_is_the_persons_unless_llm_model_names_one(tmp_path, api):
    from memtui.llm.codex import model_label

    env = machine(tmp_path, api, claude=None, codex="in")

    assert model_label(LLMSettings.load({}, env), env) == "gpt-5.1-codex"
    assert model_label(LLMSettings.load({"model": "gpt-5.1-codex-mini"}, env), env) == "gpt-5.1-codex-mini"
    assert model_label(LLMSettings.load({"model": "claude-haiku-4-5"}, env), env) == "gpt-5.1-codex"


def test_a_provider_whose_key_is_in_the_environment_needs_no_codex_login(tmp_path, api):
    """A gateway's key in `env_key`: `codex login status` says "Not logged in", yet Codex works."""
    env = {**codex_env(codex_home(tmp_path / "codex", api.url)), "MEMTUI_CODEX": str(require_codex())}
    env["MEMTUI_CLAUDE"] = str(tmp_path / "no-claude")

    assert picked(env, login=True).name == "codex"
    assert picked({k: v for k, v in env.items() if not k.startswith("FAKE_")}, login=True).name == "off"


def test_a_malformed_provider_table_is_ignored_not_fatal(tmp_path, api):
    from memtui.llm.codex import carried, signed_in

    home = tmp_path / "codex"
    home.mkdir()
    (home / "config.toml").write_text('model_provider = "corp"\nmodel_providers = "corp"\n')
    env = {**codex_env(home), "CODEX_HOME": str(home)}

    assert carried(env) == ["-c", 'model_provider="corp"']
    assert signed_in(require_codex(), env) is None  # Codex cannot read it either: it cannot say
