"""Close candidates told apart by the query's words that are rare among them
(find.passes.distinct_words)."""

from pinchtab.find import find

APP = "Authentication and Authorization"
# a dual list box of permissions: options that share all but a word or two
PERMISSIONS = [
    {"ref": "e0", "role": "link", "name": "Users"},
    {"ref": "e1", "role": "link", "name": "Groups"},
    {"ref": "e2", "role": "listbox", "name": "Available permissions"},
    *({"ref": f"e{3 + k}", "role": "option", "name": f"{APP} | {model} | Can {verb} {model}"}
      for k, (model, verb) in enumerate((m, v) for m in ("group", "permission", "user")
                                        for v in ("add", "change", "delete", "view"))),
    {"ref": "e20", "role": "button", "name": "Choose all permissions"},
    {"ref": "e21", "role": "button", "name": "Remove all permissions"},
]


def _name(ref):
    return next(e["name"] for e in PERMISSIONS if e["ref"] == ref)


def test_the_rare_words_pick_the_option_over_a_short_name_holding_a_common_one():
    r = find("can view user", PERMISSIONS)
    assert _name(r["best_ref"]).endswith("| user | Can view user")


def test_a_word_every_candidate_holds_does_not_decide():
    r = find("permission to delete groups", PERMISSIONS)
    assert _name(r["best_ref"]).endswith("| group | Can delete group")


def test_a_single_word_query_and_a_lone_candidate_are_left_alone():
    assert find("users", PERMISSIONS)["best_ref"] == "e0"
    assert find("choose all permissions", PERMISSIONS)["best_ref"] == "e20"
