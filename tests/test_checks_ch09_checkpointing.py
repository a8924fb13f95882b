"""Chapter 9's `09.checkpoint` checker, more cases: the ones `make mutation` showed
no test pinned down (docs/mutation.md)."""
