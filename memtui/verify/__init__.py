"""Memories checked against the code: references found, gone, or renamed (`engine` runs it)."""
