"""The optional semantic tier's model: a static token table distilled from all-MiniLM-L6-v2
(:mod:`.model`), read with numpy (:mod:`.minilm`)."""
