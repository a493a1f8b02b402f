"""What the prompt hook pays to know what Claude Code loaded by itself (recall/layers.py).

    python bench/layers.py [--runs 200] [--memories 300]

An auto-memory folder of `--memories` memory files and a MEMORY.md listing them (Claude Code loads
its first 200 lines), memtui's block installed in CLAUDE.md. Measured: `Loads.read` (CLAUDE.md and
the first 100,000 bytes of MEMORY.md, one cut, no memory file parsed) plus `adds` for five hits, as
one prompt runs it; beside it, in the same run, the naive way: load the auto-memory store (parse
every memory file) and render its index to learn which memories Claude Code loads. Medians and p90
in milliseconds, with the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def build(memories: int) -> tuple[object, object, dict[str, str]]:
    home = Path(tempfile.mkdtemp(prefix="memtui-bench-layers-"))
    os.environ["HOME"] = str(home)
    os.environ.pop("CLAUDE_CONFIG_DIR", None)
    os.environ.pop("CLAUDE_PROJECT_DIR", None)
    root = home / "repo"
    (root / ".git").mkdir(parents=True)
    from memtui.store.bank import Bank, init_project
    from memtui.store.locations import markdown_dirs

    project = init_project(root)
    folder = next(d.path for d in markdown_dirs(project) if d.key == "md:project")
    folder.mkdir(parents=True)
    lines = []
    for i in range(memories):
        text = f"Module {i} keeps its settings in config/module_{i}.toml, read once at start"
        (folder / f"project_module_{i}.md").write_text(
            f"---\nname: module {i}\ndescription: {text}\ntype: project\n---\n\n{text}; see docs/module_{i}.md.\n",
            encoding="utf-8",
        )
        lines.append(f"- [module {i}](project_module_{i}.md) — {text}")
    (folder / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    bank = Bank(project)
    for i in range(40):
        bank.add("decision", f"Decision {i}: the service {i} answers within {i * 10} ms")
    (root / "CLAUDE.md").write_text("# repo\n", encoding="utf-8")
    bank.write_render()
    return project, bank, dict(os.environ)


def measure(run, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9) - 1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--memories", type=int, default=300)
    args = parser.parse_args()
    project, bank, env = build(args.memories)
    from memtui.config import Config
    from memtui.core import render_index
    from memtui.core.clock import utcnow
    from memtui.recall.layers import Loads
    from memtui.store.markdown import MarkdownStore

    config = Config.load(project.path("config.toml"))
    hits = [m for m in bank.memories() if m.store == "md:project"][:5]
    store_dir = next(s.dir for s in bank.markdown if s.key == "md:project")

    def ours() -> None:
        loads = Loads.read(project, config, env)
        [loads.adds(m) for m in hits]

    def naive() -> None:
        store = MarkdownStore(store_dir)
        memories = store.load().values()
        shown = render_index.render(memories, utcnow()).shown
        carried = {m.id for m in shown}
        [m.id in carried for m in hits]

    ours_p50, ours_p90 = measure(ours, args.runs)
    naive_p50, naive_p90 = measure(naive, max(10, args.runs // 10))
    load = os.getloadavg()
    print(f"auto-memory files: {args.memories}; MEMORY.md lines loaded: {min(args.memories, 200)}; runs: {args.runs}")
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'approach':<44} {'p50 ms':>8} {'p90 ms':>8}")
    print(f"{'recall.layers (read the cut, no file parsed)':<44} {ours_p50:>8.3f} {ours_p90:>8.3f}")
    print(f"{'naive (parse every memory, render the index)':<44} {naive_p50:>8.3f} {naive_p90:>8.3f}")


if __name__ == "__main__":
    main()
