"""Every kind of secret through the hooks: an explicit "remember that …" (saved in the hook, no
model), what the hook answers Claude Code, recall of it later, and a payload the hook must log."""

from __future__ import annotations

import json

from hookkit import payload, run_hook
from secretkit import SECRETS, SENTENCES, leaked, pieces

from memtui.runtime import log


def places(project, home):
    return [project.memory_dir, project.root / "CLAUDE.md", project.root / ".claude", home / ".claude"]


def quoted(answer) -> list[str]:
    text = json.dumps(answer or {}, ensure_ascii=False).lower()
    return sorted(kind for kind, secret in SECRETS.items() if any(p in text for p in pieces(secret)))


def test_explicit_saves_answers_and_logs_hold_no_secret(hook, project, home):
    sentences = list(SENTENCES.values())
    for i in range(0, len(sentences), 6):
        prompt = " ".join(f"Remember that {s.rstrip('.')}." for s in sentences[i : i + 6] if "\n" not in s)
        answer = hook("UserPromptSubmit", prompt=prompt)
        assert "memtui saved this" in json.dumps(answer)
        assert quoted(answer) == []
    # The private key spans lines: "remember" it on its own.
    assert quoted(hook("UserPromptSubmit", prompt=f"Remember that {SENTENCES['private-key']}")) == []
    saved = json.loads(project.path("state.json").read_text(encoding="utf-8"))["memories"]
    assert len(saved) >= 8 and sum("[REDACTED:" in m["content"] for m in saved) >= 8

    # Recall of what was saved, at the next session and on a prompt about it.
    assert quoted(hook("SessionStart")) == []
    assert (
        quoted(hook("UserPromptSubmit", prompt="How does the release bot push tags and what does CI pull config with?"))
        == []
    )

    # Payloads the hook cannot use are not echoed anywhere.
    broken = '{"hook_event_name": "UserPromptSubmit", "prompt": "' + SENTENCES["gitlab-token"]
    run_hook("UserPromptSubmit", broken, root=project.root, home=home)
    run_hook(
        "UserPromptSubmit",
        payload("UserPromptSubmit", project.root, session=SENTENCES["stripe-key"], prompt="remember that x"),
        root=project.root,
        home=home,
    )
    assert leaked(*places(project, home)) == []


def test_a_log_line_that_quotes_a_secret_is_written_redacted(project, home):
    """hooks.log (and the worker's and service's logs, written the same way) never holds a secret,
    whatever an exception message quotes."""
    for kind, sentence in SENTENCES.items():
        log.write(project.memory_dir, "Stop", f"could not parse {kind}: {sentence}")
    text = (project.memory_dir / "logs" / "hooks.log").read_text(encoding="utf-8")
    assert text.count("\n") == len(SENTENCES) and "[REDACTED:" in text
    assert leaked(project.memory_dir) == []
