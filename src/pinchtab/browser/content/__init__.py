"""Reading and writing a page's content: text, PDF, screenshots, metrics, storage and saved
state, emulation, clipboard, uploads, downloads."""
