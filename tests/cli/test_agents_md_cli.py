"""`memtui render`, `status` and `uninstall` with Codex set up: AGENTS.md's block is written, checked,
reported with its size against Codex's 32 KiB, and taken out with every byte of the person's text kept."""

from __future__ import annotations

from memtui.core.render_block import AGENTS_MD_CAP, END, START
from memtui.store import rendering
from memtui.store.bank import Bank

MINE = "# Team notes\r\n\r\nRun `make check` before pushing.\r\n"


def test_render_writes_the_block_where_the_markers_are(run, project):
    agents = project.root / "AGENTS.md"
    agents.write_bytes(f"{MINE}{START}\r\n{END}\r\ntail\r\n".encode())
    assert run("add", "Use integer cents for money", "--type", "decision")[0] == 0
    agents.write_bytes(f"{MINE}{START}\r\n{END}\r\ntail\r\n".encode())  # out of date again
    code, out, err = run("render", "--check")
    assert code == 1 and str(agents) in out, err
    code, out, err = run("render")
    assert code == 0, err
    assert f"Wrote {agents} (1 memory in its block; the file is " in out
    data = agents.read_bytes()
    assert data.startswith(MINE.encode()) and data.endswith(b"\r\ntail\r\n")
    assert b"- Use integer cents for money\r\n" in data
    code, out, _ = run("render", "--check")
    assert code == 0 and "AGENTS.md" in out
    code, out, _ = run("status")
    assert code == 0
    assert f"AGENTS.md    up to date ({len(data):,} of {AGENTS_MD_CAP:,} bytes Codex reads)" in out
    assert "context      AGENTS.md block (Codex CLI): 1 memory" in out


def test_status_names_no_agents_md_before_codex_is_set_up(run, project):
    code, out, _ = run("status")
    assert code == 0 and "AGENTS.md" not in out
    code, out, _ = run("render")
    assert code == 0 and "AGENTS.md" not in out and not (project.root / "AGENTS.md").exists()


def test_no_room_is_one_line_and_the_file_untouched(run, project):
    agents = project.root / "AGENTS.md"
    mine = "# Ours\n" + "w" * AGENTS_MD_CAP + "\n"
    agents.write_text(mine + f"{START}\n{END}\n")
    code, out, err = run("render")
    assert code == 0, err
    assert agents.read_text() == mine
    said = [line for line in out.splitlines() if "AGENTS.md" in line]
    assert said == [
        f"AGENTS.md: your text takes {len(mine):,} of the 32,768 bytes Codex reads, leaving no room for "
        "memtui's block; shorten it and run `memtui render`"
    ]
    code, out, _ = run("status")
    assert code == 0 and f"AGENTS.md    AGENTS.md: your text takes {len(mine):,}" in out


def test_render_refuses_a_link_out_of_the_project(run, project, tmp_path):
    outside = tmp_path / "theirs.md"
    outside.write_text(f"theirs\n{START}\n{END}\n")
    (project.root / "AGENTS.md").symlink_to(outside)
    code, _, err = run("render")
    assert code == 1 and "outside the project" in err and len(err.strip().splitlines()) == 1
    assert outside.read_text() == f"theirs\n{START}\n{END}\n"
    assert not (project.root / "CLAUDE.md").exists()  # nothing half-written


def test_uninstall_takes_the_block_out_and_keeps_the_person_text(run, project):
    agents = project.root / "AGENTS.md"
    agents.write_bytes(MINE.encode())
    bank = Bank.open(project.root)
    bank.add("decision", "Use integer cents for money")
    rendering.enable_agents_md(bank)
    assert START.encode() in agents.read_bytes()
    code, out, err = run("uninstall")
    assert code == 0, err
    assert agents.read_bytes() == MINE.encode()
    assert f"{agents}: removed the memory block (your text kept as it was)" in out
    assert not project.path("agents-md.json").exists()
    assert run("add", "Postgres listens on 5433 locally", "--type", "gotcha")[0] == 0
    assert agents.read_bytes() == MINE.encode()  # no longer set up: no block comes back


def test_uninstall_deletes_an_agents_md_memtui_made(run, project):
    rendering.enable_agents_md(Bank.open(project.root))
    agents = project.root / "AGENTS.md"
    assert agents.is_file()
    code, out, err = run("uninstall")
    assert code == 0, err
    assert not agents.exists()
    assert f"{agents}: removed (memtui made it for the memory block, and nothing else was in it)" in out
