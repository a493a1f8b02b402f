"""Claude Code's hook payload: the one parser, and the events memtui handles.

The thin hook client runs this on every prompt, so it reads JSON with the interpreter's C scanner
(`_json`, a built-in module) rather than `json`, which would pull in `re` and `enum`; no other
import. The recall service and the in-process hook use the same function, so a payload means the
same thing on every path.
"""

#: Every event memtui's hooks are installed for.
HOOK_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PostToolUse",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionEnd",
    "Notification",
)
#: The events that recall answers (the warm service when one runs, else the hook itself).
RECALL_EVENTS = ("UserPromptSubmit", "SessionStart")


class _Context:
    """What `_json.make_scanner` reads off `json.JSONDecoder`: the stock decoding rules."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


def parse_object(data: bytes) -> dict | None:
    """Claude Code's payload as a dict, or None when it is not one JSON object."""
    import _json

    try:
        text = data.decode("utf-8", errors="replace").strip()
        value, end = _json.make_scanner(_Context())(text, 0)  # type: ignore[arg-type]  # the C scanner reads these attributes
    except Exception:  # malformed input (the C scanner raises several kinds, even SystemError)
        return None
    if end != len(text) or not isinstance(value, dict):
        return None
    return value
