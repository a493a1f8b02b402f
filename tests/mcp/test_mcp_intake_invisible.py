"""An agent's `memory_save` through the SDK's client is taken in as every way in: no bidi control,
tag or zero-width character is stored, and the reply names what was removed."""

from __future__ import annotations

import json

from hostilekit import IMPORT_SOURCE, hidden, raw_escapes
from mcpkit import session, text


def test_save_removes_invisible_characters_and_the_reply_names_their_kinds(project, home, bank):
    hostile = "Deploys need two approvals " + "".join(t for _, t in IMPORT_SOURCE)

    async def calls(client):
        return [await client.call_tool("memory_save", {"content": hostile, "type": "decision", "tags": ["ops\u202e"]})]

    [saved] = session(project.root, home, calls)
    said = text(saved)
    assert not saved.is_error, said
    assert "invisible characters (bidi controls, zero-width characters, tag characters" in said, said
    assert "from the text" in said and "from the tag" in said
    assert hidden(said) == [] and raw_escapes(said) == []
    [stored] = json.loads(project.path("state.json").read_text(encoding="utf-8"))["memories"]
    for value in (stored["content"], *stored["tags"]):
        assert hidden(value) == [] and raw_escapes(value) == [], repr(value)
    assert stored["content"].startswith("Deploys need two approvals") and stored["tags"] == ["ops"]
