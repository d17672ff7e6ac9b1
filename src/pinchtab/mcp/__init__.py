"""``pinchtab mcp``: the PinchTab tools for MCP clients (Claude Desktop, Cursor, VS Code, ...).

A stdio MCP server on the official SDK that holds no browser state: each of the 21 tools
(``tools.py``) is one HTTP call to a pinchtab server or bridge through ``pinchtab.AsyncClient``.
This package imports nothing heavy, so registering the command keeps ``pinchtab --help`` fast.
"""
