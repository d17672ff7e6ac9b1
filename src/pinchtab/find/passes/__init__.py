"""Post-scoring passes, one per query feature: each may lift one element (see :mod:`.base`)."""

from . import (adjust, byline, distinct_words, group_choice, item_action, leading_verb, open_section, role_word,
               row_column, search_intent, semantic_tier, sort_intent, static_best, text_entry, toggle, unnamed_control,
               wrapped_control)
from .base import Pass, PassPage

__all__ = ["PASSES", "Pass", "PassPage"]

# In order: an action on a named item, adjusting a quantity, turning something on or off, an
# order asked for, a search or a writing request, a role word over a control named by the other
# words, a cell named by its row and column, a near-tie its labels' first words settle,
# close candidates told apart by their rare words, an unnamed control of the kind asked for,
# what an open section holds rather than its header, a choice named by its word and its group's name;
# the semantic tier, for what nothing else matched; a control over a heading or text that only
# says the query's words; the name a byline gives for the author; last, a wrapper's pick handed to
# the control it wraps.
PASSES: tuple[Pass, ...] = (item_action, adjust, toggle, sort_intent, search_intent, text_entry, role_word, row_column,
                            leading_verb, distinct_words, unnamed_control, open_section, group_choice,
                            semantic_tier, static_best, byline, wrapped_control)
