"""`memtui mcp`: the MCP stdio server over the official SDK (`mcp` 2.x), one module per tool.

Nothing here is imported by the hooks; the SDK itself is imported only by `server.build()`.
"""
