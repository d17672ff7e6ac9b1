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
    assert views.diff_lines(before, after) == ['+e16 status "Draft deleted"', "# focus: none", "-e14 e15"]


def test_a_row_is_drawn_again_and_text_rows_that_went_are_given() -> None:
    before = [" # 2 rows, each: text|checkbox", " Order 1|e5 [ ] Select 1", " Order 2|e6 [ ] Select 2", " Total 2"]
    after = [" # 2 rows, each: text|checkbox", " Order 1|e5 [x] Select 1", " Order 2|e6 [ ] Select 2"]
    assert views.diff_lines(before, after) == ["+Order 1|e5 [x] Select 1", "-Total 2"]


def test_a_change_of_focus_alone_is_one_line() -> None:
    before = ['e19 Iframe "Signup" url="http://h/f.html"', ' e21 textbox "Email" [focused]']
    after = ['e19 Iframe "Signup" url="http://h/f.html" [focused]', ' e21 textbox "Email"']
    assert views.diff_lines(before, after) == ["# focus: e19"]


def test_snap_answers_the_outline_first_then_what_changed_on_the_same_tab_and_url() -> None:
    c = AsyncClient("http://127.0.0.1:1")
    assert views.since_seen(c, None, PAGE) == PAGE.replace(" | 7 nodes", "")  # first view: the outline
    after = PAGE.replace('"1 draft"', '"Draft deleted"').replace(" | 7 nodes", " | 7 nodes")
    assert views.since_seen(c, None, after) == '# diff\n+e16 status "Draft deleted"\n'
    assert views.since_seen(c, None, after) == "# no change since the last view\n"
    # another tab, or another URL in the tab: the outline again
    assert views.since_seen(c, "T2", after).startswith("# Drafts | http://h/d.html\n")
    other = after.replace("http://h/d.html", "http://h/e.html")
    assert views.since_seen(c, "T2", other).startswith("# Drafts | /e.html\n")  # on the origin it saw
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
    # a step that navigated names the page; the outline's header names the one the batch ended on
    batch = {"success": True, "results": [{"success": True, "kind": "click", "ref": "e3", "url": "http://h/b",
                                           "title": "B"}]}
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
    assert views.without_url('{"tabId":"T9"}\n# A | http://h/x\n', "http://h/x") == '{"tabId":"T9"}\n# A\n'


def test_more_rows_are_their_lines_without_the_runs_new_count() -> None:
    before = ['e1 heading "Inbox"', "# 2 listitems, each: text|button", "Message 1|e2 Open 1", "Message 2|e3 Open 2",
              'e4 button "Load more" [focused]']
    after = ['e1 heading "Inbox"', "# 3 listitems, each: text|button", "Message 1|e2 Open 1", "Message 2|e3 Open 2",
             "Message 3|e5 Open 3", 'e4 button "Load more" [focused]']
    assert views.diff_lines(before, after) == ["+Message 3|e5 Open 3"]
    # rows of another kind are news: their header comes with them
    other = [*after[:-1], "# 2 rows, each: text|link", "A|e6 a", "B|e7 b"]
    assert views.diff_lines(after, other)[:2] == ["+# 2 rows, each: text|link", "+A|e6 a"]


def test_new_lines_are_indented_from_their_least_indented() -> None:
    before = ['e1 button "Open"']
    after = ['e1 button "Open"', 'e2 dialog "Settings"', ' e3 checkbox [ ] "Dark"', '  e4 "hint"', "   e5 link \"More\""]
    assert views.diff_lines(before, after) == ['+e2 dialog "Settings"', '+ e3 checkbox [ ] "Dark"', '+  e4 "hint"',
                                               '+   e5 link "More"']
    nested = ['e0 Iframe "F"', ' e1 textbox "Email"', ' e2 button "Go"']
    assert views.diff_lines(nested[:2], nested) == ['+e2 button "Go"']


def test_focus_going_where_the_step_acted_is_not_news() -> None:
    before = ['e19 Iframe "Signup" url="/f.html"', ' e21 textbox "Email"', ' e22 button "Send"']
    sent = ['e19 Iframe "Signup" url="/f.html" [focused]', ' e23 "Thanks"']
    # the button it clicked went, and focus is on the frame that held it
    assert views.diff_lines(before, sent, acted={"e22"}) == ['+e23 "Thanks"', "-e21 e22"]
    assert views.diff_lines(before, sent) == ['+e23 "Thanks"', "# focus: e19", "-e21 e22"]
    moved = ['e1 button "Open" [focused]', 'e2 button "Save"']
    assert views.diff_lines(['e1 button "Open"', 'e2 button "Save" [focused]'], moved, acted={"e2"}) == ["# focus: e1"]
    # a card's row: focus on the card whose button it pressed
    cards = ['e5 article "Ana": Hi|e6 Like', 'e7 article "Ben": Yo|e8 Like']
    liked = ['e5 article "Ana": Hi|e6 Like [pressed]', 'e7 article "Ben": Yo|e8 Like']
    assert views.diff_lines(cards, [cards[0].replace('"Ana"', '"Ana" [focused]'), cards[1]], acted={"e6"}) == []
    assert views.diff_lines(cards, liked, acted={"e6"}) == ['+e5 article "Ana": Hi|e6 Like [pressed]']


def test_a_new_page_on_the_origin_seen_reads_from_its_path() -> None:
    c = AsyncClient("http://127.0.0.1:1")
    views.remember(c, None, PAGE)
    cart = '# Cart | http://h/cart.html?item=mug | 3 nodes\ne30 link "Checkout"\n'
    assert views.since_seen(c, None, cart) == '# Cart | /cart.html?item=mug\ne30 link "Checkout"\n'
    away = '# Pay | https://pay.example/x | 3 nodes\ne31 button "Pay"\n'
    assert views.since_seen(c, None, away) == '# Pay | https://pay.example/x\ne31 button "Pay"\n'
    assert views.without_url("# Cart | /cart.html\n", "http://h/cart.html") == "# Cart\n"


def test_the_dialog_action_the_agent_sent_is_not_echoed() -> None:
    dialog = {"type": "confirm", "message": "Sure?", "action": "accept"}
    assert news({"dialog": dialog}, "accept") == {"dialog": {"type": "confirm", "message": "Sure?"}}
    assert news({"dialog": dialog}, "dismiss") == {"dialog": dialog}  # not what it asked: news
    assert news({"dialog": dialog}) == {"dialog": dialog}  # answered by the server's policy
