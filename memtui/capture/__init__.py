"""From transcripts to memories, and keeping them tidy.

transcript   Claude Code JSONL → conversation lines (skips what is not conversation)
chunk        6,000-character pieces with 500 of overlap, cut between lines
cursor       .memory/cursor.json: lines captured per session (memory-mcp's shape)
known        which existing memories each chunk's prompt shows the model
explicit     "remember that …" → a memory, with no model at all
pipeline     extract(): the run Stop / PreCompact / SessionEnd hand to the worker
consolidate  plan() / apply(): keep, merge, drop per type, as one undoable change
ask          ask(): a question answered from the memories, citing ids
health       .memory/status.json and read(): is capture working, what does it cost
signin       notice(): jobs waiting for a Claude Code, Codex or Gemini CLI login start once a sign-in may have happened
"""
