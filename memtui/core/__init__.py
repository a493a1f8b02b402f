"""The pure domain: no I/O, standard library only (rapidfuzz allowed for similarity)."""
