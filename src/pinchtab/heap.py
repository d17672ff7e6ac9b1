"""Headroom for the C heap, so a large page's index build does not pay the kernel for fresh pages.

Building the index of a 1,000-element page makes a few megabytes of numpy arrays (the embedding
matrices are 1 MiB each at that size, the postings sort a dozen arrays of ~128 KiB) and frees
most of them, or the previous snapshot's index, soon after. By default glibc gives memory at the
top of its heap back to the kernel as soon as a few megabytes are free there, and the next build
takes it again: every 4 KiB page is then a page fault and a zero-fill, which on this VM cost
about 2 ms of a 1,000-element one-shot find (median 11.0 -> 9.2 ms of CPU on find-vs-go's
elements). ``M_TOP_PAD`` keeps that much extra at the top of the heap instead: a bounded amount
of memory held (the pad, 8 MiB by default) for builds that do not fault.

The bridge applies its configuration's ``find.heapPadMb`` at start (this module imports no
numpy, so that costs nothing there); otherwise find's index module applies
``PINCHTAB_FIND_HEAP_PAD_MB`` (default 8; 0 leaves the allocator as it is) when first imported.
Only glibc has ``mallopt``; elsewhere this does nothing.
"""

from __future__ import annotations

import os
import sys

__all__ = ["DEFAULT_PAD_MB", "MAX_PAD_MB", "set_top_pad", "configure_from_env"]

DEFAULT_PAD_MB = 8
MAX_PAD_MB = 256
_M_TOP_PAD = -2  # glibc's malloc.h
_GLIBC_TOP_PAD = 128 * 1024  # its default
_applied: list[int] = []  # the pad in effect (bytes), once set here


def _mallopt():
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # here: pinchtab.config reads this module's limits and need not load ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        fn = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return None
    fn.argtypes = (ctypes.c_int, ctypes.c_int)
    fn.restype = ctypes.c_int
    return fn


def set_top_pad(mb: int) -> bool:
    """Keep ``mb`` MiB of headroom at the top of the C heap (0: glibc's default, 128 KiB); True
    if set."""
    if not 0 <= mb <= MAX_PAD_MB:
        raise ValueError(f"heap pad must be between 0 and {MAX_PAD_MB} MiB")
    fn = _mallopt()
    if fn is None:
        return False
    pad = (mb << 20) or _GLIBC_TOP_PAD
    ok = bool(fn(_M_TOP_PAD, pad))
    if ok:
        _applied[:] = [pad]
    return ok


def configure_from_env() -> None:
    """``set_top_pad`` from ``PINCHTAB_FIND_HEAP_PAD_MB`` (default ``DEFAULT_PAD_MB``), unless a
    pad was set already (the bridge's configuration)."""
    if _applied:
        return
    raw = os.environ.get("PINCHTAB_FIND_HEAP_PAD_MB", "").strip()
    try:
        mb = int(raw) if raw else DEFAULT_PAD_MB
    except ValueError:
        mb = DEFAULT_PAD_MB
    if mb == 0 or not 0 <= mb <= MAX_PAD_MB:
        return
    set_top_pad(mb)
