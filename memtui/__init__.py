"""memtui: the memory layer coding agents and their users can trust."""

__version__ = "0.1.0"
