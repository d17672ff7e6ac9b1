"""pinchtab_record_*: the file's extension picks the format; the path must be absolute, in an
existing directory, and new (PinchTab's rules)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pinchtab.mcp.tools import ToolInputError
from pinchtab.mcp.tools.media import checked_path


def test_a_new_absolute_file_and_its_format(tmp_path: Path) -> None:
    assert checked_path(str(tmp_path / "a.GIF")) == (str(tmp_path / "a.GIF"), "gif")
    assert checked_path(str(tmp_path / "b.webm"))[1] == "webm"


@pytest.mark.parametrize("name,why", [("rel.gif", "absolute"), ("/nope/dir/x.gif", "not a directory"),
                                      ("{tmp}/x.avi", "unsupported format"), ("{tmp}/taken.gif", "already exists")])
def test_refused(tmp_path: Path, name: str, why: str) -> None:
    (tmp_path / "taken.gif").write_bytes(b"")
    with pytest.raises(ToolInputError, match=why):
        checked_path(name.format(tmp=tmp_path))
