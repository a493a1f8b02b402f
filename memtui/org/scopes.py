"""The organisation's scopes: `org` (everyone in the database), `team:NAME` (the roles the database
lists for that team) and `person` (the connecting role's own memories, on every machine it uses)."""

from __future__ import annotations

import re

ORG = "org"
PERSON = "person"
#: As the schema's CHECK constraint has it (migrations/0001_memories.sql).
_TEAM = re.compile(r"team:[a-z0-9][a-z0-9_.-]{0,62}")


def is_shared(key: str) -> bool:
    """Whether a store key names one of the organisation's scopes (not a project's store)."""
    return key in (ORG, PERSON) or key.startswith("team:")


def problem(scope: str) -> str | None:
    """Why `scope` is not a scope, or None."""
    if scope in (ORG, PERSON) or _TEAM.fullmatch(scope):
        return None
    return "an organisation scope is org, person or team:NAME (NAME in lower-case letters, digits, '-', '_', '.')"
