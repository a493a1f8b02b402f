"""The Textual workbench: the only package of memtui that imports Textual.

`memtui/tui/data/` holds the view logic (rows, watching, drafts, optional engines) and imports no
Textual either, so it is tested and benchmarked without a terminal.
"""
