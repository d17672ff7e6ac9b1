"""``BrowserService`` mixins, one module per concern (each method named after its route)."""
