from collections.abc import Iterator

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def obs() -> Iterator["httpx.Client"]:
    """A bridge with evaluate, network interception and state export on (observation tests)."""
    import httpx

    from tests.conftest import start_bridge

    with start_bridge(allowEvaluate=True, allowNetworkIntercept=True, allowStateExport=True) as server:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            yield client
