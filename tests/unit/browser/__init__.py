"""Unit tests of the browser layer (no Chromium)."""
