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


@pytest.fixture(scope="session")
def obs_state_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("obs-state"))


@pytest.fixture(scope="session")
def obs(obs_state_dir: str) -> Iterator["httpx.Client"]:
    """A client of the observation tests' bridge."""
    import httpx

    with start_obs_bridge(obs_state_dir) as server:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            yield client
