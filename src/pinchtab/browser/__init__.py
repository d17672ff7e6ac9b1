"""The browser layer: Browser, Tab, snapshot, actions, content."""
