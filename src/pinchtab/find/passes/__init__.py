"""Post-scoring passes, one per query feature: each may lift one element."""
