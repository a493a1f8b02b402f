"""`memtui add`, `edit` and `merge` take a memory in as every way in does (core/intake.py): no bidi
control, tag, zero-width or other invisible character is stored, emoji keep their joiners, and the
note says what went."""

from __future__ import annotations

import json

from hostilekit import IMPORT_NAME, IMPORT_SOURCE, _tags, hidden, raw_escapes

HIDDEN_TEXT = "Deploys need two approvals " + "".join(text for _, text in IMPORT_SOURCE)


def _stored(project) -> list[dict]:
    return json.loads(project.path("state.json").read_text(encoding="utf-8"))["memories"]


def _clean(memory: dict) -> None:
    for value in (memory["content"], memory.get("name", ""), memory.get("description", ""), *memory["tags"]):
        assert hidden(value) == [] and raw_escapes(value) == [], repr(value)


def test_add_stores_no_invisible_character_and_the_note_names_the_kinds(run, project):
    code, out, err = run(
        "add", "-t", "decision", HIDDEN_TEXT, "--name", f"Approvals {IMPORT_NAME}",
        "--description", f"How many {IMPORT_NAME}", "--tags", f"deploy\u202e,ops{_tags('x')}\u200b",
    )  # fmt: skip
    assert code == 0, err
    [memory] = _stored(project)
    _clean(memory)
    assert memory["content"].startswith("Deploys need two approvals")
    assert (
        "note: removed" in out and "invisible characters (bidi controls, zero-width characters, tag characters" in out
    )
    assert "from the text" in out and "from the name" in out and "from the description" in out and "from the tag" in out
    assert raw_escapes(out) == [] and hidden(out) == []


def test_emoji_keep_their_joiners_and_presentation_with_no_note(run, project):
    text = "Ship it when the board is green ❤️ 👩‍💻 🏳️‍🌈 1️⃣"
    code, out, err = run("add", "-t", "decision", text)
    assert code == 0, err
    assert [m["content"] for m in _stored(project)] == [text]
    assert "note:" not in out


def test_edit_and_merge_take_the_text_in_the_same_way(run, project):
    ids = []
    for text in ("Deploys need two approvals", "Deploys run on Tuesdays"):
        code, out, _ = run("add", "-t", "decision", text, "--json")
        ids.append(json.loads(out)["id"])
    code, out, err = run("edit", ids[0], "--text", HIDDEN_TEXT)
    assert code == 0, err
    assert "invisible characters (bidi controls" in out and "from the text" in out
    code, out, err = run("merge", *ids, "--text", f"Deploys: two approvals, Tuesdays {IMPORT_NAME}")
    assert code == 0, err
    for memory in _stored(project):
        _clean(memory)
