"""The ref grammar: what is a ref and what is not."""

from pinchtab.models import as_ref, is_ref, ref_number


def test_refs_and_not_refs() -> None:
    assert is_ref("e0") and is_ref("e12345")
    for text in ("", "e", "E5", "e5 ", "ref:e5", "e-1", "e5a", "#e5", "xe5"):
        assert not is_ref(text), text
    assert ref_number("e42") == 42
    assert ref_number("button") is None


def test_as_ref_takes_the_selector_form() -> None:
    assert as_ref("ref:e7") == "e7"
    assert as_ref("  e7 ") == "e7"
    assert as_ref("ref: e7") == "e7"
    assert as_ref("e7x") is None
    assert as_ref("text:e7") is None
