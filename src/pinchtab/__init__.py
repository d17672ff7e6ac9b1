"""pinchtab: browser control for AI agents."""

__version__ = "0.1.0"
