"""The query read: its terms, context, exclusions, states, positions and ordinals
(:mod:`.parse`), and ordinals over containers (:mod:`.container_ordinal`)."""
