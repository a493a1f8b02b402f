"""The typed parameters the tools share: `type` as an enum of the project's memory types (each with
its one-line meaning) and `k` within its bounds, so the model sees the choices and the SDK refuses
anything else with a message that names them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

#: Results a search returns at most.
MAX_K = 20


def memory_type(registry: Any, *, required: bool) -> Any:
    names = tuple(registry.names())
    meanings = "; ".join(f"{name}: {registry[name].meaning}" if registry[name].meaning else name for name in names)
    lead = "The kind of memory" if required else "Narrow to one kind of memory"
    return Annotated[Literal[names], Field(description=f"{lead}. {meanings}.")]


def result_count(default: int) -> Any:
    return Annotated[int, Field(ge=1, le=MAX_K, description=f"How many results (1-{MAX_K}; default {default}).")]
