"""memtui's two themes: Textual's own, with every colour memtui draws text in raised to WCAG AA.

Textual's `textual-dark` draws `$secondary` at 1.9:1 on its background and `textual-light` draws
`$warning`/`$accent`/`$success` at 1.3-1.8:1; memtui colours type labels, badges, bars and notes with
those variables, so it ships its own pair. The same variable names are used, so the CSS stays theme-agnostic
and a person's own theme (`[tui] theme`) still works. tests/tui/test_tui_contrast.py checks each pair.
"""

from __future__ import annotations

from textual.theme import Theme

DARK = Theme(
    name="memtui-dark",
    primary="#1565C0",
    secondary="#6CB4EE",
    accent="#FFA62B",
    warning="#FFB454",
    error="#FF7070",
    success="#5CC77E",
    foreground="#E6E6E6",
    background="#121212",
    surface="#1A1A1A",
    panel="#24292F",
    dark=True,
)

LIGHT = Theme(
    name="memtui-light",
    primary="#0A5CA8",
    secondary="#1F5E99",
    accent="#8F4A00",
    warning="#8A5300",
    error="#B3261E",
    success="#1D6B32",
    foreground="#1A1A1A",
    background="#F4F4F4",
    surface="#FAFAFA",
    panel="#E4E4E4",
    dark=False,
)

THEMES = (DARK, LIGHT)
DEFAULT = DARK.name
