"""memtui's two themes: Textual's own, with every colour memtui draws text in raised to WCAG AA.

Textual's `textual-dark` draws `$secondary` at 1.9:1 on its background and `textual-light` draws
`$warning`/`$accent`/`$success` at 1.3-1.8:1; memtui colours type labels, badges, bars and notes with
those variables, so it ships its own pair. The same variable names are used, so the CSS stays theme-agnostic
and a person's own theme (`[tui] theme`) still works. tests/tui/test_tui_contrast.py checks each pair,
and walks every screen in both themes reading the colours each text cell is drawn in.

Muted text and the cursors are set here, not left to Textual: its `text-muted` is `auto 60%`, which a
component style (the list's age column) resolves without its background, so it came out white on
white in the light theme and brighter than the text in the dark one. The cursors are a dark navy and
a pale blue, so a row's coloured labels stay readable on them. The help's headings take `$secondary`.
"""

from __future__ import annotations

from textual.theme import Theme

#: Textual colours the help's headings `$primary`, a background colour (2.6:1 on the dark panel).
HEADINGS = ("markdown-h1-color", "markdown-h2-color", "markdown-h3-color")

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
    variables={
        "text-muted": "#A3A3A3",
        "foreground-muted": "#A3A3A3",
        **dict.fromkeys(HEADINGS, "#6CB4EE"),
        "block-cursor-foreground": "#FFFFFF",
        "block-cursor-background": "#1B3A5E",
        "block-cursor-blurred-foreground": "#E6E6E6",
        "block-cursor-blurred-background": "#2A2F36",
    },
)

LIGHT = Theme(
    name="memtui-light",
    primary="#0A5CA8",
    secondary="#1F5E99",
    accent="#8F4A00",
    warning="#7E4C00",
    error="#B3261E",
    success="#1D6B32",
    foreground="#1A1A1A",
    background="#F4F4F4",
    surface="#FAFAFA",
    panel="#E4E4E4",
    dark=False,
    variables={
        "text-muted": "#595959",
        "foreground-muted": "#595959",
        **dict.fromkeys(HEADINGS, "#1F5E99"),
        "block-cursor-foreground": "#1A1A1A",
        "block-cursor-background": "#C6DBF0",
        "block-cursor-blurred-foreground": "#1A1A1A",
        "block-cursor-blurred-background": "#E0E6EC",
    },
)

THEMES = (DARK, LIGHT)
DEFAULT = DARK.name
