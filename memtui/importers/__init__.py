"""Reading other memory tools' stores as memtui memories (`memtui import`), and writing ours in their
shapes (`memtui export`).

One module per source reads its files and nothing else: it never writes to them, and it hands back
units (one unit of knowledge each: an observation, a bullet, a section's paragraph) with where each
came from. `plan` compares them with the store and `plan.apply` saves them through the Bank's own
add, as one undoable change.
"""

#: The sources `memtui import` knows: name → (its module here, where it keeps its data by default,
#: as `memtui import --help` says it; the module's `default_path` finds it). Plain strings, so that
#: building the CLI's parser imports no reader.
SOURCES = {
    "claude-mem": ("claudemem", "~/.claude-mem/claude-mem.db (or $CLAUDE_MEM_DATA_DIR/claude-mem.db)"),
    "basic-memory": ("basicmemory", "$BASIC_MEMORY_HOME, else ~/basic-memory"),
    "codex": ("codex", "$CODEX_HOME, else ~/.codex (its memories/ folder)"),
    "gemini": ("gemini", "~/.gemini (GEMINI.md and this project's tmp/<id>/memory/)"),
    "cline": ("cline", "<project>/memory-bank"),
    "memory-tool": ("memorytool", "<project>/memories (the folder that backs /memories)"),
}
