"""pinchtab's browser tools in a pydantic-ai agent, through MCP (`pinchtab mcp` over stdio).

    pip install "pydantic-ai-slim[mcp,openai]" /path/to/pinchtab   # or [mcp,anthropic], ...
    export OPENAI_API_KEY=...                         # your provider's key
    python examples/pydantic_ai_agent.py "What is the top story on https://news.ycombinator.com?"

Check the wiring first, with no model and no key: a scripted model (pydantic-ai's FunctionModel)
asks for pinchtab_navigate, then pinchtab_snapshot, and the agent prints the snapshot:

    python examples/pydantic_ai_agent.py --check https://example.com
    python examples/pydantic_ai_agent.py --check https://example.com -- /path/to/python -m pinchtab mcp

(after ``--``: the command that runs pinchtab's MCP server, when ``pinchtab`` is not on PATH).

`pinchtab mcp` starts a local pinchtab server when none answers (PINCHTAB_SERVER or --server
picks another); the server keeps running for the next agent.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence

from fastmcp.client.transports import StdioTransport
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

# Your model: "openai:gpt-5", "anthropic:claude-sonnet-4-5", "google-gla:gemini-2.5-pro", ...
MODEL = os.environ.get("PINCHTAB_AGENT_MODEL", "openai:gpt-5")

INSTRUCTIONS = (
    "You browse with the pinchtab tools. Open a page with pinchtab_navigate, read it with "
    "pinchtab_snapshot (interactive=true, compact=true: each element has a ref like e5), act with "
    "pinchtab_click / pinchtab_fill / pinchtab_press on a ref, and take a new snapshot after each "
    "action: refs of an old snapshot may be gone. pinchtab_find finds an element by description."
)


def pinchtab_toolset(command: Sequence[str] = ("pinchtab", "mcp")) -> MCPToolset:
    """pinchtab's MCP tools (pinchtab_navigate, pinchtab_snapshot, ...) as a pydantic-ai toolset."""
    # A generous first answer: on a busy machine a Python process takes seconds to start.
    return MCPToolset(StdioTransport(command=command[0], args=list(command[1:])), init_timeout=30)


def scripted_browsing(url: str) -> FunctionModel:
    """A model with no LLM behind it: navigate to ``url``, snapshot that tab, answer the snapshot."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not returns:
            return ModelResponse(parts=[ToolCallPart("pinchtab_navigate", {"url": url})])
        navigated = returns[0].content  # the tool's JSON answer, parsed by pydantic-ai; text if it failed
        if not isinstance(navigated, dict) or "tabId" not in navigated:
            return ModelResponse(parts=[TextPart(f"pinchtab_navigate failed: {navigated}")])
        if len(returns) == 1:
            tab = navigated["tabId"]
            return ModelResponse(parts=[ToolCallPart("pinchtab_snapshot",
                                                     {"tabId": tab, "interactive": True, "compact": True})])
        return ModelResponse(parts=[TextPart(str(returns[-1].content))])

    return FunctionModel(respond)


def make_agent(model: object, toolset: MCPToolset) -> Agent:
    return Agent(model, toolsets=[toolset], instructions=INSTRUCTIONS)  # type: ignore[arg-type]


async def run(task: str, model: object, command: Sequence[str] = ("pinchtab", "mcp")) -> str:
    toolset = pinchtab_toolset(command)
    async with toolset:  # one `pinchtab mcp` process for the whole run
        result = await make_agent(model, toolset).run(task)
    return str(result.output)


def main(argv: list[str]) -> None:
    args, command = (argv[: argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, ["pinchtab", "mcp"])
    if args[:1] == ["--check"] and len(args) == 2:
        print(asyncio.run(run(f"Snapshot {args[1]}", scripted_browsing(args[1]), command)))
    elif len(args) == 1:
        print(asyncio.run(run(args[0], MODEL, command)))
    else:
        sys.exit(f"usage: {sys.argv[0]} TASK | --check URL [-- MCP COMMAND...]")

if __name__ == "__main__":
    main(sys.argv[1:])
