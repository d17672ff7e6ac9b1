"""find: context the live snapshot supplies beyond section/parent (repeated items, input types)."""

from __future__ import annotations

from pinchtab.browser.page.nodes import Node
from pinchtab.browser.page.snapshot import parse_walker_result
from pinchtab.find import ElementIndex, build_descriptors, find


def test_to_element_passes_item_and_input_type() -> None:
    node = Node(ref="e3", role="button", name="Reply", depth=2, backend_id=7,
                item="Gary P. 45m ago Three years is too slow.", input_type=None)
    el = node.to_element()
    assert el["item"] == "Gary P. 45m ago Three years is too slow."
    assert "type" not in el
    date = Node(ref="e4", role="textbox", name="Depart", depth=1, backend_id=8, input_type="date")
    assert date.to_element()["type"] == "date"


def test_item_and_type_stay_out_of_the_api_shape() -> None:
    node = Node(ref="e3", role="button", name="Reply", depth=2, backend_id=7, item="Gary P.", input_type="date")
    assert "item" not in node.to_json() and "type" not in node.to_json()


def test_walker_records_item_and_type() -> None:
    import json

    page = {"url": "u", "title": "t", "nodes": [
        {"r": "button", "n": "Reply", "d": 1, "i": "Gary P. 45m ago"},
        {"r": "textbox", "n": "Depart", "d": 1, "ty": "date"},
    ]}
    result = {"deepSerializedValue": {"value": [{"value": json.dumps(page)}, {"value": []}]}}
    _, nodes = parse_walker_result(result)
    assert nodes[0].item == "Gary P. 45m ago" and nodes[1].input_type == "date"


COMMENTS = [
    {"ref": "e0", "role": "heading", "name": "Comments (3)"},
    {"ref": "e1", "role": "text", "name": "RiversideRider", "parent": "Comments"},
    {"ref": "e2", "role": "button", "name": "Reply", "parent": "Comments", "item": "RiversideRider 2h ago Finally!"},
    {"ref": "e3", "role": "text", "name": "Gary P.", "parent": "Comments"},
    {"ref": "e4", "role": "button", "name": "Reply", "parent": "Comments", "item": "Gary P. 45m ago Too slow."},
    {"ref": "e5", "role": "text", "name": "Anne W.", "parent": "Comments"},
    {"ref": "e6", "role": "button", "name": "Reply", "parent": "Comments", "item": "Anne W. 10m ago Plowed?"},
]


def test_descriptor_keeps_item() -> None:
    d = build_descriptors(COMMENTS)[4]
    assert d.item == "Gary P. 45m ago Too slow."
    assert "item: Gary P." in d.composite


def test_item_text_locates_a_repeated_button() -> None:
    assert find("reply to Gary", COMMENTS)["best_ref"] == "e4"
    assert find("reply to Anne's comment", COMMENTS)["best_ref"] == "e6"


def test_input_type_names_a_field() -> None:
    els = [
        {"ref": "e0", "role": "checkbox", "name": "My dates are flexible", "checked": False},
        {"ref": "e1", "role": "textbox", "name": "From"},
        {"ref": "e2", "role": "textbox", "name": "Depart", "type": "date"},
    ]
    assert ElementIndex(els).find("departure date")["best_ref"] == "e2"


def test_modal_dialog_flag_reaches_find_only() -> None:
    node = Node(ref="e2", role="dialog", name="We value your privacy", depth=0, backend_id=3, modal=True)
    assert node.to_element()["modal"] is True
    assert "modal" not in node.to_json()
