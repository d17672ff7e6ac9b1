"""pinchtab's browser tools in an OpenAI Agents SDK agent, through MCP (`pinchtab mcp` over stdio).

    pip install openai-agents /path/to/pinchtab   # a checkout or a wheel; mcp 2.x suits both
    export OPENAI_API_KEY=...
    python examples/openai_agents_agent.py "What is the top story on https://news.ycombinator.com?"

Check the wiring first, with no model and no key: list the tools the agent would get and call
pinchtab_navigate and pinchtab_snapshot through the SDK's MCP server object:

    python examples/openai_agents_agent.py --check https://example.com
    python examples/openai_agents_agent.py --check https://example.com -- /path/to/python -m pinchtab mcp
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from agents import Agent, Runner
from agents.mcp import MCPServerStdio

# Your model, as the SDK names it ("gpt-5", "gpt-5-mini", or a LiteLLM "litellm/..." model).
MODEL = os.environ.get("PINCHTAB_AGENT_MODEL", "gpt-5")

INSTRUCTIONS = (
    "You browse with the pinchtab tools. Open a page with pinchtab_navigate, read it with "
    "pinchtab_snapshot (interactive=true, compact=true: each element has a ref like e5), act with "
    "pinchtab_click / pinchtab_fill / pinchtab_press on a ref, and take a new snapshot after each "
    "action: refs of an old snapshot may be gone. pinchtab_find finds an element by description."
)


def pinchtab_server(command: Sequence[str] = ("pinchtab", "mcp")) -> MCPServerStdio:
    return MCPServerStdio(
        name="pinchtab",
        params={"command": command[0], "args": list(command[1:])},
        cache_tools_list=True,  # the tool list does not change while the server runs
        # A page load can take longer than the SDK's default 5 s per request.
        client_session_timeout_seconds=60,
    )


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def check(url: str, command: Sequence[str]) -> dict[str, Any]:
    async with pinchtab_server(command) as server:
        tools = [tool.name for tool in await server.list_tools()]
        navigated = json.loads(text_of(await server.call_tool("pinchtab_navigate", {"url": url})))
        snapshot = text_of(await server.call_tool(
            "pinchtab_snapshot", {"tabId": navigated["tabId"], "interactive": True, "compact": True}))
    return {"tools": sorted(tools), "navigate": navigated, "snapshot": snapshot}


async def run(task: str, command: Sequence[str]) -> str:
    async with pinchtab_server(command) as server:
        agent = Agent(name="browser", instructions=INSTRUCTIONS, mcp_servers=[server], model=MODEL)
        result = await Runner.run(agent, task, max_turns=30)
    return str(result.final_output)


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
