"""Every action tool and pinchtab_navigate take snap and snapDiff (issue 24), and an answer that
carries a snapshot reads as its JSON line, then the snapshot as text."""

from pinchtab.mcp.tools import TOOLS, input_schema
from pinchtab.mcp.tools.actions import with_snapshot


def test_action_tools_and_navigate_take_snap() -> None:
    by_name = {t.name: t for t in TOOLS}
    for name in ("pinchtab_navigate", "pinchtab_click", "pinchtab_fill", "pinchtab_select", "pinchtab_type",
                 "pinchtab_press", "pinchtab_scroll", "pinchtab_drag"):
        props = input_schema(by_name[name])["properties"]
        assert "snap" in props and "snapDiff" in props, name


def test_a_snapshot_is_text_after_the_json() -> None:
    out = with_snapshot({"success": True, "kind": "click", "snapshot": "# Login | http://h/ | 2 nodes\ne0:button \"Go\""})
    assert out == '{"success":true,"kind":"click"}\n# Login | http://h/ | 2 nodes\ne0:button "Go"'
    assert with_snapshot({"success": True}) == {"success": True}
