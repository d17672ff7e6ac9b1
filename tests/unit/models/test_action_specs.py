"""The action kind declarations agree with the request model that carries them."""

from pinchtab.models import ACTION_KINDS, ACTION_SPECS, COMMON_FIELDS, ActionRequest


def test_every_declared_field_is_a_request_field() -> None:
    known = set(ActionRequest.model_fields)
    for spec in ACTION_SPECS:
        assert set(spec.fields) <= known, spec.name
    assert set(COMMON_FIELDS) <= known


def test_the_request_accepts_exactly_the_declared_kinds() -> None:
    schema = ActionRequest.model_json_schema(by_alias=True)
    assert tuple(schema["properties"]["kind"]["enum"]) == ACTION_KINDS
    assert len(set(ACTION_KINDS)) == len(ACTION_SPECS)
