"""Where the fast hook launcher lived before the runtime had a room of its own (`memtui.runtime`).

Hooks that an earlier `memtui setup` installed name `…/memtui/hooks/launch.py`; that file forwards to
`memtui/runtime/launch.py` so they keep working until setup is run again (which writes the new path).
"""
