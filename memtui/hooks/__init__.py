"""Claude Code event entry points (`memtui hook <event>`), recall injection, capture hand-off, setup.

A hook is a fresh process whose start-up time is the user's latency, so modules here import only the
standard library and memtui's light layers at module level; everything else is imported inside the
function that needs it. Every path fails open: exit 0, print nothing or one JSON object.
"""
