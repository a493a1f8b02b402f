"""Every kind of secret, pushed through capture: the transcript sent to the model, the memories the
model extracts, `ask`'s prompt, and an API error that quotes what it was sent. None of it may reach
the model or any file of the project."""

from __future__ import annotations

import json

from capture_helpers import assistant, memories, text, user, write_lines
from fakeapi import error, tool
from fakeapi import text as text_reply
from secretkit import SECRETS, batches, leaked, pieces

from memtui.capture.ask import ask
from memtui.capture.pipeline import extract


def sent(api) -> list[str]:
    """Kinds of secret found in any request the fake API received."""
    wanted = {kind: pieces(secret) for kind, secret in SECRETS.items()}
    # What memtui sent: the system prompt and the user turns (a client that keeps a conversation, as
    # Claude Code does, also sends back the model's own earlier answer, which is not memtui's to redact).
    bodies = [
        json.dumps(
            [request.body.get("system"), [m for m in request.body.get("messages", []) if m.get("role") == "user"]],
            ensure_ascii=False,
        ).lower()
        for request in api.requests
    ]
    # JSON escapes the private key's newlines; its pieces come from one line of it, so they still match.
    return sorted({kind for kind, parts in wanted.items() for body in bodies if any(p in body for p in parts)})


def places(bank) -> list:
    return [bank.project.memory_dir, bank.project.root / "CLAUDE.md", *(s.path for s in bank.markdown)]


def test_no_secret_reaches_the_model_or_the_project(llm, bank, tmp_path):
    texts = batches()
    transcript = write_lines(tmp_path / "s.jsonl", *[record for t in texts for record in (user(t), assistant(text(t)))])
    # The model answers with memories that repeat the secrets it (should never have) seen.
    llm.script(*[tool(memories(*[("context", t) for t in texts]))] * 4)
    result = extract(bank, transcript, session_id="s", event="SessionEnd")
    assert result.ok and result.saved
    assert llm.requests and sent(llm) == []

    llm.clear()
    llm.script(text_reply("Use the release bot."))
    answer = ask(bank, f"What do the release bot and {SECRETS['github-token']} push?")
    assert llm.requests and sent(llm) == [], answer

    # An API error that quotes its input lands in status.json and the logs redacted.
    write_lines(transcript, *[user(t) for t in texts])
    llm.clear()
    llm.script(*[error(400, message=f"invalid request near {t}") for t in texts] * 3)
    failed = extract(bank, transcript, session_id="s", event="SessionEnd")
    assert not failed.ok
    status = bank.project.path("status.json").read_text(encoding="utf-8")
    assert "[REDACTED:" in status

    assert leaked(*places(bank)) == []
    assert bank.memories() and all("[REDACTED:" in m.content for m in bank.memories() if "with" in m.content)
