import socket

import pytest

from pinchtab.errors import NotReady
from pinchtab.server.ports import PortAllocator, port_is_free


def test_allocates_from_start_and_skips_taken():
    busy = {9869}
    ports = PortAllocator(9868, is_free=lambda p: p not in busy, avoid=[9870])
    assert ports.allocate() == 9868
    assert ports.allocate() == 9871  # 9869 in use elsewhere, 9870 is the server's own port
    ports.release(9868)
    assert ports.allocate() == 9868
    assert ports.allocate(skip=[9872]) == 9873


def test_exhausted_range_raises():
    ports = PortAllocator(9868, is_free=lambda p: False, span=5)
    with pytest.raises(NotReady) as exc:
        ports.allocate()
    assert exc.value.code == "no_free_port"


def test_port_is_free_sees_a_listener():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert not port_is_free(port)
    ports = PortAllocator(port)
    assert ports.allocate() >= port
