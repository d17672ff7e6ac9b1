from pinchtab.server.tab_owners import PER_INSTANCE, SHORTHAND_ROUTES, TabOwners, closes_tab, tab_id_in_request, tab_id_in_response


def test_table_learns_forgets_and_replaces():
    routes = TabOwners()
    routes.learn("A", "inst_1")
    routes.learn("B", "inst_1")
    routes.learn("C", "inst_2")
    assert routes.owner("A") == "inst_1" and routes.owner("C") == "inst_2" and routes.owner("Z") is None
    routes.forget("A")
    assert routes.owner("A") is None
    routes.replace_instance("inst_1", ["D", "E"])
    assert sorted(routes.tabs_of("inst_1")) == ["D", "E"] and routes.owner("B") is None
    routes.learn("C", "inst_1")  # a tab id can only live in one instance: the latest answer wins
    assert routes.owner("C") == "inst_1"
    routes.forget_instance("inst_1")
    assert len(routes) == 0


def test_tab_id_from_query_then_body():
    assert tab_id_in_request(b"tabId=T1&format=text", b"") == "T1"
    assert tab_id_in_request(b"", b'{"url":"x","tabId":"T2"}') == "T2"
    assert tab_id_in_request(b"tabId=T1", b'{"tabId":"T2"}') == "T1"
    assert tab_id_in_request(b"", b'{"url":"x"}') is None
    assert tab_id_in_request(b"", b"{broken") is None
    assert tab_id_in_request(b"", b'{"tabId":""}') is None
    assert tab_id_in_request(b"", b'{"tabId":5}') is None
    assert tab_id_in_request(b"", b'["tabId"]') is None
    assert tab_id_in_request(b"tabId=", b"") is None


def test_tab_id_from_small_responses_only():
    assert tab_id_in_response(b'{"tabId":"T","url":"u"}') == "T"
    assert tab_id_in_response(b'{"url":"u"}') is None
    big = b'{"tabId":"T","nodes":"' + b"x" * 100_000 + b'"}'
    assert tab_id_in_response(big) is None
    assert tab_id_in_response(b"not json tabId") is None


def test_closes_tab():
    assert closes_tab("close", 200, b'{"closed":true,"tabId":"T"}')
    assert closes_tab("tab", 200, b'{"closed":true,"tabId":"T"}')
    assert not closes_tab("tab", 200, b'{"tabId":"T","url":"about:blank"}')
    assert not closes_tab("close", 404, b'{"closed":true}')


def test_shorthand_routes_cover_the_bridge_api():
    for path in ("/navigate", "/snapshot", "/find", "/action", "/actions", "/text", "/screenshot", "/pdf",
                 "/evaluate", "/cookies", "/wait", "/tab", "/close", "/back", "/forward", "/reload"):
        assert path in SHORTHAND_ROUTES


def test_deeply_nested_bodies_are_left_to_the_bridge() -> None:
    # Issue 16: the server answered 500 RecursionError to 1,000-deep JSON.
    from pinchtab.server.tab_owners import tab_id_in_request, tab_id_in_response

    deep = b'{"tabId":"T","x":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert tab_id_in_request(b"", deep) is None
    assert tab_id_in_response(b'{"tabId":"T","x":' + b"[" * 10_000 + b"]" * 10_000 + b"}") is None


def test_routes_served_per_instance_are_pinchtabs_cli_run_routes():
    assert PER_INSTANCE == {"tab": ("POST",), "close": ("POST",), "cookies": ("POST",), "audit": ("POST",),
                            "scrape": ("POST",)}
