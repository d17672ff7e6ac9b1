"""Is a word English? The guard that keeps query spelling correction (:mod:`.typos`) from
turning a real word the page lacks into one it has ("book a train" is not "trail", "loop this
song" is not "look").

The words are those of the English word-frequency list that ships in the ``pyspellchecker``
package (MIT; read from its resources, nothing fetched), seen at least ``MIN_COUNT`` times:
~47,000 words, so common words count and rare misspellings do not. The list loads once per
process, on the first query that has a word to correct (~70 ms); without the package, no word
counts as English and only the vocabulary guards correction.
"""

from __future__ import annotations

import gzip
import json
import threading

__all__ = ["is_english"]

MIN_COUNT = 100

_lock = threading.Lock()
_words: frozenset[str] | None = None


def _load() -> frozenset[str]:
    try:
        from importlib import resources

        raw = (resources.files("spellchecker") / "resources" / "en.json.gz").read_bytes()
        counts = json.loads(gzip.decompress(raw))
    except (ImportError, OSError, ValueError):
        try:  # the package's public way, should its files move
            from spellchecker import SpellChecker

            counts = SpellChecker(language="en").word_frequency.dictionary
        except Exception:  # noqa: BLE001 - any failure leaves the guard to the vocabulary
            return frozenset()
    return frozenset(w for w, c in counts.items() if c >= MIN_COUNT)


def _get() -> frozenset[str]:
    global _words
    if _words is None:
        with _lock:
            if _words is None:
                _words = _load()
    return _words


def is_english(word: str) -> bool:
    """Whether ``word`` (lowercase) is a common English word."""
    return word in _get()
