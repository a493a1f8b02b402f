"""Model backends: one extraction of a 6,000-character chunk through each, against the fake APIs.

    python bench/backends.py [--runs 7]

The same chunk, prompt, schema and canned answer go through the `api` backend (the Anthropic SDK,
in process), the `claude-code` backend (the real Claude Code CLI that claude-agent-sdk bundles,
run once per call in print mode and signed in through an apiKeyHelper, as a subscriber's is) and
the `codex` backend (the real Codex CLI of tests/codexkit.py, run once per call as `codex exec`
and signed in with `codex login`, answering from the fake Responses API) and the `gemini` backend
(the real Gemini CLI of tests/geminikit.py, run once per call as `gemini -p` in a home of its own,
signed in with a Gemini API key, answering from the fake Gemini API; Gemini's model router asks
first, as it does for a person who chose no model). A CLI that is not installed is skipped
(`.ci/agents.sh codex|gemini`). The fakes on 127.0.0.1 answer at once, so the figures are each
backend's own overhead: for `api` the SDK's request, for the CLIs mostly their start-up. Reported:
the median wall time per call of each, in round-robin, and each CLI's against the API's: the
difference is the CLI starting up for each call (reading settings, the login, building its
session), not the model. The codex backend also asks `codex login status` once per client (not
per call): the client is made once here, as the worker makes it once per run; the gemini backend
reads its login from files, and copies them into the run's own home on each call.

The Stop hook's return time does not change with the backend (the model call runs in the detached
worker): `python bench/hook_latency.py` measures it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    import fakeapi
    import fakegemini
    import fakeresponses
    from claudekit import bundled_claude, sign_in

    from memtui.llm import prompts, schema
    from memtui.llm.claudecode import ClaudeCodeClient
    from memtui.llm.client import Client
    from memtui.llm.keys import ApiKey
    from memtui.llm.settings import LLMSettings

    api = fakeapi.start_fake_api()
    scratch = Path(tempfile.mkdtemp(prefix="memtui-backends-"))
    home = scratch / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE_", "MEMTUI_"))}
    env.update(sign_in(home, api.url), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
    sentence = "We moved the invoice worker to Celery 5.4 with Redis as the broker and pinned numpy below 2. "
    chunk = (sentence * (6000 // len(sentence) + 1))[:6000]
    types = ["architecture", "decision", "pattern", "gotcha", "progress", "context"]
    answer = {"memories": [{"type": "decision", "content": "Invoices run on Celery 5.4 with Redis.", "tags": []}]}
    settings = LLMSettings(max_retries=0, timeout=60)
    request = {
        "system": prompts.extract_system(types, date.today()),
        "prompt": prompts.extract_prompt([], chunk, part=1, parts=1, today=date.today()),
        "tool_name": prompts.EXTRACT_TOOL,
        "description": "Record the new or changed memories found in the transcript.",
        "schema": schema.extraction(types),
        "purpose": "extraction",
        "enforce_budget": False,
    }
    clients = {
        "api (SDK in process)": Client(settings, ApiKey("bench-key", "bench"), base_url=api.url),
        "claude-code (CLI per call)": ClaudeCodeClient(settings, bundled_claude(), env=env),
    }
    responses = fakeresponses.start_fake_responses()
    _codex(clients, settings, scratch, responses.url)
    google = _gemini(clients, settings, scratch)
    times: dict[str, list[float]] = {name: [] for name in clients}
    for _ in range(args.runs):
        for name, client in clients.items():
            if name.startswith("codex"):
                responses.script(fakeresponses.text(json.dumps(answer)))
            elif name.startswith("gemini") and google is not None:
                google.script(fakegemini.text(json.dumps(answer)))
            else:
                api.script(fakeapi.tool(answer, name=None if name.startswith("api") else "StructuredOutput"))
            started = time.perf_counter()
            got = client.structured(**request)  # type: ignore[attr-defined]
            times[name].append((time.perf_counter() - started) * 1000)
            assert got == answer, got
    for fake in (api, responses, google):
        if fake is not None:
            fake.close()
    _report(times, args.runs)
    return 0


def _report(times: dict[str, list[float]], runs: int) -> None:
    medians = {name: statistics.median(values) for name, values in times.items()}
    load = os.getloadavg()[0]
    print(f"one extraction of a 6,000-character chunk, {runs} runs, median ms (load {load:.2f}; {os.cpu_count()} CPUs)")
    for name, value in medians.items():
        print(f"  {name:<28} {value:>8.0f} ms")
    first = medians["api (SDK in process)"]
    for name, value in list(medians.items())[1:]:
        print(f"  {name.split()[0]} / api: {value / first:.1f}× ({value - first:.0f} ms more per call)")
    print(json.dumps({"medians_ms": medians}))


def _codex(clients: dict, settings, scratch: Path, url: str) -> None:
    """Add the codex row (the real CLI signed in with `codex login`, against the fake Responses API
    at `url`); a note when the CLI is not installed."""
    from codexkit import find_codex
    from codexkit import sign_in as codex_sign_in

    from memtui.llm.codex import CodexClient

    codex = find_codex()
    if codex is None:
        print("codex: not installed (.ci/agents.sh installs it); its row is left out")
        return
    clients["codex (CLI per call)"] = CodexClient(settings, codex, env=codex_sign_in(codex, scratch / "codex", url))


def _gemini(clients: dict, settings, scratch: Path):
    """Add the gemini row (the real CLI signed in with a key, against a fake Gemini API of its
    own) and return that fake; None, and a note, when the CLI is not installed."""
    import fakegemini
    from geminikit import find_gemini, gemini_env, gemini_home

    from memtui.llm.gemini import GeminiClient

    gemini = find_gemini()
    if gemini is None:
        print("gemini: not installed (.ci/agents.sh gemini installs it); its row is left out")
        return None
    google = fakegemini.start_fake_gemini()
    env = gemini_env(gemini_home(scratch / "gemini"), google.url)
    clients["gemini (CLI per call)"] = GeminiClient(settings, gemini, env=env)
    return google


if __name__ == "__main__":
    raise SystemExit(main())
