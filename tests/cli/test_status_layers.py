"""`memtui status` says what each layer puts in a session of the project, and its bytes."""

from __future__ import annotations

import json

from memtui.store.bank import Bank
from memtui.store.locations import markdown_dirs


def test_status_gives_each_layer_its_lines_and_bytes(project, cli):
    folder = next(d.path for d in markdown_dirs(project) if d.key == "md:project")
    folder.mkdir(parents=True)
    index = []
    for stem, description in (("project_ship", "We ship with make ship"), ("project_ci", "CI runs on every push")):
        (folder / f"{stem}.md").write_text(
            f"---\nname: {stem}\ndescription: {description}\ntype: project\n---\n\nMore on it.\n", encoding="utf-8"
        )
        index.append(f"- [{stem}]({stem}.md) — {description}")
    (folder / "MEMORY.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    bank = Bank(project)
    bank.add("decision", "Money is kept in integer cents")
    assert cli("render", cwd=project.root).returncode == 0  # the block carries the state memory
    # Written by Claude Code after the render, not (yet) in its index: neither file carries it.
    (folder / "project_night.md").write_text(
        "---\nname: night\ndescription: Staging is reset every night at two\ntype: project\n---\n", encoding="utf-8"
    )

    out = cli("status", "--json", cwd=project.root)
    assert out.returncode == 0, out.stderr.decode()
    layers = {layer["name"]: layer for layer in json.loads(out.stdout)["context"]}

    claude = (project.root / "CLAUDE.md").read_text(encoding="utf-8")
    block = claude[claude.index("<!-- MEMORY:START -->") : claude.index("<!-- MEMORY:END -->") + 19]
    assert layers["CLAUDE.md block"]["count"] == sum(line.startswith("- ") for line in block.splitlines())
    assert layers["CLAUDE.md block"]["size"] == len(block.encode())
    loaded = (folder / "MEMORY.md").read_text(encoding="utf-8").strip()
    assert layers["MEMORY.md index"]["count"] == len(loaded.splitlines())
    assert layers["MEMORY.md index"]["size"] == len(loaded.encode())
    # Only the memory neither CLAUDE.md nor MEMORY.md carries is briefed.
    assert layers["briefing"]["count"] == 1
    assert 0 < layers["briefing"]["size"] <= 6144

    text = cli("status", cwd=project.root).stdout.decode()
    assert "MEMORY.md index (Claude Code): 2 lines" in text
    # The block holds one line per memory: it is counted in memories, as the TUI's Session tab does.
    assert f"CLAUDE.md block (Claude Code): {layers['CLAUDE.md block']['count']} memor" in text
    assert "briefing (memtui): 1 memory" in text and "of 6 KB at session start" in text
    assert "of 9.5 KB a prompt, 60 KB a session" in text
