"""The MCP tool definitions: schema and validation from one argument list, and the error texts."""

from __future__ import annotations

import pydantic
import pytest

from pinchtab.client import PinchtabClientError
from pinchtab.mcp.tools import INVALID_URL, TOOLS, ToolInputError, argument_model, error_fields, error_text, input_schema
from pinchtab.mcp.tools import check_url as _check_url

BY_NAME = {t.name: t for t in TOOLS}


def test_uniquely_named_tools() -> None:
    assert len(TOOLS) == len(BY_NAME) == 53
    assert all(name.startswith("pinchtab_") for name in BY_NAME)


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_schema_and_validation_agree(tool) -> None:
    schema, model = input_schema(tool), argument_model(tool)
    assert set(schema["properties"]) == set(model.model_fields)
    assert set(schema.get("required", [])) == {n for n, f in model.model_fields.items() if f.is_required()}
    if tool.required:
        with pytest.raises(pydantic.ValidationError):
            model.model_validate({})
    args = model.model_validate({n: _sample(schema["properties"][n]) for n in tool.required})
    assert set(args.model_dump()) == set(schema["properties"])  # absent optionals arrive as None


def _sample(prop: dict):
    # A choice is validated as one (the request model's Literal): its first value is the sample.
    if "enum" in prop:
        return prop["enum"][0]
    return {"string": "x", "number": 1.0, "boolean": True}[prop["type"]]


def test_limits_come_from_the_http_models() -> None:
    quality = input_schema(BY_NAME["pinchtab_screenshot"])["properties"]["quality"]
    assert (quality["type"], quality["minimum"], quality["maximum"]) == ("number", 0, 100)
    scale = input_schema(BY_NAME["pinchtab_pdf"])["properties"]["scale"]
    assert (scale["minimum"], scale["maximum"]) == (0.1, 2.0)
    with pytest.raises(pydantic.ValidationError):
        argument_model(BY_NAME["pinchtab_screenshot"]).model_validate({"quality": 101})


def test_navigate_accepts_only_http_urls() -> None:
    assert _check_url(" https://example.com ") == "https://example.com"
    assert _check_url("HTTP://EXAMPLE.COM") == "HTTP://EXAMPLE.COM"
    for bad in ("file:///etc/passwd", "javascript:alert(1)", "data:,x", "example.com", "about:blank", "ftp://x"):
        with pytest.raises(ToolInputError, match=f"^{INVALID_URL}$"):
            _check_url(bad)


def test_error_texts_start_as_the_spec_says() -> None:
    def err(status: int, code: str, message: str = "detail") -> str:
        return error_text(PinchtabClientError(message, code, status=status))

    # The real status (issue 24): PinchTab's spec reads "HTTP 500" where our HTTP API answers 404.
    assert err(404, "ref_not_found", "ref e5 not found") == "HTTP 404: ref not found (ref e5 not found)"
    assert err(404, "stale_ref").startswith("HTTP 404: ref not found (")
    assert err(403, "evaluate_disabled").startswith("HTTP 403: evaluate not allowed (")
    assert err(0, "server_unreachable", "Connection refused: no server").startswith("Connection refused")
    assert err(0, "server_unreachable", "boom").startswith("Connection refused")
    assert err(404, "tab_not_found", "tab X not found") == "HTTP 404: tab X not found"
    assert err(0, "timeout", "no answer in time") == "no answer in time"
    assert error_fields(PinchtabClientError("ref e5 not found", "ref_not_found", status=404)) == {
        "status": 404, "code": "ref_not_found", "error": "ref e5 not found"}
