"""The one writer of files for agents (core/state_files.py): private files, stamped names."""

from __future__ import annotations

import re
import stat
from pathlib import Path

from pinchtab.browser.core.state_files import save_output, stamped_name, write_file
from pinchtab.config import load_config


def test_write_file_is_private_and_replaces(tmp_path: Path) -> None:
    path = write_file(tmp_path / "new" / "a.txt", "é")
    assert path.read_bytes() == "é".encode("utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) & 0o077 == 0
    write_file(path, b"x")
    assert path.read_bytes() == b"x"


def test_stamped_names_sort_by_time_and_differ() -> None:
    a, b = stamped_name("cap", "png"), stamped_name("cap", "png")
    assert re.fullmatch(r"cap-\d{8}-\d{6}-[0-9a-f]{6}\.png", a) and a != b


def test_save_output_under_the_state_dir(tmp_path: Path) -> None:
    config = load_config(environ={"PINCHTAB_STATE_DIR": str(tmp_path)})
    out = save_output(config, "pdfs", None, b"%PDF", "pdf")
    path = Path(out["path"])
    assert path.parent == (Path(config.server.state_dir).expanduser() / "pdfs").resolve()
    assert path.name.startswith("pdf-") and out["size"] == 4 and path.read_bytes() == b"%PDF"
