"""config.toml means the same to a hook as to `memtui status`: it is parsed whenever it has content
(valid TOML in any spelling), never sniffed for the text `[hooks`."""

from __future__ import annotations

from hookkit import context_of

from memtui.runtime import service


def _config(project, text: str) -> None:
    project.path("config.toml").write_text(text, encoding="utf-8")


def test_inline_tables_are_honoured_by_hooks(hook, project, bank):
    bank.add("decision", "We deploy the service to production with make ship from the main branch")
    prompt = "How do we deploy the service to production?"
    assert "make ship" in context_of(hook("UserPromptSubmit", prompt=prompt))
    _config(project, "hooks = { recall = false }\nservice = { enabled = false }\n")
    assert hook("UserPromptSubmit", prompt=prompt, session="another-session") is None


def test_a_service_status_calls_disabled_is_never_started_by_a_hook(hook, project, bank, cli):
    _config(project, "service = { enabled = false }\n")
    bank.add("decision", "We deploy the service to production with make ship from the main branch")
    hook("UserPromptSubmit", prompt="How do we deploy the service to production?")
    assert not service.runtime_path(project, service.LOCK).exists()  # ensure() takes it before spawning
    assert b"disabled" in cli("status", cwd=project.root).stdout
