"""extract(): transcript → memories through the real SDK and a fake API; nothing lost, nothing twice."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from capture_helpers import asked, assistant, conversation, memories, text, user, write_lines
from conftest import fast_env
from fakeapi import delay, error, raw, tool
from fakeapi import text as text_reply
from secretkit import URLSAFE, fill

from memtui.capture import health
from memtui.capture.pipeline import extract
from memtui.core import ids
from memtui.store.bank import Bank

#: The session names these tests use, by the digest memtui stores instead (core/ids.py).
_NAMES = {ids.session(name): name for name in ("s", "sess-a", "sess-x", "sess-b", "a", "b", "parent", "fork")}


def _cursor(bank):
    path = bank.project.path("cursor.json")
    return {_NAMES.get(k, k): v for k, v in json.loads(path.read_text()).items()} if path.exists() else {}


def _status(bank):
    return json.loads(bank.project.path("status.json").read_text())


def test_extracts_the_spotter_sample_into_unreviewed_memories_with_their_source(llm, bank, sample):
    path = sample("spotter-2.1.39.jsonl")
    llm.script(
        tool(
            memories(
                ("decision", "The spotter-4te epic adds OpenTelemetry tracing from plugin to LiveView."),
                {
                    "type": "gotcha",
                    "content": "Run `bd ready` to find subtasks with no blockers.",
                    "tags": ["Beads", "workflow"],
                    "supersedes": None,
                },
            )
        )
    )
    result = extract(bank, path, session_id="sess-a", event="Stop")
    assert result.ok and result.chunks == 1 and result.new_lines == 19
    assert [m.type for m in result.saved] == ["decision", "gotcha"]
    saved = {m.content: m for m in Bank.open(bank.project.root).memories()}
    gotcha = saved["Run `bd ready` to find subtasks with no blockers."]
    assert gotcha.reviewed is False and gotcha.source.session == ids.session("sess-a") and gotcha.source.event == "Stop"
    assert gotcha.tags == ("beads", "workflow")
    assert _cursor(bank) == {"sess-a": 19}
    [request] = llm.messages()
    assert asked(llm, request, "record_memories") and request.model == "claude-haiku-4-5"
    assert "USER: Work on bead spotter-4te" in request.prompt_text and "TOOL [Bash]: bd ready" in request.prompt_text
    # relative dates are resolved against the day the conversation happened, not the day of the run
    assert "2026-02-12 (Thursday)" in request.system_text and "YYYY-MM-DD" in request.system_text
    assert "what the code or the git history already says" in request.system_text
    assert bank.state.header["extractionCount"] == 1
    status = _status(bank)
    assert status["lastRun"]["ok"] and status["lastRun"]["saved"] == 2 and status.get("lastError") is None


def test_the_explicit_request_is_saved_and_shown_to_the_model_as_existing(llm, bank, sample):
    llm.script(tool(memories()))
    result = extract(bank, sample(), session_id="s", event="Stop")
    assert result.ok and result.explicit == 1
    [memory] = result.saved
    assert (memory.type, memory.content) == ("feedback", "User prefers uv.")
    assert f"[{memory.id}] (feedback) User prefers uv." in llm.messages()[0].prompt_text


def test_only_new_lines_go_to_the_model_and_stop_waits_for_three(llm, bank, tmp_path):
    path = write_lines(
        tmp_path / "s.jsonl",
        user("We chose Redis for the job queue."),
        assistant(text("Noted: Redis backs the job queue.")),
        user("ok"),
    )
    llm.script(
        tool(memories(("decision", "Redis backs the job queue."))),
        tool(memories(("gotcha", "Celery 5.4 needs a result backend."))),
    )
    assert extract(bank, path, session_id="s", event="Stop").ok
    write_lines(
        path,
        user("Celery 5.4 fails without a result backend."),
        assistant(text("Added one; Redis backs the job queue.")),
    )
    waiting = extract(bank, path, session_id="s", event="Stop")
    assert waiting.skipped.startswith("2 new lines") and not waiting.saved and _cursor(bank) == {"s": 3}
    assert len(llm.messages()) == 1
    assert extract(bank, path, session_id="s", event="PreCompact").ok  # PreCompact needs only one
    second = llm.messages()[1].prompt_text
    assert "Celery 5.4 fails" in second and "We chose Redis" not in second
    assert "] (decision) Redis backs the job queue." in second  # the first run's memory, shown as existing
    assert _cursor(bank) == {"s": 5}


FAILURES = {
    "http-500": ([error(500)] * 3, "unavailable", "failing (500)"),
    "overloaded-529": ([error(529)] * 3, "unavailable", "overloaded"),
    "timeout": ([delay(2.5, tool(memories(("decision", "late"))))] * 3, "unavailable", "did not answer within"),
    "model-404": ([error(404, message="model: claude-retired-1")], "model-not-found", "claude-retired-1"),
    "schema-mismatch": ([tool({"memories": [{"type": "decision"}]})], "bad-output", "content is missing"),
    "no-tool-call": ([text_reply("Here are the memories: []")], "bad-output", "without calling record_memories"),
    "unknown-type": ([tool(memories(("vibes", "x")))], "bad-output", "not one of"),
    "body-not-json": ([raw("{not json")] * 3, "unavailable", "not valid JSON"),
}


@pytest.mark.parametrize("name", list(FAILURES))
def test_a_failed_run_saves_nothing_keeps_the_cursor_and_the_next_run_captures_it_once(api_llm, bank, tmp_path, name):
    replies, kind, words = FAILURES[name]
    if name == "model-404":
        bank.project.path("config.toml").write_text('[llm]\nmodel = "claude-retired-1"\n')
        bank = Bank.open(bank.project.root)
    path = write_lines(
        tmp_path / "s.jsonl",
        user("The billing service talks to Stripe through src/billing/gateway.py"),
        assistant(text("Understood.")),
        user("and retries idempotently"),
    )
    api_llm.script(*replies)
    failed = extract(bank, path, session_id="s", event="Stop")
    assert not failed.ok and failed.kind == kind and words in failed.error and failed.fix
    assert [m for m in bank.memories()] == [] and _cursor(bank) == {}
    status = _status(bank)
    assert status["lastError"]["kind"] == kind and status["lastError"]["fix"] == failed.fix
    assert status["lastRun"]["ok"] is False
    report = health.read(bank)
    assert report["last_error"]["kind"] == kind and not report["error_resolved"] and report["fix"] == failed.fix
    assert report["pending_bytes"] == path.stat().st_size
    assert report["pending"] == [{"session": ids.session("s"), "transcript": str(path), "bytes": path.stat().st_size}]
    if name == "model-404":
        assert "MEMTUI_MODEL" in failed.fix and "[llm] model" in failed.fix and len(api_llm.messages()) == 1

    bank.project.path("config.toml").write_text("")
    bank = Bank.open(bank.project.root)
    api_llm.clear()
    api_llm.script(
        tool(memories(("architecture", "Billing talks to Stripe via src/billing/gateway.py with idempotent retries.")))
    )
    later = extract(bank, path, session_id="s", event="Stop")
    assert later.ok and [m.content for m in later.saved] == [
        "Billing talks to Stripe via src/billing/gateway.py with idempotent retries."
    ]
    assert "src/billing/gateway.py" in api_llm.messages()[0].prompt_text
    assert _cursor(bank) == {"s": 3}
    assert len(Bank.open(bank.project.root).memories()) == 1
    assert extract(bank, path, session_id="s", event="Stop").skipped  # nothing new: no second capture
    assert len(api_llm.messages()) == 1
    report = health.read(bank)
    assert report["error_resolved"] and report["fix"] is None and report["pending_bytes"] == 0


def test_transient_errors_are_retried_within_the_run(api_llm, bank, sample):
    api_llm.script(
        error(529), error(500, headers={"retry-after": "0"}), tool(memories(("pattern", "Use uv for every script.")))
    )
    result = extract(bank, sample(), session_id="s", event="Stop")
    assert (
        result.ok
        and len(api_llm.messages()) == 3
        and [m.content for m in result.saved][-1] == "Use uv for every script."
    )


def test_a_failure_midway_keeps_the_chunks_already_saved(llm, bank, tmp_path):
    path = conversation(tmp_path / "long.jsonl", turns=40)
    llm.script(tool(memories(("progress", "Chunk one done."))), error(500), error(500), error(500))
    first = extract(bank, path, session_id="s", event="SessionEnd", consolidate=False)
    assert not first.ok and first.chunks == 1 and [m.content for m in first.saved] == ["Chunk one done."]
    cursor = _cursor(bank)["s"]
    assert 0 < cursor < 80
    first_prompt = llm.messages()[0].prompt_text
    llm.clear()
    llm.default = tool(memories())
    assert extract(bank, path, session_id="s", event="SessionEnd", consolidate=False).ok
    assert _cursor(bank) == {"s": 80}
    resumed = "\n".join(r.prompt_text for r in llm.messages())
    # the next run starts at the first line not covered: turn 0 was in the saved chunk, the last turn was not
    assert "Turn 0:" in first_prompt and "Turn 0:" not in resumed and "Turn 39:" in resumed


def test_a_key_in_the_transcript_never_reaches_the_model_or_the_store(llm, bank, tmp_path):
    key = "sk-ant-api03-" + "Zx9Yw8Vu" * 6
    path = write_lines(
        tmp_path / "s.jsonl",
        user(f"deploy with ANTHROPIC_API_KEY={key} on staging"),
        assistant(text(f"Set the key {key} in the staging env.")),
        user("thanks"),
    )
    llm.script(tool(memories(("context", f"Staging deploys use the key {key}."))))
    result = extract(bank, path, session_id="s", event="Stop")
    assert result.ok
    assert key not in json.dumps(llm.messages()[0].body)
    assert "[REDACTED" in llm.messages()[0].prompt_text
    stored = bank.project.path("state.json").read_text()
    assert key not in stored and "[REDACTED:anthropic-key]" in stored


def test_without_a_key_explicit_memories_are_saved_and_nothing_is_sent(fake_api, home, bank, sample, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_api.url)
    result = extract(bank, sample(), session_id="s", event="Stop")
    assert result.ok and "no Anthropic API key" in result.skipped and "ANTHROPIC_API_KEY" in result.fix
    assert [(m.type, m.content) for m in bank.memories()] == [("feedback", "User prefers uv.")]
    assert fake_api.requests == []
    report = health.read(bank)
    assert report["api_key"] is None and "ANTHROPIC_API_KEY" in report["fix"]


def test_without_a_key_nothing_is_consumed_and_the_lines_are_extracted_once_a_key_exists(
    fake_api, home, bank, sample, monkeypatch
):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_api.url)
    path = sample()
    journal_before = None
    for attempt in range(2):
        result = extract(bank, path, session_id="s", event="Stop")
        assert result.ok and result.waiting and result.cursor == 0 and "wait for a model" in result.skipped
        assert (
            not bank.project.path("cursor.json").exists()
            or json.loads(bank.project.path("cursor.json").read_text()).get(ids.session("s"), 0) == 0
        )
        journal = bank.project.path("journal.jsonl")
        if attempt == 0:
            journal_before = journal.read_text() if journal.exists() else ""
        else:  # the explicit memory is not saved (nor journalled) again while the lines wait
            assert (journal.read_text() if journal.exists() else "") == journal_before
    status = json.loads(bank.project.path("status.json").read_text())
    assert status["waiting"]["since"] and "lastSuccess" not in status
    assert health.read(bank)["pending_bytes"] > 0
    for key, value in fast_env(fake_api).items():
        monkeypatch.setenv(key, value)
    fake_api.script(tool(memories(("architecture", "The cache layer is Redis."))))
    later = extract(bank, path, session_id="s", event="Stop", consolidate=False)
    assert later.ok and not later.waiting and [m.content for m in later.saved] == ["The cache layer is Redis."]
    assert fake_api.messages() and later.cursor > 0
    assert "waiting" not in json.loads(bank.project.path("status.json").read_text())


def test_the_daily_budget_pauses_capture_visibly_and_resumes_when_raised_or_tomorrow(
    api_llm, bank, tmp_path, monkeypatch
):
    monkeypatch.setenv("MEMTUI_DAILY_BUDGET", "0.01")
    path = write_lines(
        tmp_path / "s.jsonl", user("first fact about the cache layer"), assistant(text("ok")), user("go")
    )
    api_llm.script(
        tool(
            memories(("architecture", "The cache layer is Redis.")), usage={"input_tokens": 20000, "output_tokens": 10}
        )
    )
    assert extract(bank, path, session_id="s", event="Stop").ok  # $0.02 spent: over the $0.01 budget now
    write_lines(path, user("second fact: the queue is RabbitMQ"), assistant(text("ok")), user("go"))
    paused = extract(bank, path, session_id="s", event="Stop")
    assert (
        paused.ok
        and paused.paused
        and "daily LLM budget reached" in paused.skipped
        and "daily_budget_usd" in paused.fix
    )
    assert len(api_llm.messages()) == 1 and _cursor(bank) == {"s": 3}
    report = health.read(bank)
    assert report["paused"] and report["today"]["cost_usd"] == pytest.approx(0.02005) and report["budget_usd"] == 0.01
    assert "daily_budget_usd" in report["fix"]
    assert _status(bank)["paused"]["reason"] == paused.skipped

    monkeypatch.setenv("MEMTUI_DAILY_BUDGET", "1")  # raised
    api_llm.script(tool(memories(("architecture", "The queue is RabbitMQ."))))
    assert extract(bank, path, session_id="s", event="Stop").ok and "second fact" in api_llm.messages()[1].prompt_text
    assert not health.read(bank)["paused"] and "paused" not in _status(bank)

    monkeypatch.setenv("MEMTUI_DAILY_BUDGET", "0.01")
    write_lines(path, user("third fact: logs go to Loki"), assistant(text("ok")), user("go"))
    assert extract(bank, path, session_id="s", event="Stop").paused
    usage = bank.project.path("usage.jsonl")
    usage.write_text(usage.read_text().replace('"day":"', '"day":"1999-01-01","was":"'))  # it is tomorrow now
    api_llm.script(tool(memories()))
    assert not extract(bank, path, session_id="s", event="Stop").paused and _cursor(bank) == {"s": 9}


def test_a_session_end_extraction_triggers_consolidation(llm, bank, tmp_path):
    for i in range(5):  # captured earlier: the automatic run merges nothing a person reviewed
        bank.add("gotcha", f"Gotcha number {i} about subsystem{i} quirk{i}", reviewed=False)
    ids = [m.id for m in bank.memories()]
    path = write_lines(tmp_path / "s.jsonl", user("nothing much"))
    llm.script(
        tool(memories()),
        tool(
            {
                "keep": ids[2:],
                "merge": [{"sources": ids[:2], "content": "Gotchas 0 and 1 together.", "tags": ["merged"]}],
                "drop": [],
            }
        ),
    )
    result = extract(bank, path, session_id="s", event="SessionEnd")
    assert result.ok and result.consolidation["ok"] and result.consolidation["merged"] == 1
    first, second, third, *_ = llm.messages()
    assert asked(llm, first, "record_memories") and asked(llm, second, "consolidation_plan")
    # then the memories added without a model get their questions (capture.enrich), in one call
    assert asked(llm, third, "record_questions") and "Gotchas 0 and 1 together." in third.prompt_text
    active = [m for m in Bank.open(bank.project.root).memories() if m.active]
    assert any(m.merged_from == tuple(ids[:2]) for m in active) and len(active) == 4
    assert _status(bank)["consolidation"]["merged"] == 1


def test_two_extractors_started_at_once_queue_and_capture_once(llm, bank, sample, tmp_path):
    path = sample("spotter-2.1.39.jsonl")
    # a slow answer, so the second process certainly arrives while the first holds the capture lock
    llm.default = delay(
        0.8, tool(memories(("decision", "Tracing spans go from the plugin through Phoenix to LiveView.")))
    )
    env = {
        **fast_env(llm),
        "MEMTUI_LLM_TIMEOUT": "10",
        "HOME": str(tmp_path / "home"),
        "CLAUDE_PROJECT_DIR": str(bank.project.root),
    }
    command = [
        sys.executable,
        "-m",
        "memtui",
        "extract",
        "--transcript",
        str(path),
        "--session",
        "sess-x",
        "--event",
        "Stop",
        "--json",
        "--no-consolidate",
    ]
    started = time.monotonic()
    procs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [o[1] for o in outs]
    results = [json.loads(o[0]) for o in outs]
    assert sorted(len(r["saved"]) for r in results) == [0, 1]
    assert any(r["skipped"] and r["skipped"].startswith("0 new line") for r in results)
    assert len(llm.messages()) == 1 and time.monotonic() - started < 30
    contents = [m.content for m in Bank.open(bank.project.root).memories()]
    assert contents == ["Tracing spans go from the plugin through Phoenix to LiveView."]
    assert _cursor(bank) == {"sess-x": 19}


def test_a_forked_session_sends_only_its_own_records(llm, bank, tmp_path):
    """Issue 14.5: `--fork-session` copies the parent's records (same uuids) into a new session;
    the extractor gets only what the fork added, and an explicit request is not saved twice."""
    parent = [
        user("remember that we ship with make release"),
        assistant(text("Noted.")),
        user("We chose Redis for the job queue because Celery already needs it."),
        assistant(text("Redis it is.")),
    ]
    first = write_lines(tmp_path / "parent.jsonl", *parent)
    llm.script(
        tool(memories(("decision", "Redis backs the job queue."))),
        tool(memories(("gotcha", "Staging resets every Sunday."))),
    )
    assert extract(bank, first, session_id="parent", event="SessionEnd").ok
    fork = write_lines(
        tmp_path / "fork.jsonl",
        *parent,
        user("Also: the staging database is reset every Sunday night."),
        assistant(text("Got it.")),
    )
    result = extract(bank, fork, session_id="fork", event="SessionEnd")
    assert result.ok and result.explicit == 0
    extraction = [m for m in llm.messages() if "<transcript>" in m.prompt_text][-1]
    conversation = extraction.prompt_text.split("<transcript>")[-1]
    assert "staging database is reset" in conversation
    assert "We chose Redis" not in conversation and "make release" not in conversation
    contents = [m.content for m in Bank(bank.project).memories()]
    assert sum("make release" in c for c in contents) == 1
    assert _cursor(bank) == {"parent": 4, "fork": 6}  # the fork's own cursor still covers every line


def test_private_spans_never_reach_the_model_or_the_store(llm, bank, tmp_path):
    """Issue 10 (`<private>`): wrapped text is removed before the transcript goes to the model,
    and an explicit request keeps only what is outside the span."""
    path = write_lines(
        tmp_path / "p.jsonl",
        user("remember that the staging VPN is vpn.example.internal <private>pin 88231 for me</private>"),
        assistant(text("Noted; <private>your pin 88231</private> stays with you.")),
        user("We chose Redis for the job queue <private>because Dana hates RabbitMQ</private>."),
    )
    llm.script(tool(memories(("decision", "Redis backs the job queue."))))
    assert extract(bank, path, session_id="s", event="SessionEnd").ok
    sent = llm.messages()[-1].prompt_text
    assert "88231" not in sent and "Dana" not in sent and "We chose Redis" in sent
    stored = " ".join(m.content for m in Bank(bank.project).memories())
    assert "vpn.example.internal" in stored and "88231" not in stored
    assert "88231" not in "".join(
        p.read_text(errors="replace") for p in bank.project.memory_dir.rglob("*") if p.is_file()
    )


KEY = "sk-ant-api03-" + fill("enrich", 93, URLSAFE) + "AA"


def test_memories_saved_without_a_model_get_questions_after_the_next_capture(llm, bank, tmp_path):
    plain = bank.add("decision", "We deploy with make ship from the main branch only").memory
    short = bank.add("feedback", "Uses uv").memory  # too short to be worth a call
    path = write_lines(tmp_path / "s.jsonl", user("The staging database is reset every Monday night"))
    llm.script(
        tool(
            memories(
                {
                    "type": "gotcha",
                    "content": "The staging database is reset every Monday night.",
                    "tags": ["staging"],
                    "questions": ["why did my staging data vanish?", "when is staging wiped?"],
                    "supersedes": None,
                }
            )
        ),
        tool(
            {
                "memories": [
                    {"id": plain.id, "questions": ["how do we release to production?", f"is {KEY} the key?"]},
                    {"id": "mem_1_invented", "questions": ["a memory it was never shown"]},
                ]
            }
        ),
    )
    result = extract(bank, path, session_id="s", event="PreCompact")
    assert result.ok and result.enrichment == {"ok": True, "asked": 1, "enriched": 1}
    stored = {m.id: m for m in Bank.open(bank.project.root).memories()}
    [captured] = result.saved
    assert stored[captured.id].questions == ("why did my staging data vanish?", "when is staging wiped?")
    asked_about = stored[plain.id].questions
    assert asked_about[0] == "how do we release to production?" and KEY not in asked_about[1]
    assert stored[short.id].questions == () and "mem_1_invented" not in stored
    enrichment = llm.messages()[1]
    assert plain.id in enrichment.prompt_text and captured.id not in enrichment.prompt_text
    assert short.id not in enrichment.prompt_text
    # kept in state.json as an optional key memory-mcp ignores; never in the CLAUDE.md block
    raw = json.loads(bank.project.path("state.json").read_text())
    [entry] = [m for m in raw["memories"] if m["id"] == plain.id]
    assert entry["questions"][0] == "how do we release to production?"
    from memtui.core.clock import utcnow
    from memtui.core.render_block import render

    block = render(list(stored.values()), utcnow(), project="p").text
    assert "how do we release to production?" not in block and "We deploy with make ship" in block


def test_an_enrichment_the_model_fails_leaves_the_memories_waiting(api_llm, bank, tmp_path):
    plain = bank.add("decision", "We deploy with make ship from the main branch only").memory
    path = write_lines(tmp_path / "s.jsonl", user("The staging database is reset every Monday night"))
    api_llm.script(tool(memories()), error(400, message="bad request"))
    result = extract(bank, path, session_id="s", event="PreCompact")
    assert result.ok and result.enrichment["ok"] is False and result.enrichment["asked"] == 1
    assert Bank.open(bank.project.root).get(plain.id).questions == ()


def test_a_memory_the_model_gives_no_questions_for_is_not_asked_about_again(api_llm, bank, tmp_path):
    plain = bank.add("decision", "We deploy with make ship from the main branch only").memory
    path = write_lines(tmp_path / "s.jsonl", user("The staging database is reset every Monday night"))
    api_llm.script(tool(memories()), tool({"memories": []}))
    assert extract(bank, path, session_id="s", event="PreCompact").enrichment == {"ok": True, "asked": 1, "enriched": 0}
    write_lines(path, user("The API runs on port 8080 behind nginx"))
    api_llm.script(tool(memories()))
    again = extract(bank, path, session_id="s", event="PreCompact")
    # extraction, enrichment, extraction: the memory was not sent to be enriched a second time
    assert again.ok and again.enrichment is None and len(api_llm.messages()) == 3
    assert Bank.open(bank.project.root).get(plain.id).questions == ()
