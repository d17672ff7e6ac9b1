"""A browser and its tabs: Chromium's lifecycle, a tab's session, navigation and isolated world,
dialogs, popups, the browser-UI guard, tab restore and locks."""
