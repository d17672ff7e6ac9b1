"""``python -m pinchtab``: the ``pinchtab`` command, for when the script is not on PATH
(auto-start and the MCP tests spawn ``sys.executable -m pinchtab``)."""

from pinchtab.cli import main

if __name__ == "__main__":
    main(prog_name="pinchtab")
