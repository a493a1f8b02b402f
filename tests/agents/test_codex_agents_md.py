"""End to end with the real Codex CLI: after `memtui render`, the request Codex sends holds memtui's
block from AGENTS.md (a memory of the project) and the person's own AGENTS.md text, both as Codex's
`# AGENTS.md instructions for <dir>` user message; `memtui uninstall` leaves the person's file as it was."""

from __future__ import annotations

import subprocess
from pathlib import Path

from codexkit import codex_home, require_codex, run_exec
from fakeresponses import start_fake_responses, text

from memtui.core.render_block import START
from memtui.store import rendering
from memtui.store.bank import Bank

MINE = "# Team notes\n\nAGENTS-MARK: use uv, not pip.\n"
FACT = "Invoices are generated nightly by the billing cron worker"


def test_codex_reads_the_block_and_the_person_text_after_render(tmp_path: Path, project, home, cli):
    codex = require_codex()

    def run(*args: str) -> tuple[int, str, str]:
        env = {"HOME": str(home), "CLAUDE_PROJECT_DIR": str(project.root), "CLAUDE_CONFIG_DIR": str(home / ".claude")}
        done = cli(*args, cwd=project.root, env=env)
        return done.returncode, done.stdout.decode(), done.stderr.decode()

    subprocess.run(["git", "init", "-q", str(project.root)], check=True)
    agents = project.root / "AGENTS.md"
    agents.write_text(MINE, encoding="utf-8")
    rendering.enable_agents_md(Bank.open(project.root))  # what `memtui setup --agent codex` does
    code, _, err = run("add", FACT, "--type", "architecture")
    assert code == 0, err
    code, _, err = run("render")
    assert code == 0, err
    assert agents.read_text(encoding="utf-8").startswith(MINE + "\n" + START)

    with start_fake_responses(text("noted")) as api:
        home = codex_home(tmp_path / "codex", api.url)
        done = run_exec(codex, home, "Where do invoices come from?", cwd=project.root)
        assert done.returncode == 0, done.stderr
        [turn] = api.turns()
    [instructions] = [t for t in turn.texts("user") if t.startswith("# AGENTS.md instructions for ")]
    assert "AGENTS-MARK: use uv, not pip." in instructions
    assert f"- {FACT}" in instructions and START in instructions

    code, _, err = run("uninstall")
    assert code == 0, err
    assert agents.read_text(encoding="utf-8") == MINE
