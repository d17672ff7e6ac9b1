"""pinchtab's browser tools in a LlamaIndex agent, through MCP (`pinchtab mcp` over stdio).

    pip install llama-index-tools-mcp llama-index-llms-openai   # or another llama-index-llms-*
    pip install /path/to/pinchtab     # a checkout or a wheel; mcp 2.x suits both
    export OPENAI_API_KEY=...
    python examples/llamaindex_agent.py "What is the top story on https://news.ycombinator.com?"

Check the wiring first, with no model and no key: call pinchtab_navigate and pinchtab_snapshot
through LlamaIndex's own FunctionTool objects:

    python examples/llamaindex_agent.py --check https://example.com
    python examples/llamaindex_agent.py --check https://example.com -- /path/to/python -m pinchtab mcp
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from llama_index.core.tools import FunctionTool
from llama_index.tools.mcp import BasicMCPClient, McpToolSpec

# Your model, as llama-index-llms-openai names it ("gpt-5", "gpt-5-mini", ...).
MODEL = os.environ.get("PINCHTAB_AGENT_MODEL", "gpt-5")

INSTRUCTIONS = (
    "You browse with the pinchtab tools. Open a page with pinchtab_navigate, read it with "
    "pinchtab_snapshot (interactive=true, compact=true: each element has a ref like e5), act with "
    "pinchtab_click / pinchtab_fill / pinchtab_press on a ref, and take a new snapshot after each "
    "action: refs of an old snapshot may be gone. pinchtab_find finds an element by description."
)


def pinchtab_client(command: Sequence[str] = ("pinchtab", "mcp")) -> BasicMCPClient:
    # Over stdio each tool call starts `pinchtab mcp` anew; the pinchtab server it talks to (started
    # on first use) keeps the tabs, so a tabId from one call is good in the next.
    return BasicMCPClient(command[0], args=list(command[1:]), timeout=60)


def text_of(output: Any) -> str:
    """A ToolOutput's text (its raw_output is the MCP CallToolResult)."""
    raw = getattr(output, "raw_output", None)
    blocks = getattr(raw, "content", None)
    return "".join(getattr(b, "text", "") for b in blocks) if blocks else str(output.content)


async def tools_of(command: Sequence[str]) -> dict[str, FunctionTool]:
    tools = await McpToolSpec(client=pinchtab_client(command)).to_tool_list_async()
    return {tool.metadata.name or "": tool for tool in tools}


async def check(url: str, command: Sequence[str]) -> dict[str, Any]:
    tools = await tools_of(command)
    navigated = json.loads(text_of(await tools["pinchtab_navigate"].acall(url=url)))
    snapshot = text_of(await tools["pinchtab_snapshot"].acall(tabId=navigated["tabId"], interactive=True, compact=True))
    return {"tools": sorted(tools), "navigate": navigated, "snapshot": snapshot}


async def run(task: str, command: Sequence[str]) -> str:
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.llms.openai import OpenAI  # your LLM package here

    agent = FunctionAgent(tools=list((await tools_of(command)).values()), llm=OpenAI(model=MODEL),
                          system_prompt=INSTRUCTIONS)
    return str(await agent.run(task))


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
