"""A cell named by its row and its column (find.passes.row_column)."""

from pinchtab.find import find

USERS = [
    {"ref": "e0", "role": "table", "name": "", "depth": 0},
    {"ref": "e1", "role": "row", "name": "", "depth": 1},
    {"ref": "e2", "role": "link", "name": "Name", "depth": 2, "parent": "Name Email Country"},
    {"ref": "e3", "role": "link", "name": "Email", "depth": 2, "parent": "Name Email Country"},
    {"ref": "e4", "role": "row", "name": "", "depth": 1},
    {"ref": "e5", "role": "cell", "name": "Chen Wei", "depth": 2, "parent": "Chen Wei chen@example.com CN", "column": "Name"},
    {"ref": "e6", "role": "cell", "name": "chen@example.com", "depth": 2, "parent": "Chen Wei chen@example.com CN",
     "column": "Email"},
    {"ref": "e7", "role": "row", "name": "", "depth": 1},
    {"ref": "e8", "role": "cell", "name": "Bob Tanaka", "depth": 2, "parent": "Bob Tanaka bob@example.com JP", "column": "Name"},
    {"ref": "e9", "role": "cell", "name": "bob@example.com", "depth": 2, "parent": "Bob Tanaka bob@example.com JP",
     "column": "Email"},
    {"ref": "e10", "role": "cell", "name": "Ann Lee 2", "depth": 2, "parent": "Beloved Ann Lee 2", "column": "author_id"},
    {"ref": "e11", "role": "link", "name": "Ann Lee", "depth": 3, "parent": "Beloved Ann Lee 2", "column": "author_id"},
    {"ref": "e12", "role": "cell", "name": "Beloved", "depth": 2, "parent": "Beloved Ann Lee 2", "column": "title"},
]


def test_the_cell_under_the_column_in_the_named_row():
    assert find("email of Chen Wei", USERS)["best_ref"] == "e6"
    assert find("bob's email", USERS)["best_ref"] == "e9"


def test_a_control_in_the_cell_before_the_cell():
    assert find("author of Beloved", USERS)["best_ref"] == "e11"


def test_every_query_word_must_be_placed():
    # a column alone, or words neither the column nor a row holds, are not a cell request
    assert find("email", USERS)["best_ref"] in ("e3", "")
    assert find("sort by email", USERS)["best_ref"] != "e6"


def test_a_control_of_the_row_naming_the_action_stays_first():
    orders = [
        {"ref": "e0", "role": "link", "name": "#1002", "parent": "#1002 Bilal Pending Fulfill", "column": "Order"},
        {"ref": "e1", "role": "cell", "name": "Pending", "parent": "#1002 Bilal Pending Fulfill", "column": "Payment"},
        {"ref": "e2", "role": "button", "name": "Fulfill", "parent": "#1002 Bilal Pending Fulfill", "column": "Actions"},
    ]
    assert find("fulfill the pending order", orders)["best_ref"] == "e2"


def test_a_cell_does_not_name_its_own_row():
    # the sidebar's "Groups" link in the "Model name" column is not the "group name" field
    page = [
        {"ref": "e0", "role": "link", "name": "Groups", "parent": "Groups Add", "column": "Model name"},
        {"ref": "e1", "role": "textbox", "name": "Name:", "heading": "Add group"},
    ]
    assert find("group name", page)["best_ref"] == "e1"


def test_a_field_under_a_column_by_its_own_words():
    page = [
        {"ref": "e0", "role": "tab", "name": "By product"},
        {"ref": "e1", "role": "textbox", "name": "filter data...", "column": "Region"},
        {"ref": "e2", "role": "textbox", "name": "filter data...", "column": "Product"},
    ]
    assert find("filter by product", page)["best_ref"] == "e2"


def test_a_row_named_by_its_text_is_its_first_link():
    rows = [
        {"ref": "e0", "role": "link", "name": "4", "parent": "4 Beloved Toni Morrison"},
        {"ref": "e1", "role": "cell", "name": "Beloved", "parent": "4 Beloved Toni Morrison", "column": "title"},
        {"ref": "e2", "role": "link", "name": "5", "parent": "5 Invisible Cities Italo Calvino"},
        {"ref": "e3", "role": "cell", "name": "Invisible Cities", "parent": "5 Invisible Cities Italo Calvino",
         "column": "title"},
    ]
    assert find("Invisible Cities row", rows)["best_ref"] == "e2"
