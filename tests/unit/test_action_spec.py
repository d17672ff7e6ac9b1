"""The browser layer's ActionSpec and the HTTP ActionRequest describe the same action."""

import dataclasses

from pinchtab.bridge.app import action_spec
from pinchtab.browser.actions import ActionSpec
from pinchtab.models import ActionRequest


def test_action_spec_has_the_request_fields() -> None:
    request_fields = set(ActionRequest.model_fields) - {"tab_id"}
    assert {f.name for f in dataclasses.fields(ActionSpec)} == request_fields


def test_action_spec_from_request() -> None:
    req = ActionRequest.model_validate({"kind": "press", "key": "Enter", "ref": "e3", "waitNav": True, "tabId": "T"})
    spec = action_spec(req)
    assert (spec.kind, spec.key, spec.ref, spec.wait_nav) == ("press", "Enter", "e3", True)
