"""Gemini's place among the backends, on a machine with the real CLIs: `auto` takes a key, else a
signed-in Claude Code, else a signed-in Codex, else a signed-in Gemini CLI; `gemini` asks for it by
name. Gemini's login is told from its files and the environment (no process runs); Codex's is
asked of `codex login status`. Nothing reaches a model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from codexkit import codex_env, codex_home, require_codex
from codexkit import sign_in as codex_sign_in
from fakegemini import start_fake_gemini
from fakeresponses import start_fake_responses
from geminikit import KEY, gemini_home, require_gemini

from memtui.llm.backend import choose, model_name, open_client
from memtui.llm.gemini import SIGN_IN_FIX, GeminiClient
from memtui.llm.settings import LLMSettings


@pytest.fixture
def apis():
    servers = start_fake_responses(), start_fake_gemini()
    yield servers
    for server in servers:
        server.close()


def machine(tmp_path: Path, apis, *, codex: str | None, gemini: str | None) -> dict[str, str]:
    """The environment of a memtui process on a machine without Claude Code or an API key, whose
    Codex and Gemini CLI are each "in" (signed in), "out" (installed, never signed in) or None."""
    responses, google = apis
    home = tmp_path / "codex"
    if codex == "in":
        env = codex_sign_in(require_codex(), home, responses.url)
    else:
        env = {k: v for k, v in codex_env(codex_home(home, responses.url)).items() if not k.startswith("FAKE_")}
        env["MEMTUI_CODEX"] = str(require_codex()) if codex == "out" else str(tmp_path / "no-codex")
    env["MEMTUI_CLAUDE"] = str(tmp_path / "no-claude")
    env["MEMTUI_GEMINI"] = str(require_gemini()) if gemini else str(tmp_path / "no-gemini")
    if gemini == "in":  # a Gemini API key (the stand-in for a Google login, which needs Google)
        gemini_home(Path(env["HOME"]))
        env.update({"GEMINI_API_KEY": KEY, "GOOGLE_GEMINI_BASE_URL": google.url})
    else:  # Login with Google chosen, never completed: no stored token
        gemini_home(Path(env["HOME"]), settings={"security": {"auth": {"selectedType": "oauth-personal"}}})
    return env


def picked(env: dict[str, str], *, login: bool, **section: str):
    return choose(LLMSettings.load(section, env), env, login=login)


@pytest.mark.parametrize("login", [True, False])
def test_auto_takes_a_signed_in_gemini_when_there_is_no_key_claude_code_or_codex(tmp_path, apis, login):
    env = machine(tmp_path, apis, codex=None, gemini="in")

    choice = picked(env, login=login)

    assert (choice.name, choice.cli) == ("gemini", Path(env["MEMTUI_GEMINI"]))
    assert choice.why == f"your Gemini login ({env['MEMTUI_GEMINI']})" and "backend" in choice.fix
    assert isinstance(open_client(tmp_path / ".memory", {}, env=env), GeminiClient)


@pytest.mark.parametrize("login", [True, False])
def test_auto_takes_a_signed_in_codex_before_gemini(tmp_path, apis, login):
    assert picked(machine(tmp_path, apis, codex="in", gemini="in"), login=login).name == "codex"


@pytest.mark.parametrize("login", [True, False])
def test_auto_takes_gemini_when_codex_is_installed_but_not_signed_in(tmp_path, apis, login):
    """Even unasked (the worker's view), Codex's login is checked when a Gemini comes after it."""
    assert picked(machine(tmp_path, apis, codex="out", gemini="in"), login=login).name == "gemini"


def test_a_gemini_that_is_not_signed_in_is_no_backend_and_says_how_to_sign_in(tmp_path, apis):
    env = machine(tmp_path, apis, codex=None, gemini="out")

    choice = picked(env, login=True)

    assert choice.name == "off" and choice.why == f"Gemini is not signed in ({env['MEMTUI_GEMINI']})"
    assert choice.fix == SIGN_IN_FIX
    assert picked(env, login=False).name == "gemini"  # unasked, the first call finds out (and the job waits)


def test_with_codex_and_gemini_both_signed_out_auto_is_off_and_names_both(tmp_path, apis):
    choice = picked(machine(tmp_path, apis, codex="out", gemini="out"), login=True)

    assert choice.name == "off" and "neither Codex" in choice.why and "nor Gemini" in choice.why
    assert "`gemini`" in choice.fix and "`codex login`" in choice.fix


def test_backend_gemini_asks_for_gemini_over_a_key_and_a_codex_login(tmp_path, apis):
    env = {**machine(tmp_path, apis, codex="in", gemini="in"), "ANTHROPIC_API_KEY": "sk-ant-test"}

    from_config = picked(env, login=True, backend="gemini")
    from_env = picked({**env, "MEMTUI_LLM_BACKEND": "gemini"}, login=False)

    assert from_config.name == from_env.name == "gemini"
    assert isinstance(open_client(tmp_path / ".memory", {"backend": "gemini"}, env=env), GeminiClient)


def test_backend_gemini_without_gemini_says_how_to_install_it(tmp_path, apis):
    env = machine(tmp_path, apis, codex="in", gemini=None)

    choice = picked(env, login=False, backend="gemini")

    assert choice.name == "off" and "Gemini CLI was not found ([llm] backend" in choice.why
    assert "npm install -g @google/gemini-cli" in choice.fix


def test_the_gemini_path_can_be_set_in_the_persons_own_config(tmp_path, apis):
    env = machine(tmp_path, apis, codex=None, gemini="in")
    gemini = env.pop("MEMTUI_GEMINI")

    assert picked(env, login=False, backend="gemini").name == "off"  # not on PATH here
    assert picked(env, login=True, backend="gemini", gemini=gemini).name == "off"  # a project's file cannot say
    own = Path(env["HOME"]) / ".config" / "memtui" / "config.toml"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text(f'[llm]\ngemini = "{gemini}"\n')
    assert picked(env, login=True, backend="gemini").cli == Path(gemini)


def test_status_names_the_persons_gemini_model_unless_llm_model_names_one(tmp_path, apis):
    env = machine(tmp_path, apis, codex=None, gemini="in")
    choice = picked(env, login=True)

    assert model_name(choice, LLMSettings.load({}, env), env) == "gemini-default"  # Gemini's own choice
    settings = Path(env["HOME"]) / ".gemini" / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "model": {"name": "gemini-2.5-pro"}}))
    assert model_name(choice, LLMSettings.load({}, env), env) == "gemini-2.5-pro"
    assert model_name(choice, LLMSettings.load({"model": "gemini-2.5-flash"}, env), env) == "gemini-2.5-flash"
