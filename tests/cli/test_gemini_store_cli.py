"""The CLI over Gemini CLI's private memory (md:gemini) and Codex CLI's memories (md:codex): listed,
shown, searched and counted by status; edited and promoted with every other line kept; Codex's
file never written (one clear line when asked to)."""

from __future__ import annotations

import json

from geminimemkit import FACT_PORT, FACT_TESTS, NOTE, NOTE_TEXT, codex_memory_md, gemini_memory


def ids_in(cli, root, *args):
    done = cli("list", "--json", *args, cwd=root)
    assert done.returncode == 0, done.stderr
    return {m["id"]: m for m in json.loads(done.stdout)}


def test_list_show_search_status(cli, project, home):
    gemini_memory(home, project.root)
    listed = ids_in(cli, project.root, "--store", "gemini")
    assert sorted(m["content"] for m in listed.values()) == sorted([FACT_PORT, FACT_TESTS, NOTE_TEXT.strip()])
    port = next(i for i, m in listed.items() if m["content"] == FACT_PORT)
    shown = cli("show", port, cwd=project.root)
    assert shown.returncode == 0 and FACT_PORT in shown.stdout.decode() and "md:gemini" in shown.stdout.decode()
    found = cli("search", "which port does the dev database listen on", cwd=project.root)
    assert found.returncode == 0 and port in found.stdout.decode().split("\n")[0]
    status = cli("status", cwd=project.root).stdout.decode()
    assert any(line.startswith("md:gemini") and "3 active" in line for line in status.splitlines())


def test_edit_and_promote_keep_every_other_line(cli, project, home):
    memory = gemini_memory(home, project.root)
    index = memory / "MEMORY.md"
    before = index.read_text()
    listed = ids_in(cli, project.root, "--store", "gemini")
    port = next(i for i, m in listed.items() if m["content"] == FACT_PORT)
    tests = next(i for i, m in listed.items() if m["content"] == FACT_TESTS)
    done = cli("edit", port, "--text", "On my machine the dev database listens on port 6543.", cwd=project.root)
    assert done.returncode == 0, done.stderr
    assert index.read_text() == before.replace(FACT_PORT, "On my machine the dev database listens on port 6543.")
    done = cli("promote", tests, "state", cwd=project.root)
    assert done.returncode == 0, done.stderr
    assert index.read_text() == before.replace(
        FACT_PORT, "On my machine the dev database listens on port 6543."
    ).replace(f"- {FACT_TESTS}\n", "")
    assert [m["content"] for m in ids_in(cli, project.root, "--store", "state").values()] == [FACT_TESTS]
    assert (memory / NOTE).read_text() == NOTE_TEXT


def test_codex_memories_are_shown_read_only_and_promoted_as_copies(cli, project, home, tmp_path):
    codex = home / ".codex" / "memories"
    codex.mkdir(parents=True)
    text = codex_memory_md(project.root, tmp_path / "other")
    (codex / "MEMORY.md").write_text(text)
    listed = ids_in(cli, project.root, "--store", "md:codex")
    assert sorted(m["type"] for m in listed.values()) == ["feedback", "gotcha", "pattern", "pattern"]
    assert not any("Grafana" in m["content"] for m in listed.values())
    wheel = next(i for i, m in listed.items() if m["content"].startswith("The wheel excludes"))
    for refused in (("edit", wheel, "--text", "changed"), ("drop", wheel), ("merge", *list(listed)[:2], "--text", "x")):
        done = cli(*refused, cwd=project.root)
        assert done.returncode != 0
        err = done.stderr.decode().strip().splitlines()
        assert len(err) == 1 and "read only" in err[0] and "memtui promote" in err[0], err
    done = cli("promote", wheel, "state", cwd=project.root)
    assert done.returncode == 0, done.stderr
    copied = list(ids_in(cli, project.root, "--store", "state").values())
    assert [(m["type"], m["content"]) for m in copied] == [("pattern", listed[wheel]["content"])]
    assert (codex / "MEMORY.md").read_text() == text
    assert wheel in ids_in(cli, project.root, "--store", "md:codex")


def test_an_edit_is_undone_by_another_process(cli, project, home):
    memory = gemini_memory(home, project.root)
    before = (memory / "MEMORY.md").read_bytes()
    listed = ids_in(cli, project.root, "--store", "gemini")
    port = next(i for i, m in listed.items() if m["content"] == FACT_PORT)
    assert cli("edit", port, "--text", "port 6543 now", cwd=project.root).returncode == 0
    assert (memory / "MEMORY.md").read_bytes() != before
    done = cli("undo", cwd=project.root)
    assert done.returncode == 0, done.stderr
    assert (memory / "MEMORY.md").read_bytes() == before


def test_search_sees_what_gemini_wrote_since(cli, project, home):
    memory = gemini_memory(home, project.root)
    assert cli("search", "database port", cwd=project.root).returncode == 0  # the index is built
    index = memory / "MEMORY.md"
    index.write_text(index.read_text() + "- Feature flags are read from flags.local.yaml on this laptop.\n")
    found = cli("search", "where are feature flags read from", cwd=project.root).stdout.decode()
    assert "flags.local.yaml" in found.split("\n")[0]
