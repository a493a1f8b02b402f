"""Our answer schemas in the form OpenAI's strict structured output accepts, and back.

Codex's `--output-schema` goes to the Responses API as `text.format` with `strict: true`, which
wants every property of every object listed in `required`; an optional property is written as a
nullable one instead. `schema.validate` still checks the answer against our own schema, once
`unstrict` has taken out the nulls that form allowed where ours allows none.
"""

from __future__ import annotations

from typing import Any


def strict(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` as OpenAI's strict structured output wants it (Codex sends `strict: true`): every
    property required, the optional ones made nullable. `unstrict` takes the nulls back out."""
    out = dict(schema)
    if isinstance(schema.get("properties"), dict):
        required = set(schema.get("required") or ())
        properties = {}
        for key, sub in schema["properties"].items():
            sub = strict(sub)
            kinds = sub.get("type")
            if key not in required and isinstance(kinds, (str, list)):
                options = [kinds] if isinstance(kinds, str) else list(kinds)
                sub["type"] = options if "null" in options else [*options, "null"]
                if isinstance(sub.get("enum"), list) and None not in sub["enum"]:
                    sub["enum"] = [*sub["enum"], None]  # strict output checks a null against the enum too
            properties[key] = sub
        out["properties"] = properties
        out["required"] = list(properties)
    if isinstance(schema.get("items"), dict):
        out["items"] = strict(schema["items"])
    return out


def unstrict(value: Any, schema: dict[str, Any]) -> Any:
    """`value` without the nulls `strict` allowed where `schema` itself allows none."""
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [unstrict(v, schema["items"]) for v in value]
    if not isinstance(value, dict) or not isinstance(schema.get("properties"), dict):
        return value
    kept = {}
    for key, item in value.items():
        sub = schema["properties"].get(key)
        kinds = sub.get("type") if isinstance(sub, dict) else None
        if item is None and isinstance(kinds, (str, list)) and "null" not in kinds:
            continue
        kept[key] = unstrict(item, sub) if isinstance(sub, dict) else item
    return kept
