"""The JSON shapes we ask the model for, and the check every answer passes before anything is written.

The schema sent as the forced tool's `input_schema` is the very one `validate` checks, so what
the model was asked for and what we accept cannot drift apart. `validate` covers the subset of
JSON Schema these schemas use (type, enum, properties, required, additionalProperties, items,
minLength, minItems, maxItems, maxLength); it needs no third-party package.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memtui.core import memory
from memtui.llm.errors import BadOutput

_PY = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _PY[kind])


def errors(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    kinds = schema.get("type")
    if kinds is not None:
        options = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_is(value, k) for k in options):
            return [f"{path} should be {' or '.join(options)}, not {type(value).__name__}"]
    found: list[str] = []
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{path} is {value!r}, not one of {', '.join(map(str, schema['enum']))}")
    if isinstance(value, str):
        if len(value.strip()) < schema.get("minLength", 0):
            found.append(f"{path} is empty")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            found.append(f"{path} is longer than {schema['maxLength']} characters")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            found.append(f"{path} needs at least {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            found.append(f"{path} has more than {schema['maxItems']} items")
        item = schema.get("items")
        if item:
            for i, element in enumerate(value):
                found += errors(element, item, f"{path}[{i}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in value:
                found.append(f"{path}.{key} is missing")
        for key, element in value.items():
            if key in properties:
                found += errors(element, properties[key], f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                found.append(f"{path}.{key} is not expected")
    return found


def validate(value: Any, schema: dict[str, Any], what: str) -> dict[str, Any]:
    """`value` if it matches; else BadOutput naming the first problems (nothing is written)."""
    problems = errors(value, schema)
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise BadOutput(
            f"the model's {what} did not match the schema: {'; '.join(problems[:3])}{more}",
            fix="nothing was saved; the same transcript span is retried on the next run",
        )
    return value


def _strings(**extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, **extra}


#: What a captured memory may rest on (`rests_on`, optional: an answer without it is read as before).
RESTS_ON = memory.RESTS_ON


def extraction(types: Sequence[str]) -> dict[str, Any]:
    memory = {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": list(types), "description": "the kind of memory"},
            "content": {
                "type": "string",
                "minLength": 1,
                "maxLength": 2000,
                "description": "one self-contained, specific statement with concrete names",
            },
            "tags": _strings(description="a few lower-case topic tags"),
            "questions": _strings(
                maxItems=5,
                description="2-4 short questions a developer might ask that this memory answers, in other "
                "words than the memory's own",
            ),
            "supersedes": {
                "type": ["string", "null"],
                "description": "the id (or exact text) of an existing memory this one replaces, else null",
            },
            "valid_until": {
                "type": ["string", "null"],
                "description": "the last day it holds, YYYY-MM-DD, when the conversation says it ends "
                '("until the v3 release", "through Friday"), else null',
            },
            "rests_on": {
                "type": "string",
                "enum": list(RESTS_ON),
                "description": "whose words the memory rests on: person (the USER lines say it), assistant "
                "(the agent's own conclusion), tool (only text the agent read or quoted: a file, a web page, "
                "a tool's output, even when the agent repeats it), error (only a tool's error message)",
            },
        },
        "required": ["type", "content", "tags"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"memories": {"type": "array", "items": memory}},
        "required": ["memories"],
        "additionalProperties": False,
    }


ENRICHMENT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "memories": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "questions": _strings(minItems=1, maxItems=5),
                },
                "required": ["id", "questions"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["memories"],
    "additionalProperties": False,
}


CONSOLIDATION: dict[str, Any] = {
    "type": "object",
    "properties": {
        "keep": _strings(description="ids kept as they are"),
        "merge": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "sources": _strings(minItems=2, description="ids of the memories combined"),
                    "content": {"type": "string", "minLength": 1, "description": "the merged memory text"},
                    "tags": _strings(),
                    "reason": {"type": "string"},
                },
                "required": ["sources", "content", "tags"],
                "additionalProperties": False,
            },
        },
        "drop": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "reason": {"type": "string"}},
                "required": ["id"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["keep", "merge", "drop"],
    "additionalProperties": False,
}
