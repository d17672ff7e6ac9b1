"""The bridge: HTTP API for one browser."""
