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


#: memtui's events, named as Claude Code named them first (stored sources and spool jobs carry these
#: names): each agent's module maps its own event names onto them (`memtui.agents`). The five every
#: agent has: a session starts, a prompt arrives, a turn ends, the context is compacted, the session
#: ends. The rest are Claude Code's own.
SESSION_START = "SessionStart"
PROMPT = "UserPromptSubmit"
TURN_END = "Stop"
COMPACTION = "PreCompact"
SESSION_END = "SessionEnd"

_TEXT_FIELDS = (
    "session_id",
    "transcript_path",
    "cwd",
    "prompt",
    "source",
    "tool_name",
    "agent_id",
    "agent_type",
    "agent_transcript_path",
    "trigger",
    "reason",
    "notification_type",
)


class HookEvent:
    """One hook call, whichever agent made it: memtui's event name, the agent's name, and the payload's
    fields with their types checked once (a field of the wrong type reads as absent). Frozen: built by
    `hook_event`, then only read. A plain slotted class (no dataclass machinery): this is built on
    every prompt."""

    __slots__ = ("agent", "event", "native", "tool_input", *_TEXT_FIELDS)

    agent: str
    event: str
    #: The agent's own name for the event (what its stdout answer must name).
    native: str
    session_id: str | None
    transcript_path: str | None
    cwd: str | None
    prompt: str | None
    source: str | None
    tool_name: str | None
    tool_input: dict | None
    agent_id: str | None
    agent_type: str | None
    agent_transcript_path: str | None
    trigger: str | None
    reason: str | None
    notification_type: str | None

    def __init__(self, agent: str, event: str, native: str, payload: dict) -> None:
        set_ = object.__setattr__
        set_(self, "agent", agent)
        set_(self, "event", event)
        set_(self, "native", native)
        for name in _TEXT_FIELDS:
            value = payload.get(name)
            set_(self, name, value if isinstance(value, str) and value else None)
        tool_input = payload.get("tool_input")
        set_(self, "tool_input", tool_input if isinstance(tool_input, dict) else None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a HookEvent is read-only")

    def __repr__(self) -> str:
        return f"HookEvent({self.agent}:{self.native}→{self.event}, session={self.session_id!r})"


def hook_event(agent: str, native: str, events: dict, data: bytes | dict | None) -> HookEvent | None:
    """The typed event for `native` (the agent's event name, mapped through `events` onto memtui's),
    or None when memtui does not handle that event or the payload is not one JSON object."""
    event = events.get(native)
    if event is None:
        return None
    payload = data if isinstance(data, dict) else parse_object(data) if data is not None else None
    if payload is None:
        return None
    return HookEvent(agent, event, native, payload)


def context_answer(hook: HookEvent, text: str) -> dict:
    """Claude Code's stdout shape for text added to the model's context, which Codex CLI, Gemini CLI,
    Qwen Code and memtui's opencode plugin read too."""
    return {"hookSpecificOutput": {"hookEventName": hook.native, "additionalContext": text}}
