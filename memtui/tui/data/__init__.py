"""View logic for the TUI that does not import Textual."""
