"""Key remapping from `.memory/config.toml`.

Every binding in the TUI has a stable id (`main.edit`, `list.down`, `review.accept`, …); a
`[tui.keys]` table maps ids to keys, e.g.

    [tui.keys]
    "main.drop" = "delete"
    "list.down" = "down,j,n"

The ids are listed in the help screen (`f1`). Values are Textual key names, comma-separated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from textual.binding import Binding


def binding_ids(classes: Iterable[type]) -> dict[str, str]:
    """id → default keys, for every binding with an id on the given classes (and their bases)."""
    out: dict[str, str] = {}
    for cls in classes:
        for klass in cls.__mro__:
            for binding in vars(klass).get("BINDINGS", ()):
                if isinstance(binding, Binding) and binding.id:
                    out.setdefault(binding.id, binding.key)
    return out


def load_keymap(section: Mapping[str, Any], known: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The keymap from `[tui]`'s `keys` table, and a line per entry that was ignored (with why)."""
    table = section.get("keys", {})
    if not isinstance(table, Mapping):
        return {}, ['[tui.keys] must be a table of binding id = "key"; ignored']
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in table.items():
        if binding_id not in known:
            problems.append(f"[tui.keys] {binding_id!r} is not a binding id (f1 lists them); ignored")
        elif not isinstance(keys, str) or not keys.strip():
            problems.append(f'[tui.keys] {binding_id!r} needs a key name string such as "ctrl+e"; ignored')
        else:
            keymap[binding_id] = ",".join(k.strip() for k in keys.split(",") if k.strip())
    return keymap, problems
