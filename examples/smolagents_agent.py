"""pinchtab's browser tools in a smolagents agent, through MCP (`pinchtab mcp` over stdio).

    pip install "smolagents[mcp,litellm]"   # its MCP adapter (mcpadapt) needs mcp<2, pinchtab mcp>=2:
    pipx install /path/to/pinchtab           # so pinchtab goes into its own environment, on PATH
    export OPENAI_API_KEY=...    # or your provider's key (LiteLLM model names)
    python examples/smolagents_agent.py "What is the top story on https://news.ycombinator.com?"

Check the wiring first, with no model and no key: call pinchtab_navigate and pinchtab_snapshot
through smolagents' own Tool objects:

    python examples/smolagents_agent.py --check https://example.com
    python examples/smolagents_agent.py --check https://example.com -- /path/to/python -m pinchtab mcp
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from mcp import StdioServerParameters
from smolagents import MCPClient, Tool, ToolCallingAgent

# Your model, as LiteLLM names it: "gpt-5", "anthropic/claude-sonnet-4-5", "ollama_chat/qwen3", ...
MODEL = os.environ.get("PINCHTAB_AGENT_MODEL", "gpt-5")

INSTRUCTIONS = (
    "You browse with the pinchtab tools. Open a page with pinchtab_navigate, read it with "
    "pinchtab_snapshot (interactive=true, compact=true: each element has a ref like e5), act with "
    "pinchtab_click / pinchtab_fill / pinchtab_press on a ref, and take a new snapshot after each "
    "action: refs of an old snapshot may be gone. pinchtab_find finds an element by description."
)


def pinchtab_params(command: Sequence[str] = ("pinchtab", "mcp")) -> StdioServerParameters:
    return StdioServerParameters(command=command[0], args=list(command[1:]), env=dict(os.environ))


def as_data(answer: Any) -> Any:
    return json.loads(answer) if isinstance(answer, str) else answer


def check(url: str, command: Sequence[str]) -> dict[str, Any]:
    with MCPClient(pinchtab_params(command), structured_output=True) as tool_list:
        tools: dict[str, Tool] = {tool.name: tool for tool in tool_list}
        navigated = as_data(tools["pinchtab_navigate"](url=url))
        snapshot = tools["pinchtab_snapshot"](tabId=navigated["tabId"], interactive=True, compact=True)
    return {"tools": sorted(tools), "navigate": navigated, "snapshot": str(snapshot)}


def run(task: str, command: Sequence[str]) -> str:
    from smolagents import LiteLLMModel  # needs smolagents[litellm]; --check does not

    with MCPClient(pinchtab_params(command), structured_output=True) as tool_list:
        # ToolCallingAgent: JSON tool calls, one per step (a CodeAgent writes Python that calls them).
        agent = ToolCallingAgent(tools=list(tool_list), model=LiteLLMModel(model_id=MODEL), instructions=INSTRUCTIONS)
        return str(agent.run(task))


def main(argv: list[str]) -> None:
    args, command = (argv[: argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, ["pinchtab", "mcp"])
    if args[:1] == ["--check"] and len(args) == 2:
        print(json.dumps(check(args[1], command)))
    elif len(args) == 1:
        print(run(args[0], command))
    else:
        sys.exit(f"usage: {sys.argv[0]} TASK | --check URL [-- MCP COMMAND...]")


if __name__ == "__main__":
    main(sys.argv[1:])
