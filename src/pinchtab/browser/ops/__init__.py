"""``BrowserService`` methods by concern: one mixin per route module of ``pinchtab.api.routes``."""
