"""The capture pipeline's own overhead: reading, chunking, prompt building, dedup, saving.

    python bench/capture.py [--mb 5] [--memories 10000] [--json OUT]

A synthetic Claude Code transcript of about 5 MB (prompts, thinking, tool calls with large results,
attachments, progress lines: the mix real sessions have) is captured into a project that already
holds 10,000 memories. The model is the fake Messages API from tests/fakeapi.py, answering at once;
the time spent inside the model boundary (SDK + HTTP to the fake) is measured and subtracted, so
the figures are the pipeline's own work.

In the same run, a naive pipeline does the same job the way memory-mcp does it: read the whole
file, slice after the cursor, cut every 6,000 characters, send every active memory with every
chunk, dedup by re-tokenising every memory of the type for each new one, and rewrite the whole
state file after each save. Both see the same canned model answers. The ratio is naive / memtui.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import fakeapi

from memtui.capture.pipeline import extract
from memtui.core.clock import format_ts, utcnow
from memtui.core.similarity import jaccard, tokenize
from memtui.llm.client import Client
from memtui.store.bank import Bank, init_project

TYPES = ["architecture", "decision", "pattern", "gotcha", "progress", "context"]
WORDS = [
    "service",
    "queue",
    "cache",
    "billing",
    "stripe",
    "webhook",
    "retry",
    "schema",
    "migration",
    "index",
    "token",
    "session",
    "router",
    "handler",
    "worker",
    "deploy",
    "docker",
    "postgres",
    "redis",
    "kafka",
    "celery",
    "pytest",
    "fixture",
    "mock",
    "lint",
    "ruff",
    "mypy",
    "build",
    "release",
    "config",
    "env",
    "secret",
    "vault",
    "auth",
    "oauth",
    "jwt",
    "cookie",
    "cors",
    "proxy",
    "nginx",
    "gunicorn",
    "uvicorn",
    "fastapi",
    "django",
    "flask",
    "react",
    "vite",
    "webpack",
    "bundle",
    "css",
    "theme",
    "layout",
    "modal",
    "form",
    "table",
    "chart",
    "export",
    "import",
    "csv",
    "json",
    "yaml",
    "toml",
    "parser",
    "lexer",
    "ast",
    "compiler",
    "cli",
    "flag",
    "option",
    "command",
    "subcommand",
    "plugin",
    "hook",
    "event",
    "signal",
    "thread",
    "async",
]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) + (str(rng.randint(0, 99)) if rng.random() < 0.3 else "") for _ in range(n))


# -- inputs ---------------------------------------------------------------------------------------


def make_transcript(path: Path, megabytes: float, rng: random.Random) -> int:
    """Append turns until the file reaches the size; returns the number of lines."""
    lines = 0
    target = int(megabytes * 1024 * 1024)
    env = {
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/u/proj",
        "sessionId": "bench",
        "version": "2.1.330",
    }
    with path.open("w", encoding="utf-8") as fh:

        def put(record: dict) -> None:
            nonlocal lines
            fh.write(
                json.dumps({**env, "uuid": str(uuid.uuid4()), "timestamp": "2026-03-10T10:00:00.000Z", **record}) + "\n"
            )
            lines += 1

        while fh.tell() < target:
            put(
                {"type": "user", "message": {"role": "user", "content": "Please " + sentence(rng, rng.randint(20, 90))}}
            )
            put({"type": "attachment", "attachment": {"type": "hook_additional_context", "content": sentence(rng, 60)}})
            mid = "msg_" + uuid.uuid4().hex[:20]
            blocks = [
                {"type": "thinking", "thinking": sentence(rng, 80), "signature": "x" * 200},
                {"type": "text", "text": sentence(rng, rng.randint(30, 200))},
            ]
            for _ in range(rng.randint(1, 4)):
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": "toolu_" + uuid.uuid4().hex[:12],
                        "name": rng.choice(["Bash", "Read", "Edit", "Grep"]),
                        "input": {
                            "command": sentence(rng, 12),
                            "file_path": f"src/{rng.choice(WORDS)}.py",
                            "pattern": rng.choice(WORDS),
                        },
                    }
                )
            for block in blocks:
                put(
                    {
                        "type": "assistant",
                        "message": {"id": mid, "role": "assistant", "model": "claude-opus-5-5", "content": [block]},
                    }
                )
                if block["type"] == "tool_use":
                    put({"type": "progress", "data": {"type": "bash_progress", "output": sentence(rng, 20)}})
                    put(
                        {
                            "type": "user",
                            "message": {
                                "role": "user",
                                "content": [
                                    {
                                        "type": "tool_result",
                                        "tool_use_id": block["id"],
                                        "content": sentence(rng, rng.randint(300, 1500)),
                                    }
                                ],
                            },
                            "toolUseResult": {"stdout": "…"},
                        }
                    )
            put({"type": "system", "subtype": "turn_duration", "durationMs": 1234})
    return lines


def make_store(memory_dir: Path, count: int, rng: random.Random) -> None:
    now = format_ts(utcnow())
    memories = [
        {
            "id": f"mem_{1700000000000 + i}_{i:06d}",
            "type": TYPES[i % len(TYPES)],
            "content": sentence(rng, rng.randint(8, 25)),
            "tags": [rng.choice(WORDS)],
            "created": now,
            "updated": now,
            "confidence": 1,
            "accessCount": 0,
        }
        for i in range(count)
    ]
    state = {
        "version": 2,
        "project": "bench",
        "description": "",
        "memories": memories,
        "lastUpdated": now,
        "extractionCount": 0,
    }
    (memory_dir / "state.json").write_text(json.dumps(state, indent=2))


class Answers:
    """The same canned model answers for both pipelines: two new facts a chunk, every third one a repeat."""

    def __init__(self, existing: list[str]) -> None:
        self.calls = 0
        self.existing = existing

    def __call__(self, *_args: object) -> dict:
        self.calls += 1
        n = self.calls
        out = [
            {
                "type": TYPES[n % len(TYPES)],
                "content": f"Fact {n}: the {WORDS[n % len(WORDS)]} layer uses {WORDS[(n * 7) % len(WORDS)]} v{n}.",
                "tags": ["bench"],
                "supersedes": None,
            }
        ]
        repeat = self.existing[n % len(self.existing)]
        out.append(
            {"type": repeat[0], "content": repeat[1], "tags": [], "supersedes": None}
            if n % 3 == 0
            else {
                "type": "gotcha",
                "content": f"Gotcha {n}: {WORDS[(n * 3) % len(WORDS)]} breaks when {WORDS[(n * 5) % len(WORDS)]} is unset.",
                "tags": ["bench"],
                "supersedes": None,
            }
        )
        return {"memories": out}


class TimedClient(Client):
    """Measures the time spent inside the model boundary, so it can be taken out of the figures."""

    def reset(self) -> None:
        self.model_seconds = 0.0
        self.prompt_chars: list[int] = []

    def structured(self, **kwargs):  # type: ignore[override]
        self.prompt_chars.append(len(kwargs["prompt"]) + len(kwargs["system"]))
        started = time.perf_counter()
        try:
            return super().structured(**kwargs)
        finally:
            self.model_seconds += time.perf_counter() - started


class TimedBank(Bank):
    """Measures saving (dedup, journal, atomic rewrite of state.json): the Bank's share of the overhead."""

    save_seconds = 0.0

    def add(self, *args, **kwargs):  # type: ignore[override]
        started = time.perf_counter()
        try:
            return super().add(*args, **kwargs)
        finally:
            self.save_seconds += time.perf_counter() - started


