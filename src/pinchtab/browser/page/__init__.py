"""The page model: the snapshot walker and its nodes, refs, frames, selectors and targets, the
text formats, change signals and find on a tab. Written against ``protocol.Page``, not ``Tab``."""
