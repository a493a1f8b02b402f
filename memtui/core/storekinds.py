"""The kinds of Markdown memory folder memtui reads, one row each: the one place that says whose a
folder is and what memtui may do with it. `store.agentstores` opens a folder with its row's class,
`store.rendering` writes MEMORY.md only where the row renders an index, `index.sources` signs the
agent's own MEMORY.md where it does not, `core.owners` groups and labels the stores by the row's
agent, and the Bank takes each store key's short name ("gemini" for "md:gemini") from here.

    kind     agent   class                 read-only  renders MEMORY.md  stores
    claude   claude  MarkdownStore         no         yes (an index)     md:local, md:project, md:user,
                                                                         md:agent:NAME
    gemini   gemini  GeminiMemoryStore     no         no (its memories)  md:gemini
    codex    codex   CodexMemoriesStore    yes        no (its memories)  md:codex

An agent that keeps memories of its own adds one row here (and its store class in store/).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class StoreKind:
    #: `MarkdownDir.kind`: whose layout the folder has.
    kind: str
    #: The agent whose memory it is, as `memtui.agents` names it.
    agent: str
    #: The agent as a person reads it.
    label: str
    #: "module:Class" of its store, imported only when a folder of this kind is opened.
    store_class: str
    #: memtui shows and copies from it but never writes it (Codex writes its memories itself).
    read_only: bool
    #: memtui writes the folder's MEMORY.md, an index of links to the memory files; otherwise the
    #: agent's own MEMORY.md holds the memories and is the agent's, never rendered by memtui.
    renders_index: bool
    #: Its store keys → what a person calls each store (without the agent, which the group says).
    stores: Mapping[str, str] = field(default_factory=dict)
    #: Keys that start so are its stores too, called by the rest of the key ("md:agent:" subagents).
    prefix: str | None = None


KINDS: tuple[StoreKind, ...] = (
    StoreKind(
        "claude",
        "claude",
        "Claude Code",
        "memtui.store.markdown:MarkdownStore",
        read_only=False,
        renders_index=True,
        stores={"md:local": "repo memory", "md:project": "auto memory", "md:user": "user (global)"},
        prefix="md:agent:",
    ),
    StoreKind(
        "gemini",
        "gemini",
        "Gemini CLI",
        "memtui.store.gemini_memory:GeminiMemoryStore",
        read_only=False,
        renders_index=False,
        stores={"md:gemini": "private memory"},
    ),
    StoreKind(
        "codex",
        "codex",
        "Codex CLI",
        "memtui.store.codex_memories:CodexMemoriesStore",
        read_only=True,
        renders_index=False,
        stores={"md:codex": "memories (r/o)"},
    ),
)

BY_KIND: dict[str, StoreKind] = {row.kind: row for row in KINDS}
#: A store key's short name, as `memtui add --store` and the Bank take it ("local", "gemini").
ALIASES: dict[str, str] = {key.removeprefix("md:"): key for row in KINDS for key in row.stores}


def of(kind: str) -> StoreKind:
    """The row of a folder's kind; a kind memtui does not know is read as Claude Code's layout
    (MarkdownDir's default), the one every other agent's files were modelled on."""
    return BY_KIND.get(kind) or BY_KIND["claude"]


def of_key(key: str) -> StoreKind | None:
    """The row a store key belongs to (None: memtui's own store, or a key memtui does not know)."""
    for row in KINDS:
        if key in row.stores or (row.prefix is not None and key.startswith(row.prefix)):
            return row
    return None