# -- the naive pipeline (memory-mcp's algorithm) ------------------------------------------------------


def naive(transcript: Path, state_path: Path, answers: Answers) -> dict:
    started = time.perf_counter()
    lines = [line for line in transcript.read_text(encoding="utf-8").split("\n") if line.strip()]
    events = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        content = (entry.get("message") or {}).get("content")
        if entry.get("type") == "user":
            text = (
                content
                if isinstance(content, str)
                else " ".join(b.get("text", "") for b in content or [] if b.get("type") == "text")
            )
            if text:
                events.append("USER: " + text[:500])
        elif entry.get("type") == "assistant" and isinstance(content, list):
            text = " ".join(b.get("text", "") for b in content if b.get("type") == "text")
            if text:
                events.append("CLAUDE: " + text[:500])
            events += [f"TOOL [{b.get('name')}]" for b in content if b.get("type") == "tool_use"]
    summary = "\n".join(events)
    chunks = [summary[i : i + 6000] for i in range(0, len(summary), 5500)] if len(summary) > 6000 else [summary]
    state = json.loads(state_path.read_text())
    prompt_chars = []
    saved = 0
    for chunk in chunks:
        existing = "\n".join(
            f"  [{m['type']}] {m['content']}"
            for m in state["memories"]
            if "superseded" not in m["tags"] and m.get("confidence", 1) > 0.3
        )
        prompt_chars.append(len(existing) + len(chunk) + 1500)
        for mem in answers()["memories"]:
            tokens = tokenize(mem["content"])
            for other in state["memories"]:
                if (
                    other["type"] == mem["type"]
                    and "superseded" not in other["tags"]
                    and jaccard(tokens, tokenize(other["content"])) > 0.6
                ):
                    other["tags"].append("superseded")
            now = format_ts(utcnow())
            state["memories"].append(
                {
                    "id": f"mem_{time.time_ns()}",
                    "type": mem["type"],
                    "content": mem["content"],
                    "tags": mem["tags"],
                    "created": now,
                    "updated": now,
                    "confidence": 1,
                    "accessCount": 0,
                }
            )
            state_path.write_text(json.dumps(state, indent=2))
            saved += 1
    return {
        "seconds": time.perf_counter() - started,
        "chunks": len(chunks),
        "saved": saved,
        "prompt_chars_avg": sum(prompt_chars) // max(1, len(prompt_chars)),
    }


