"""The JSON splice under the MCP-only agents' setup: memtui's member goes into a config file's text
and comes out again to the byte, whatever the person's layout (agents/jsonsplice.py)."""

from __future__ import annotations

import json

import pytest

from memtui.agents import jsonsplice
from memtui.errors import UsageError

ENTRY = {"command": "/venv/bin/memtui", "args": ["mcp", "--agent", "crush"]}

LAYOUTS = {
    "two spaces, ended": '{\n  "a": 1,\n  "mcpServers": {\n    "x": {"command": "x"}\n  }\n}\n',
    "four spaces, not ended": '{\n    "mcpServers": {\n        "x": {\n            "command": "x"\n        }\n    }\n}',
    "tabs and a one-line array": '{\n\t"mcpServers": {"x": {"args": [1, 2]}},\n\t"z": true\n}\n',
    "one line": '{"a":1,"mcpServers":{"x":{"command":"x"}}}',
    "no servers yet": '{\n  "theme": "dark",\n  "list": [1, 2, 3]\n}\n',
    "an empty servers object": '{\n  "keep": 1,\n  "mcpServers": {   }\n}\n',
    "an empty document": "{}",
    "unicode and escapes": '{\n  "naïve": "caf\\u00e9 \\"quoted\\"",\n  "mcpServers": {"é": {}}\n}\n',
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_put_then_take_gives_every_byte_back(layout):
    text = LAYOUTS[layout]

    added = jsonsplice.put(text, ("mcpServers",), "memtui", ENTRY, "f")

    doc = json.loads(added)
    assert doc["mcpServers"].pop("memtui") == ENTRY
    before = json.loads(text)
    if "mcpServers" not in before:
        assert doc.pop("mcpServers") == {}
    assert doc == before  # every other key as it was
    taken = jsonsplice.take(added, ("mcpServers",), "memtui", "f")
    if layout == "an empty servers object":
        # A container memtui's member leaves empty goes with it (memtui cannot tell it made it).
        assert taken == '{\n  "keep": 1\n}\n'
    elif layout == "an empty document":
        assert taken == ""  # a document left empty is a file that goes
    else:
        assert taken == text


def test_an_existing_member_is_replaced_where_it_stands():
    text = '{\n  "mcpServers": {\n    "memtui": {"command": "/old/memtui"},\n    "y": {}\n  }\n}\n'

    new = jsonsplice.put(text, ("mcpServers",), "memtui", ENTRY, "f")

    assert list(json.loads(new)["mcpServers"]) == ["memtui", "y"]
    assert json.loads(new)["mcpServers"]["memtui"] == ENTRY
    assert new.endswith('    "y": {}\n  }\n}\n')


def test_taking_the_first_of_several_members_keeps_the_rest_as_written():
    text = '{\n  "mcpServers": {\n    "memtui": {"command": "m"},\n    "y": {"args": [1, 2]}\n  }\n}\n'

    assert (
        jsonsplice.take(text, ("mcpServers",), "memtui", "f")
        == '{\n  "mcpServers": {\n    "y": {"args": [1, 2]}\n  }\n}\n'
    )


def test_a_missing_file_becomes_a_new_document_and_its_last_entry_removes_it():
    made = jsonsplice.put(None, ("amp.mcpServers",), "memtui", ENTRY, "f")

    assert json.loads(made) == {"amp.mcpServers": {"memtui": ENTRY}}
    assert jsonsplice.take(made, ("amp.mcpServers",), "memtui", "f") == ""


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"mcpServers": [1]}', '"mcpServers" is not a JSON object'),
        ("[1, 2]", "does not hold a JSON object"),
        ('{"a": 1,}', "is not valid JSON"),
        ('{\n  // a comment\n  "a": 1\n}', "is not valid JSON"),
    ],
)
def test_text_it_cannot_edit_is_one_clear_line(text, says):
    with pytest.raises(UsageError, match=says):
        jsonsplice.put(text, ("mcpServers",), "memtui", ENTRY, "f")
