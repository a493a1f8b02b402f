"""Files ⇄ Memory: both store formats, locations, the lock, atomic writes, the journal and the Bank."""