# -- the run -----------------------------------------------------------------------------------------


def run(megabytes: float, count: int) -> dict:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ["HOME"] = str(root / "home")
        (root / "home").mkdir()
        transcript = root / "bench.jsonl"
        lines = make_transcript(transcript, megabytes, rng)
        ours_project = init_project(root / "ours")
        make_store(ours_project.memory_dir, count, random.Random(11))
        naive_dir = root / "naive"
        naive_dir.mkdir()
        make_store(naive_dir, count, random.Random(11))
        existing = [
            (m["type"], m["content"]) for m in json.loads((naive_dir / "state.json").read_text())["memories"][:500]
        ]

        api = fakeapi.start_fake_api(default=lambda request: fakeapi.tool(ours_answers()))
        ours_answers = Answers(existing)
        os.environ.update(api.env())
        bank = TimedBank.open(
            ours_project.root, env={"CLAUDE_PROJECT_DIR": str(ours_project.root), "HOME": str(root / "home")}
        )
        client = TimedClient.for_project(ours_project.memory_dir, {"daily_budget_usd": 1e9})
        client.reset()
        client.structured(
            system="warm-up",
            prompt="warm-up",
            tool_name="record_memories",
            description="x",
            schema={"type": "object"},
            purpose="warm-up",
        )  # the SDK import and first connection are not ours
        client.reset()
        started = time.perf_counter()
        result = extract(bank, transcript, session_id="bench", event="SessionEnd", client=client, consolidate=False)
        total = time.perf_counter() - started
        assert result.ok, result.error
        ours = {
            "seconds": total - client.model_seconds,
            "model_seconds": client.model_seconds,
            "save_seconds": bank.save_seconds,
            "chunks": result.chunks,
            "saved": len(result.saved),
            "reaffirmed": len(result.reaffirmed),
            "superseded": len(result.superseded),
            "prompt_chars_avg": sum(client.prompt_chars) // max(1, len(client.prompt_chars)),
        }

        # A Stop after the whole file was captured: 10 new lines at the end of 5 MB.
        with transcript.open("a") as fh:
            for i in range(10):
                fh.write(
                    json.dumps(
                        {
                            "type": "user",
                            "message": {"role": "user", "content": f"later prompt {i} " + sentence(rng, 20)},
                        }
                    )
                    + "\n"
                )
        client.reset()
        started = time.perf_counter()
        tail = extract(bank, transcript, session_id="bench", event="Stop", client=client, consolidate=False)
        incremental = time.perf_counter() - started - client.model_seconds
        started = time.perf_counter()
        extract(bank, transcript, session_id="bench", event="Stop", client=client, consolidate=False)
        nothing_new = time.perf_counter() - started
        api.close()

        slow = naive(transcript, naive_dir / "state.json", Answers(existing))
        return {
            "transcript_mb": round(transcript.stat().st_size / 1048576, 2),
            "transcript_lines": lines,
            "memories": count,
            "memtui": {k: round(v, 3) if isinstance(v, float) else v for k, v in ours.items()},
            "memtui_stop_10_new_lines_s": round(incremental, 4),
            "memtui_stop_nothing_new_s": round(nothing_new, 4),
            "stop_saved": len(tail.saved),
            "naive": {k: round(v, 3) if isinstance(v, float) else v for k, v in slow.items()},
            "overhead_ratio_naive_over_memtui": round(slow["seconds"] / max(ours["seconds"], 1e-9), 1),
            # memtui keeps more of the conversation (lines cut at 4,000 characters, not 500), so it sends more chunks
            "per_chunk_ratio_naive_over_memtui": round(
                (slow["seconds"] / slow["chunks"]) / max(ours["seconds"] / ours["chunks"], 1e-9), 1
            ),
            "prompt_ratio_naive_over_memtui": round(slow["prompt_chars_avg"] / max(1, ours["prompt_chars_avg"]), 1),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=5.0, help="transcript size in MB (default 5)")
    parser.add_argument("--memories", type=int, default=10000, help="memories already in the store (default 10,000)")
    parser.add_argument("--json", metavar="OUT", help="also write the figures to this file")
    args = parser.parse_args()
    figures = run(args.mb, args.memories)
    m, n = figures["memtui"], figures["naive"]
    print(
        f"transcript {figures['transcript_mb']} MB ({figures['transcript_lines']} lines), store {figures['memories']} memories"
    )
    print(f"{'':<10}{'overhead s':>12}{'chunks':>8}{'saved':>7}{'prompt chars/chunk':>20}")
    print(
        f"{'memtui':<10}{m['seconds']:>12.2f}{m['chunks']:>8}{m['saved']:>7}{m['prompt_chars_avg']:>20}"
        f"   (+{m['model_seconds']:.2f}s in the SDK/fake, excluded; {m['reaffirmed']} re-affirmed)"
    )
    print(f"{'naive':<10}{n['seconds']:>12.2f}{n['chunks']:>8}{n['saved']:>7}{n['prompt_chars_avg']:>20}")
    print(
        f"memtui breakdown: {m['save_seconds']:.2f}s saving through the Bank ({m['saved'] + m['reaffirmed']} saves), "
        f"{m['seconds'] - m['save_seconds']:.2f}s reading, chunking, choosing known memories, prompts, bookkeeping"
    )
    print(
        f"naive/memtui: {figures['overhead_ratio_naive_over_memtui']}x the overhead "
        f"({figures['per_chunk_ratio_naive_over_memtui']}x per chunk), "
        f"{figures['prompt_ratio_naive_over_memtui']}x the prompt size"
    )
    print(
        f"memtui Stop with 10 new lines after {figures['transcript_mb']} MB: {figures['memtui_stop_10_new_lines_s'] * 1000:.0f} ms; "
        f"with nothing new: {figures['memtui_stop_nothing_new_s'] * 1000:.0f} ms"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
