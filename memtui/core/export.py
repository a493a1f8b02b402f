"""Memories as plain dicts for `--json` output and the MCP server. This shape is documented and stable."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memtui.core import decay, provenance
from memtui.core.clock import format_ts
from memtui.core.memory import SOURCE_FIELDS, Memory
from memtui.core.types import DEFAULT_REGISTRY, TypeRegistry


def to_dict(memory: Memory, now: datetime, registry: TypeRegistry = DEFAULT_REGISTRY) -> dict[str, Any]:
    return {
        "id": memory.id,
        "type": memory.type,
        "name": memory.name,
        "description": memory.description,
        "content": memory.content,
        "tags": list(memory.tags),
        "status": memory.status.value,
        "confidence": round(decay.confidence(memory, now, registry), 4),
        "access_count": memory.access_count,
        "created": format_ts(memory.created),
        "updated": format_ts(memory.updated),
        "age_days": round(decay.age_days(memory, now), 2),
        "freshness": decay.freshness(memory, now),
        "supersedes": memory.supersedes,
        "merged_from": list(memory.merged_from),
        "source": {name: getattr(memory.source, name) for name in SOURCE_FIELDS} if memory.source else None,
        # Who wrote it and whether recall marks or holds it (docs/trust.md): one value to read.
        "provenance": provenance.describe(memory),
        "reviewed": memory.reviewed,
        "questions": list(memory.questions),
        "valid_until": memory.valid_until,
        "valid_from": memory.valid_from,
        "expired": memory.expired(now),
        "store": memory.store,
        "scope": memory.scope,
        "path": memory.path,
    }
