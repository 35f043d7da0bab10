"""Bridges to running agents: an MCP server over the engine (mcp_server.py). Every
write an agent makes still passes the one gate, as the agent the server names."""
