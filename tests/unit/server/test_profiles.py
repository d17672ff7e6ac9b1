import json
import re

import pytest

from pinchtab.errors import BadRequest, Conflict, NotFound
from pinchtab.server.profiles import ProfileStore


def test_create_list_get_and_persist(tmp_path):
    store = ProfileStore(tmp_path)
    work = store.create("work", "work account")
    assert re.fullmatch(r"prof_[0-9a-f]{8}", work.id)
    assert work.name == "work" and work.description == "work account"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", work.createdAt)
    assert (tmp_path / "profiles" / work.id).is_dir()
    home = store.create("home")
    assert [p.name for p in store.list()] == ["work", "home"]
    assert store.get(work.id) is work
    assert store.get("home") is home  # by name too

    again = ProfileStore(tmp_path)  # the index survives a restart
    assert {(p.id, p.name, p.description) for p in again.list()} == {(work.id, "work", "work account"), (home.id, "home", "")}
    index = json.loads((tmp_path / "profiles" / "index.json").read_text())
    assert "path" not in index["profiles"][0]


def test_duplicate_name_conflicts(tmp_path):
    store = ProfileStore(tmp_path)
    store.create("work")
    with pytest.raises(Conflict) as exc:
        store.create(" work ")
    assert exc.value.status == 409 and exc.value.code == "profile_exists"


@pytest.mark.parametrize("name", ["", "   ", None, 5, "x" * 65])
def test_bad_names(tmp_path, name):
    with pytest.raises(BadRequest):
        ProfileStore(tmp_path).create(name)


def test_delete_removes_dir_and_entry(tmp_path):
    store = ProfileStore(tmp_path)
    p = store.create("gone")
    (tmp_path / "profiles" / p.id / "Cookies").write_text("x")
    store.delete(p.id)
    assert not (tmp_path / "profiles" / p.id).exists()
    assert ProfileStore(tmp_path).list() == []
    with pytest.raises(NotFound) as exc:
        store.delete(p.id)
    assert exc.value.status == 404 and exc.value.code == "profile_not_found"


def test_ensure_is_idempotent(tmp_path):
    store = ProfileStore(tmp_path)
    a = store.ensure("default")
    assert store.ensure("default") is a
    assert len(store.list()) == 1


def test_corrupt_index_is_reported(tmp_path):
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "index.json").write_text("{nope")
    with pytest.raises(BadRequest) as exc:
        ProfileStore(tmp_path)
    assert "index" in exc.value.message


@pytest.mark.parametrize("name", ["prof_1a2b3c4d", "PROF_x", "inst_12345678", "a/b", "..\\\\x", "..", "nul\x00l",
                                  "two\nlines", "evil\u202etxt.exe", "zero\u200bwidth", "tab\there"])
def test_names_that_are_not_labels_are_refused(tmp_path, name):
    with pytest.raises(BadRequest) as exc:
        ProfileStore(tmp_path).create(name)
    assert exc.value.code == "invalid_name"


def test_a_name_cannot_shadow_another_profiles_id(tmp_path):
    # Issue 16: a profile named like another's id, then DELETE /profiles/<that> deleted the other one.
    store = ProfileStore(tmp_path)
    work = store.create("work")
    with pytest.raises(BadRequest):
        store.create(work.id)
    assert store.get(work.id) is work
    assert store.create("Bücher & café 2") .name == "Bücher & café 2"  # ordinary Unicode is fine


def test_profiles_are_capped(tmp_path):
    store = ProfileStore(tmp_path, max_profiles=2)
    store.create("a")
    store.create("b")
    with pytest.raises(Conflict) as exc:
        store.create("c")
    assert exc.value.code == "profile_limit" and "server.maxProfiles" in exc.value.message
