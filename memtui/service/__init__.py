"""The per-project recall service: the warm half of the prompt path (`memtui daemon`).

A hook is a fresh process on every prompt; the service is the one process that stays: it keeps
the project's index open and the embedding model loaded, and answers the hooks' recall requests
(`memtui.hooks.client`), the command line's and the MCP server's searches. It is started on
demand by the SessionStart and prompt hooks, never required (every client falls back to doing
the work itself), and always owned: one per project (a lock), an idle exit, a status line.

    (memtui.recall.service starts it on demand, stops it, reads its status and settings)
    server.py    the process itself: warm-up, the socket loop, the exit conditions
"""
