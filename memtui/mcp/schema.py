"""The typed parameters the tools share, and the lean form of what the model reads.

`type` is an enum of the project's memory types and `k` a count within its bounds, so the model
sees the choices and the SDK refuses anything else with a message that names them. Every agent
sends the instructions and the tool definitions with every request, so `lean` takes out what the
model never needs: pydantic's titles (the property name says it), the `null` alternative of an
optional argument (leaving it out says it; pydantic still accepts an explicit null) and the
docstrings' indentation.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field

#: Results a search returns at most.
MAX_K = 20


def memory_type(registry: Any) -> Any:
    """The enum of the project's types, each named with the head of its meaning (up to its first
    colon, comma or bracket: enough to choose by)."""
    names = tuple(registry.names())
    meanings = "; ".join(_head(name, registry[name].meaning) for name in names)
    return Annotated[Literal[names], Field(description=f"{meanings}.")]


#: Where a type's meaning turns from what it is to its examples and lifetime.
_DETAIL = re.compile(r":\s|,\s|\s\(")


def _head(name: str, meaning: str) -> str:
    head = _DETAIL.split(meaning, maxsplit=1)[0].strip()
    return f"{name}: {head}" if head else name


def result_count(default: int, high: int = MAX_K) -> Any:
    return Annotated[int, Field(ge=1, le=high, description=f"Results, 1-{high}.")]


def text(description: str) -> Any:
    return Annotated[str, Field(description=description)]


def day() -> Any:
    """A date, YYYY-MM-DD (JSON Schema's `format: date`), kept as text for core/validity.py."""
    return Annotated[str, Field(json_schema_extra={"format": "date"})]


def words(description: str) -> Any:
    return Annotated[list[str], Field(description=description)]


def lean(schema: Any) -> Any:
    """`schema` without titles and with `anyOf [X, null]` (default null) as X: the same arguments
    are valid, in fewer characters."""
    if isinstance(schema, list):
        return [lean(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    options = schema.get("anyOf")
    if isinstance(options, list) and schema.get("default", ...) is None:
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1:
            rest = {k: v for k, v in schema.items() if k not in ("anyOf", "default")}
            return lean({**kept[0], **rest})
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):  # argument names, kept whatever they are
            out[key] = {name: lean(item) for name, item in value.items()}
        elif key != "title":
            out[key] = lean(value)
    return out


def description(doc: str | None) -> str:
    """A docstring as one line: the model reads words, not the source's wrapping."""
    return " ".join((doc or "").split())
