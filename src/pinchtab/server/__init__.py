"""The control plane (``pinchtab server``): persistent profiles, several bridge instances (each a
``pinchtab bridge`` subprocess with its own Chromium), and a proxy that routes every tab request to
the instance owning that tab."""
