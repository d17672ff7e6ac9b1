"""``BrowserService`` (browser_service.py) and its methods by concern: one mixin per route module
of ``pinchtab.api.routes``."""
