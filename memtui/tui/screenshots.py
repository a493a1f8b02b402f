"""Regenerate `screenshots/*.svg` from the real app on the demo project:

    python -m memtui.tui.screenshots [OUT_DIR]

Everything that varies is pinned, so the files only change when the UI does: the demo is built
at a fixed date with fixed ids, the app's clock is that date, the watcher is off and cursors do
not blink. The consolidation and ask shots need a model; they use a recorded plan and answer
(clearly the demo's), so no API key or network is involved. The snapshot tests reuse `demo_bank`.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memtui.store.bank import Bank
from memtui.store.locations import Project

#: The date the demo and the app's clock are pinned to.
NOW = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
SIZE = (120, 34)
OUT = Path(__file__).resolve().parents[2] / "screenshots"


@contextmanager
def _seeded(seed: int) -> Iterator[None]:
    """Memory ids end in random characters: seed them, and leave the global generator as it was."""
    state = random.getstate()
    random.seed(seed)
    try:
        yield
    finally:
        random.setstate(state)


def demo_env(root: Path) -> dict[str, str]:
    return {
        "CLAUDE_PROJECT_DIR": str(root),
        "CLAUDE_CONFIG_DIR": str(root / ".claude-home"),
        "HOME": str(root / ".home"),
        "PATH": os.environ.get("PATH", ""),
    }


def demo_bank(root: Path, now: datetime = NOW) -> Bank:
    """The demo project at `root`, built at `now`, with a Bank whose clock stays at `now`."""
    import shutil

    from memtui import demo

    if root.exists():
        shutil.rmtree(root)  # the demo adds to what is there; start clean so ids and counts repeat
    with _seeded(7):
        demo.build(root, now=now)
    bank = Bank(Project(root.resolve()), env=demo_env(root.resolve()), clock=lambda: now)
    _other_agents(bank, now)
    bank.write_render()  # the demo renders with the real clock; render again at the pinned one
    return bank


#: What Claude Code wrote into its auto memory by itself: (file stem, type, description, days ago).
AUTO_MEMORY = (
    ("feedback_make_test", "feedback", "Run the tests with `make test`; bare pytest misses the DB fixtures.", 6),
    ("project_billing_freeze", "project", "Billing code is frozen until the Q2 audit closes; ask Dana first.", 2),
)


def _other_agents(bank: Bank, now: datetime) -> None:
    """The demo's other agents: Claude Code's auto memory as Claude Code writes it (a file each and a
    line in MEMORY.md, nothing of memtui's), and a memory captured from a Codex session."""
    from memtui.core.memory import Source

    folder = bank.store("md:project").path
    folder.mkdir(parents=True, exist_ok=True)
    index = []
    for stem, type_, text, days in AUTO_MEMORY:
        file = folder / f"{stem}.md"
        file.write_text(f"---\nname: {stem}\ndescription: {text}\ntype: {type_}\n---\n\n{text}\n", encoding="utf-8")
        at = now.timestamp() - days * 86400
        os.utime(file, (at, at))
        index.append(f"- [{stem}]({stem}.md) — {text}\n")
    (folder / "MEMORY.md").write_text("".join(index), encoding="utf-8")
    bank.add(
        "gotcha",
        "The worker image pins WeasyPrint 60; newer releases need pango 1.48, which Debian 11 lacks.",
        tags=("weasyprint", "docker"),
        source=Source("s-c0dex", "Stop", agent="codex"),
    )


def sample_engines(bank: Bank) -> dict[str, Any]:
    """Recorded model output for the shots that need a model (consolidation plan, ask answer)."""
    memories = {m.id: m for m in bank.memories()}

    def find(text: str) -> str:
        return next(mid for mid, m in memories.items() if text in m.content and m.active)

    from types import SimpleNamespace as NS

    plan = NS(
        items=(
            NS(
                key="merge-1",
                action="merge",
                ids=(find("Stripe webhooks are written raw"), find("Stripe webhooks can arrive out of order")),
                type="architecture",
                content="Stripe webhooks are stored raw in stripe_events, then processed idempotently by "
                "event id; they can arrive out of order, so handlers compare event.created with the stored version.",
                tags=("stripe", "webhooks"),
                reason="both describe webhook handling; the gotcha is the reason for the design",
            ),
            NS(
                key="drop-2",
                action="drop",
                ids=(find("Invoice PDF templates are half ported"),),
                type="progress",
                content="",
                tags=(),
                reason="5 days old progress note; superseded by the WeasyPrint gotcha and the i18n context",
            ),
            NS(
                key="merge-3",
                action="merge",
                ids=(find("Test factories live"), find("pytest-xdist with the pg_template")),
                type="pattern",
                content="Tests use factory_boy factories (tests/factories.py) and a fresh schema per test via "
                "pg_template; under pytest-xdist each worker needs its own database (worker_id).",
                tags=("testing", "pytest"),
                reason="same fixture, one note is the caveat of the other",
            ),
        ),
        problems=(),
    )

    def consolidate_plan(_bank: Bank, **_kw: Any) -> Any:
        return plan

    def consolidate_apply(_bank: Bank, _plan: Any, accepted: Any = None) -> None:
        return None

    cited = (find("Stripe Billing is the payments backbone"), find("Stripe webhooks can arrive out of order"))
    answer_text = (
        "Prorations are **computed by Stripe**, not locally: call `stripe.Invoice.upcoming()` to preview "
        "them [1]. Webhooks that report the result can arrive out of order, so compare `event.created` "
        "with the stored version before applying one [2]."
    )

    def ask(_bank: Bank, _question: str, *, on_text: Callable[[str], None] | None = None, **_kw: Any) -> Any:
        for word in answer_text.split(" "):
            if on_text:
                on_text(word + " ")
        return NS(text=answer_text, cited_ids=cited, matches=(), error=None, fix=None)

    def search(bank: Bank, query: str, **kwargs: Any) -> list[Any]:
        # Words only: with semantic="auto" the ranking depends on whether some earlier work in this
        # process loaded the embedding model, and a shot must be the same in every process.
        from memtui.index.search import search as ranked

        return ranked(bank, query, semantic="off", **kwargs)

    return {"consolidate": (consolidate_plan, consolidate_apply), "ask": ask, "search": search}


Step = Callable[[Any], Awaitable[None]]


async def settle(pilot: Any, timeout: float = 30.0) -> None:
    """Wait until every worker except the watcher is done, and the screen has caught up."""
    from textual.worker import WorkerState

    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        await pilot.pause()
        busy = [w for w in app.workers if w.group != "watch" and w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not busy:
            break
        await asyncio.sleep(0.02)
    await pilot.pause()


def _keys(*keys: str) -> Step:
    async def run(pilot: Any) -> None:
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return run


def _reveal(text: str, *then: str) -> Step:
    async def run(pilot: Any) -> None:
        memory = next(m for m in pilot.app.snapshot.memories if text in m.content)
        pilot.app.jump_to(memory.id)
        await settle(pilot)
        await _keys(*then)(pilot)

    return run


def _type(screen_key: str, text: str, *then: str) -> Step:
    async def run(pilot: Any) -> None:
        await _keys(screen_key)(pilot)
        await pilot.press(*text)
        await settle(pilot)
        await _keys(*then)(pilot)

    return run


SHOTS: dict[str, Step] = {
    "main": _keys("j", "j", "j", "space", "j", "space"),
    "detail": _reveal("Stripe Billing is the payments backbone", "enter"),
    "budget": _keys("b"),
    "consolidate": _keys("c"),
    "search": _type("f", "stripe webhook"),
    "ask": _type("a", "how are prorations computed?", "enter"),
    "review": _keys("R"),
    "trash": _keys("x"),
}


async def shoot(bank: Bank, name: str, step: Step, out: Path, size: tuple[int, int] = SIZE) -> Path:
    from memtui.tui.app import MemtuiApp

    # watch=True: the README shows what a person sees (● live); nothing changes the demo during a shot.
    app = MemtuiApp(bank, watch=True, clock=bank.clock, blink=False, engines=sample_engines(bank))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await step(pilot)
        await settle(pilot)
        path = out / f"{name}.svg"
        app.save_screenshot(str(path))
    return path


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else OUT
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="memtui-shots-") as tmp:
        root = Path(tmp) / "ledgerline"
        for name, step in SHOTS.items():
            bank = demo_bank(root)  # fresh for each shot, so one shot's changes never leak into the next
            path = asyncio.run(shoot(bank, name, step, out))
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
