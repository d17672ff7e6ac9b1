"""snap's answer through MCP for a page the session has seen: what changed since its last view
(issue 24), and an action's answer without its echo of the request."""

from pinchtab.client import AsyncClient
from pinchtab.mcp.tools import views
from pinchtab.mcp.tools.actions import news

PAGE = ('# Drafts | http://h/d.html | 7 nodes\ne11 heading "Drafts"\n e14 "Quarterly report"\n'
        ' e15 button "Delete draft" [focused]\ne16 status "1 draft"\n')


def test_a_diff_shows_new_lines_and_names_the_refs_gone() -> None:
    before = PAGE.splitlines()[1:]
    after = ['e11 heading "Drafts"', 'e16 status "Draft deleted"']
    assert views.diff_lines(before, after) == ['+ e16 status "Draft deleted"', "# focus: none", "- e14 e15"]


def test_a_row_is_drawn_again_and_text_rows_that_went_are_given() -> None:
    before = [" # 2 rows, each: text | checkbox", " Order 1 | e5 [ ] Select 1", " Order 2 | e6 [ ] Select 2", " Total 2"]
    after = [" # 2 rows, each: text | checkbox", " Order 1 | e5 [x] Select 1", " Order 2 | e6 [ ] Select 2"]
    assert views.diff_lines(before, after) == ["+  Order 1 | e5 [x] Select 1", "- Total 2"]


def test_a_change_of_focus_alone_is_one_line() -> None:
    before = ['e19 Iframe "Signup" url="http://h/f.html"', ' e21 textbox "Email" [focused]']
    after = ['e19 Iframe "Signup" url="http://h/f.html" [focused]', ' e21 textbox "Email"']
    assert views.diff_lines(before, after) == ["# focus: e19"]


def test_snap_answers_the_outline_first_then_what_changed_on_the_same_tab_and_url() -> None:
    c = AsyncClient("http://127.0.0.1:1")
    assert views.since_seen(c, None, PAGE) == PAGE.replace(" | 7 nodes", "")  # first view: the outline
    after = PAGE.replace('"1 draft"', '"Draft deleted"').replace(" | 7 nodes", " | 7 nodes")
    assert views.since_seen(c, None, after) == '# diff\n+ e16 status "Draft deleted"\n'
    assert views.since_seen(c, None, after) == "# no change since the last view\n"
    # another tab, or another URL in the tab: the outline again
    assert views.since_seen(c, "T2", after).startswith("# Drafts | http://h/d.html\n")
    other = after.replace("http://h/d.html", "http://h/e.html")
    assert views.since_seen(c, "T2", other).startswith("# Drafts | http://h/e.html\n")
    views.forget(c)
    assert views.since_seen(c, "T2", other).startswith("# Drafts")


def test_a_diff_longer_than_the_outline_is_the_outline() -> None:
    c = AsyncClient("http://127.0.0.1:1")
    views.remember(c, None, '# A | http://h/ | 2 nodes\ne1 button "Go"\ne2 button "Stop"\n')
    fresh = '# A | http://h/ | 1 nodes\ne9 button "Go"\n'
    assert views.since_seen(c, None, fresh) == '# A\ne9 button "Go"\n'  # the URL it has seen goes


def test_an_answer_with_a_page_after_it_drops_the_echo_and_keeps_news() -> None:
    assert news({"success": True, "kind": "click", "ref": "e5"}) == {}
    dialog = {"type": "confirm", "message": "Sure?", "action": "accept"}
    assert news({"success": True, "kind": "click", "ref": "e5", "dialog": dialog}) == {"dialog": dialog}
    assert news({"tabId": "T1", "url": "http://h/", "title": "A"}) == {"tabId": "T1"}
    batch = {"success": True, "results": [{"success": True, "kind": "fill", "ref": "e3"},
                                          {"success": True, "kind": "select", "ref": "e5", "result": {"value": "Pro"}}]}
    assert news(batch) == {}
    failed = {"results": [{"index": 0, "success": False, "error": "boom"}], "total": 1, "successful": 0, "failed": 1}
    assert news(failed) == failed


def test_a_select_result_and_a_dialog_url_go_with_a_page_after_them() -> None:
    batch = {"success": True, "results": [{"success": True, "kind": "select", "ref": "e5", "result": {"value": "Pro"}}]}
    assert news(batch) == {}
    dialog = {"type": "alert", "message": "Hi", "url": "http://h/", "action": "accept"}
    assert news({"success": True, "dialog": dialog}) == {"dialog": {"type": "alert", "message": "Hi", "action": "accept"}}


def test_the_header_leaves_out_the_url_asked_for() -> None:
    assert views.without_url("# A | http://h/x\ne1 button \"Go\"\n", "http://h/x") == "# A\ne1 button \"Go\"\n"
    assert views.without_url("# A | http://h/y\n", "http://h/x") == "# A | http://h/y\n"
