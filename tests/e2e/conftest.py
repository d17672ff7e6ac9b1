from collections.abc import Iterator
from typing import Any

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


OBS_SECURITY = {"allowEvaluate": True, "allowCookies": True, "allowNetworkIntercept": True, "allowStateExport": True}


def start_obs_bridge(state_dir: str) -> Any:
    """A bridge with evaluate, cookies, network interception and state export on, saving under ``state_dir``."""
    from pinchtab.bridge.app import create_app
    from pinchtab.config import load_config
    from tests.conftest import ServerThread
    from tests.fixtures.harness import free_port

    config = load_config({"security": OBS_SECURITY, "server": {"stateDir": state_dir}}, environ={})
    return ServerThread(create_app(config), free_port())


@pytest.fixture(scope="module")
def obs(bridge: str, bridge_config: Any) -> Iterator["httpx.Client"]:
    """A client of the observation tests' bridge: the session bridge with network interception and
    state export on for the module (a bridge of its own started a Chromium on each worker)."""
    import httpx

    with pytest.MonkeyPatch.context() as patch, httpx.Client(base_url=bridge, timeout=60) as client:
        for name in ("allow_evaluate", "allow_cookies", "allow_network_intercept", "allow_state_export"):
            patch.setattr(bridge_config.security, name, True)
        yield client


@pytest.fixture(scope="module")
def obs_state_dir(bridge_config: Any) -> str:
    """Where ``obs`` saves its files (a fresh bridge given it reads what ``obs`` saved)."""
    return str(bridge_config.server.state_dir)
