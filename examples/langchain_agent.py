"""pinchtab's browser tools in a LangChain / LangGraph agent, through MCP (langchain-mcp-adapters
spawning `pinchtab mcp` over stdio).

    pip install langchain-mcp-adapters langchain langchain-openai   # or langchain-anthropic, ...
    pipx install /path/to/pinchtab   # its own environment, on PATH: the adapters need mcp<2, pinchtab mcp>=2
    export OPENAI_API_KEY=...
    python examples/langchain_agent.py "What is the top story on https://news.ycombinator.com?"

Check the wiring first, with no model and no key: load the tools and call pinchtab_navigate and
pinchtab_snapshot through LangChain's tool objects, printing what they answered as JSON:

    python examples/langchain_agent.py --check https://example.com
    python examples/langchain_agent.py --check https://example.com -- /path/to/python -m pinchtab mcp

(after ``--``: the command that runs pinchtab's MCP server, when ``pinchtab`` is not on PATH).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from langchain_core.tools import BaseTool
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools

# Your model, as LangChain's init_chat_model names it: "openai:gpt-5", "anthropic:claude-sonnet-4-5", ...
MODEL = os.environ.get("PINCHTAB_AGENT_MODEL", "openai:gpt-5")

INSTRUCTIONS = (
    "You browse with the pinchtab tools. Open a page with pinchtab_navigate, read it with "
    "pinchtab_snapshot (interactive=true, compact=true: each element has a ref like e5), act with "
    "pinchtab_click / pinchtab_fill / pinchtab_press on a ref, and take a new snapshot after each "
    "action: refs of an old snapshot may be gone. pinchtab_find finds an element by description."
)


def pinchtab_client(command: Sequence[str] = ("pinchtab", "mcp")) -> MultiServerMCPClient:
    return MultiServerMCPClient({"pinchtab": {"transport": "stdio", "command": command[0], "args": list(command[1:])}})


def text_of(content: Any) -> str:
    """A tool's answer as text (MCP content blocks or a plain string)."""
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") if isinstance(block, dict) else str(block) for block in content)


async def check(url: str, command: Sequence[str]) -> dict[str, Any]:
    """Navigate to ``url`` and snapshot it through LangChain tool objects; no model involved."""
    # One session (one `pinchtab mcp` process) for all calls; client.get_tools() would start one per call.
    async with pinchtab_client(command).session("pinchtab") as session:
        tools: dict[str, BaseTool] = {tool.name: tool for tool in await load_mcp_tools(session)}
        navigated = json.loads(text_of(await tools["pinchtab_navigate"].ainvoke({"url": url})))
        snapshot = text_of(await tools["pinchtab_snapshot"].ainvoke(
            {"tabId": navigated["tabId"], "interactive": True, "compact": True}))
    return {"tools": sorted(tools), "navigate": navigated, "snapshot": snapshot}


async def run(task: str, command: Sequence[str]) -> str:
    # create_agent comes with `langchain` (LangGraph underneath); --check needs only the adapters.
    from langchain.agents import create_agent

    async with pinchtab_client(command).session("pinchtab") as session:
        agent = create_agent(MODEL, tools=await load_mcp_tools(session), system_prompt=INSTRUCTIONS)
        state = await agent.ainvoke({"messages": [{"role": "user", "content": task}]})
    return str(state["messages"][-1].content)


def main(argv: list[str]) -> None:
    args, command = (argv[: argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, ["pinchtab", "mcp"])
    if args[:1] == ["--check"] and len(args) == 2:
        print(json.dumps(asyncio.run(check(args[1], command))))
    elif len(args) == 1:
        print(asyncio.run(run(args[0], command)))
    else:
        sys.exit(f"usage: {sys.argv[0]} TASK | --check URL [-- MCP COMMAND...]")


if __name__ == "__main__":
    main(sys.argv[1:])
