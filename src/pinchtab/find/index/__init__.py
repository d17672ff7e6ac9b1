"""What is built once per snapshot: element descriptors, per-text parts (process-wide caches),
the hashing embedder, postings, the page index and the query terms resolved against it."""
