"""What a person watches: live frames of a tab (a websocket), recordings and annotated overlays."""

from __future__ import annotations

from pinchtab.api.route import Route, Socket
from pinchtab.models.gates import RECORDING, SCREENCAST
from pinchtab.models.media import AnnotateQuery, RecordFile, RecordStart, RecordStop, ScreencastQuery

SOCKETS: tuple[Socket, ...] = (
    Socket("screencast", "/screencast", ScreencastQuery,
           "A tab's live frames over a websocket: one binary JPEG message per frame", gate=SCREENCAST,
           description="Frames come at most `fps` a second, only when the page repaints (a still page "
                       "sends its current frame once). Input for a take-over goes through POST /action "
                       "(click with frameW/frameH, press with modifiers, keyboard-inserttext)."),
)

ROUTES: tuple[Route, ...] = (
    Route("screencast_tabs", ("GET",), "/screencast/tabs", None, "The tabs a screencast can show: id, url, title",
          tabbed=False, gate=SCREENCAST, cli=("screencast-tabs",)),
    Route("record_start", ("POST",), "/record/start", RecordStart,
          "Start recording a tab (one recording per bridge)", tabbed=False, gate=RECORDING,
          mcp=("pinchtab_record_start",), cli=("record start",)),
    Route("record_stop", ("POST",), "/record/stop", RecordStop,
          "Stop the recording: it encodes in the background (discard: drop it)", tabbed=False, gate=RECORDING,
          mcp=("pinchtab_record_stop",), cli=("record stop",)),
    Route("record_status", ("GET",), "/record/status", None,
          "The recording's state: idle, recording, encoding, finished (with its outputPath), ...", tabbed=False,
          gate=RECORDING, mcp=("pinchtab_record_status",), cli=("record status",)),
    Route("annotate", ("GET",), "/annotate", AnnotateQuery,
          "Draw numbered, clickable ref boxes over the tab's interactive elements (clear=true removes them)",
          answers_tab=True, cli=("annotate",)),
    # Not PinchTab's (its CLI moves the file on the server's disk): the finished file, for a client
    # on another machine; record stop's CLI command and MCP tool save it where they are asked to.
    Route("record_file", ("GET",), "/record/file", RecordFile, "The finished recording's file", tabbed=False,
          gate=RECORDING, reply="binary"),
)
