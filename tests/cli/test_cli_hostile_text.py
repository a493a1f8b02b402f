"""The hostile corpus (tests/hostilekit.py) through the CLI, as a person runs it: whatever a memory
holds, `list`, `show`, `search` and `ask` print no escape sequence and no hidden character, an id
or a title stays on one line, and `--json` is the exact same JSON value with no raw control."""

from __future__ import annotations

import json

from hostilekit import HOSTILE, PROMPT, TOPIC, chunks, outside, terminal_problems

from memtui.store.bank import Bank


def _hostile_project(run, project) -> None:
    for chunk in chunks():
        code, _, err = run("add", "--type", "gotcha", "--tags", "deploy", input=chunk)
        assert code == 0, err
    local = project.root / ".claude" / "memory"
    local.mkdir(parents=True)
    about = json.dumps(f"{TOPIC} \x1b]0;pwned\x07 \x1b[2J \u202eevil \x9b31m")
    # A file name is an id (`local/<stem>`): it holds controls too.
    (local / "evil\x1b]0;title\x07\nline.md").write_bytes(
        f"---\nname: evil\ndescription: {about}\ntype: project\n---\n\n{chunks()[0]}\n".encode()
    )


def test_no_memory_text_drives_the_terminal(run, project, home, tmp_path):
    _hostile_project(run, project)
    ids = [m.id for m in Bank(project).memories()]
    assert len(ids) == len(chunks()) + 1
    outputs = [run("list"), run("list", "--status", "all"), run("search", PROMPT), run("ask", PROMPT)]
    outputs += [run("show", memory_id) for memory_id in ids]
    for code, out, err in outputs:
        assert code in (0, 1), err
        assert terminal_problems(out + err) == [], out + err
    listed = outputs[0][1].splitlines()
    assert len(listed) == len(ids)  # one line per memory, whatever its id or text holds
    assert outside(tmp_path, project.root, home) == set()


def test_json_output_is_the_exact_value_with_no_raw_control(run, project):
    _hostile_project(run, project)
    code, out, err = run("list", "--json")
    assert code == 0, err
    assert terminal_problems(out) == []
    listed = json.loads(out)
    stored = {m.id: m for m in Bank(project).memories()}
    assert {m["id"]: m["content"] for m in listed} == {i: m.content for i, m in stored.items()}
    for memory_id, memory in stored.items():
        code, out, err = run("show", memory_id, "--json")
        assert code == 0 and terminal_problems(out) == []
        assert json.loads(out)["content"] == memory.content
    assert any(text in "".join(m.content for m in stored.values()) for _name, text in HOSTILE[:5])


def test_a_markdown_memory_is_listed_by_what_it_says_not_its_slug(run, project):
    local = project.root / ".claude" / "memory"
    local.mkdir(parents=True)
    (local / "feedback_testing.md").write_text(
        "---\nname: feedback_testing\ndescription: Run the tests with pytest -n auto, never unittest\n"
        "type: feedback\n---\n\nRun the tests with `pytest -n auto`.\n",
        encoding="utf-8",
    )
    code, out, err = run("list")
    assert code == 0, err
    assert "Run the tests with pytest -n auto, never unittest" in out
    assert "feedback_testing\n" not in out + "\n"
