"""The server's /openapi.json documents the proxied bridge routes with the bridge's own models."""

from pinchtab.config import load_config
from pinchtab.server.app import create_app


def test_server_openapi_has_its_routes_and_the_bridge_routes() -> None:
    spec = create_app(load_config(environ={}), default_instance=False).openapi()
    paths = spec["paths"]
    for own in ("/profiles", "/instances", "/instances/start", "/health", "/tabs"):
        assert own in paths
    for proxied in ("/navigate", "/snapshot", "/find", "/action", "/tabs/{tab_id}/find", "/tabs/{tab_id}/snapshot"):
        assert proxied in paths
    body = paths["/tabs/{tab_id}/find"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/FindRequest"}
    assert "query" in spec["components"]["schemas"]["FindRequest"]["properties"]
    assert "/browser/restart" not in paths
    # PinchTab's per-instance forms of the CLI's --profile and --cookie runs: POST only, with the instance id.
    run = paths["/instances/{instance_id}/audit"]["post"]
    assert run["operationId"] == "audit_instance_post" and run["parameters"][0]["name"] == "instance_id"
    assert set(paths["/instances/{instance_id}/cookies"]) == {"post"} and "/instances/{instance_id}/navigate" not in paths
