"""Scores over the element axis: the lexical coverage of the query's terms (:mod:`.coverage`)
and the query's structure applied to them (:mod:`.structure`)."""
