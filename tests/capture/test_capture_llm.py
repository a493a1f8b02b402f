"""The model boundary: keys, settings, usage and budget, schemas, import hygiene; the CLI faces; the fake itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from capture_helpers import assistant, memories, text, user, write_lines
from fakeapi import error, tool

from memtui.errors import ConfigError
from memtui.llm import keys, usage
from memtui.llm.errors import BadOutput, ModelNotFound
from memtui.llm.schema import CONSOLIDATION, errors, extraction, validate
from memtui.llm.settings import LLMSettings

TESTS = Path(__file__).resolve().parents[1]


def test_key_resolution_follows_memory_mcps_order_then_our_own(home):
    env = {"HOME": str(home)}
    assert keys.resolve(env) is None
    own = home / ".config" / "memtui" / "config.toml"
    own.parent.mkdir(parents=True)
    own.write_text('[llm]\napi_key = "k-own"\n')
    assert keys.resolve(env).value == "k-own"
    (home / ".anthropic").mkdir()
    (home / ".anthropic" / "api_key").write_text("k-dot-anthropic\n")
    assert keys.resolve(env).source == "~/.anthropic/api_key"
    (home / ".config" / "anthropic").mkdir(parents=True)
    (home / ".config" / "anthropic" / "api_key").write_text("k-config\n")
    assert keys.resolve(env).value == "k-config"
    (home / ".memory-mcp").mkdir()
    (home / ".memory-mcp" / "config.json").write_text(json.dumps({"apiKey": "k-mcp"}))
    assert keys.resolve(env).value == "k-mcp"
    found = keys.resolve({**env, "ANTHROPIC_API_KEY": "k-env"})
    assert (found.value, found.source) == ("k-env", "ANTHROPIC_API_KEY") and "k-env" not in repr(found)


def test_settings_come_from_config_and_the_environment_wins():
    assert LLMSettings.load({}, {}).model == "claude-haiku-4-5"
    configured = LLMSettings.load({"model": "claude-sonnet-4-5", "daily_budget_usd": 0.5}, {}, user={})
    assert (configured.model, configured.daily_budget_usd) == ("claude-sonnet-4-5", 0.5)
    assert "config.toml" in configured.model_source
    # A project may lower the budget, not raise it (tests/llm/test_llm_config_split.py): your own
    # config may.
    assert LLMSettings.load({"daily_budget_usd": 3}, {}, user={}).daily_budget_usd == 1.0
    assert LLMSettings.load({}, {}, user={"daily_budget_usd": 3}).daily_budget_usd == 3.0
    overridden = LLMSettings.load(
        {"model": "claude-sonnet-4-5"}, {"MEMTUI_MODEL": "claude-haiku-5-5", "MEMTUI_LLM_RETRIES": "0"}
    )
    assert (overridden.model, overridden.max_retries) == (
        "claude-haiku-5-5",
        0,
    ) and "MEMTUI_MODEL" in overridden.model_source
    with pytest.raises(ConfigError, match="daily_budget_usd must be a number"):
        LLMSettings.load({"daily_budget_usd": "lots"}, {})


def test_cost_estimates_and_todays_totals(tmp_path):
    assert usage.cost("claude-haiku-4-5", 1_000_000, 1_000_000) == pytest.approx(6.0)
    assert usage.cost("claude-sonnet-4-5-20250929", 1_000_000, 0) == pytest.approx(3.0)
    assert usage.cost("claude-haiku-4-5", 0, 0, cache_write=1_000_000, cache_read=1_000_000) == pytest.approx(1.35)
    assert usage.cost("some-future-model", 1_000_000, 0) == pytest.approx(3.0)  # unknown: priced high, never free
    path = tmp_path / "usage.jsonl"
    path.write_text(json.dumps({"day": "2000-01-01", "costUsd": 50, "input": 9, "output": 9}) + "\n")
    for _ in range(3):
        usage.record(path, model="claude-haiku-4-5", purpose="extraction", input_tokens=1000, output_tokens=100)
    totals = usage.today(path)
    assert (totals.calls, totals.input_tokens, totals.output_tokens) == (3, 3000, 300)
    assert totals.cost_usd == pytest.approx(3 * 0.0015)


def test_schema_validation_names_the_problem():
    schema = extraction(["decision", "gotcha"])
    assert validate({"memories": [{"type": "gotcha", "content": "x", "tags": []}]}, schema, "answer")
    assert errors({"memories": [{"type": "nope", "content": "", "tags": "a", "extra": 1}]}, schema) == [
        "$.memories[0].type is 'nope', not one of decision, gotcha",
        "$.memories[0].content is empty",
        "$.memories[0].tags should be array, not str",
        "$.memories[0].extra is not expected",
    ]
    with pytest.raises(BadOutput, match="did not match the schema"):
        validate({"keep": []}, CONSOLIDATION, "plan")


def test_a_retired_model_is_a_clear_health_error(api_llm, bank, tmp_path):
    from memtui.capture import health
    from memtui.capture.pipeline import extract

    api_llm.script(error(404, message="model: claude-3-5-haiku-20241022"))
    path = write_lines(tmp_path / "s.jsonl", user("a"), user("b"), user("c"))
    result = extract(bank, path, session_id="s", event="Stop")
    assert result.kind == ModelNotFound.kind and "'claude-haiku-4-5' was not found" in result.error
    assert "MEMTUI_MODEL" in health.read(bank)["fix"]


def test_fast_paths_never_import_the_sdk():
    code = (
        "import sys; import memtui.capture.explicit, memtui.llm, memtui.capture.pipeline, memtui.capture.health, "
        "memtui.capture.consolidate, memtui.capture.ask, memtui.commands.capture; "
        "print('anthropic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_extract_command_and_status_show_what_happened(api_llm, project, cli, tmp_path):
    path = write_lines(
        tmp_path / "s.jsonl",
        user("We pinned numpy below 2 because of the C extension."),
        assistant(text("Pinned.")),
        user("thanks"),
    )
    api_llm.script(tool(memories(("decision", "numpy is pinned below 2 because the C extension breaks on 2.x."))))
    out = cli("extract", "--transcript", str(path), "--event", "Stop", cwd=project.root)
    assert out.returncode == 0, out.stderr
    assert b"Captured 1 new memory from 3 new lines" in out.stdout and b"numpy is pinned" in out.stdout
    status = cli("status", cwd=project.root)
    assert b"capture      last run" in status.stdout and b"saved 1" in status.stdout
    assert b"claude-haiku-4-5 via the Anthropic API (key from ANTHROPIC_API_KEY)" in status.stdout
    assert b"  used" in status.stdout and b" 1 calls" in status.stdout
    report = json.loads(cli("status", "--json", cwd=project.root).stdout)["capture"]
    assert report["last_run"]["ok"] and report["today"]["calls"] == 1 and report["budget_usd"] == 1.0

    write_lines(path, user("a"), user("b"), user("c"))
    api_llm.script(error(529), error(529), error(529))
    failed = cli("extract", "--transcript", str(path), "--event", "Stop", cwd=project.root)
    assert failed.returncode == 1 and b"overloaded" in failed.stderr and b"retried on the next run" in failed.stderr
    status = cli("status", cwd=project.root).stdout
    assert b"error" in status and b"fix" in status and b"pending" in status


def test_consolidate_command_dry_run_then_apply_then_undo(api_llm, project, cli, bank):
    ids = [bank.add("pattern", f"Pattern {i}: module{i} uses style{i} naming{i}").memory.id for i in range(5)]
    answer = tool(
        {
            "keep": ids[2:],
            "merge": [{"sources": ids[:2], "content": "Modules 0 and 1 share a naming style.", "tags": []}],
            "drop": [],
        }
    )
    api_llm.script(answer, answer)
    dry = cli("consolidate", "--dry-run", cwd=project.root)
    assert dry.returncode == 0 and b"[merge-1] merge (pattern)" in dry.stdout and b"Dry run: 1 merge," in dry.stdout
    applied = cli("consolidate", cwd=project.root)
    assert b"Applied 1 merge, 0 drops" in applied.stdout
    assert b"Modules 0 and 1 share" in cli("list", cwd=project.root).stdout
    assert cli("undo", cwd=project.root).returncode == 0
    assert b"Modules 0 and 1 share" not in cli("list", cwd=project.root).stdout


def test_the_fake_api_runs_as_a_program_for_other_clients(tmp_path):
    script = tmp_path / "replies.json"
    script.write_text(json.dumps([{"kind": "text", "text": "scripted hello"}]))
    log = tmp_path / "requests.jsonl"
    proc = subprocess.Popen(
        [sys.executable, str(TESTS / "fakeapi.py"), "--port", "0", "--script", str(script), "--log", str(log)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = proc.stdout.readline().strip()
        code = (
            "import anthropic, sys; c = anthropic.Anthropic(base_url=sys.argv[1], api_key='k', max_retries=0); "
            "s = c.messages.stream(model='claude-haiku-4-5', max_tokens=9, messages=[{'role': 'user', 'content': 'hi'}]);\n"
            "with s as st: print(''.join(st.text_stream))"
        )
        out = subprocess.run([sys.executable, "-c", code, url], capture_output=True, text=True, timeout=60)
        assert out.stdout.strip() == "scripted hello", out.stderr
        [logged] = [json.loads(line) for line in log.read_text().splitlines()]
        headers = logged["headers"]
        assert logged["body"]["stream"] is True and "k" in (
            headers.get("x-api-key") or headers.get("authorization", "")
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_strict_mode_sends_a_schema_strict_tools_accept_and_still_validates(api_llm, bank, tmp_path):
    from memtui.capture.pipeline import extract
    from memtui.store.bank import Bank

    bank.project.path("config.toml").write_text("[llm]\nstrict = true\n")
    bank = Bank.open(bank.project.root)
    api_llm.script(tool({"memories": [{"type": "decision", "content": " ", "tags": []}]}))
    path = write_lines(tmp_path / "s.jsonl", user("a"), user("b"), user("c"))
    result = extract(bank, path, session_id="s", event="Stop")
    [sent] = api_llm.messages()[0].body["tools"]
    assert sent["strict"] is True and "minLength" not in json.dumps(sent["input_schema"])
    assert result.kind == "bad-output" and "content is empty" in result.error and bank.memories() == []
