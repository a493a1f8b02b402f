"""Every colour memtui draws text in reaches WCAG AA on the backgrounds it is drawn on, in both shipped themes.

The colours are read from the sources (the CSS and the styles the renderables use), so a new `$variable`
must be classified here before it ships; the values come from the running app's own CSS variables.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.app import App
from textual.color import Color
from tuikit import make_app, settle

from memtui.tui import themes

pytestmark = pytest.mark.anyio

TUI = Path(__file__).resolve().parents[2] / "memtui" / "tui"
BACKGROUNDS = ("background", "surface", "panel")
# Drawn as backgrounds or borders (no text on them is coloured by memtui except the cursor pair below).
NOT_TEXT = {"surface", "panel", "panel-lighten-2", "block-cursor-background", "block-cursor-blurred-background"}
AA = 4.5


def used_variables() -> set[str]:
    names: set[str] = set()
    for path in [*TUI.rglob("*.py"), *TUI.rglob("*.tcss")]:
        names |= set(re.findall(r"\$([a-z][a-z0-9-]*)", path.read_text(encoding="utf-8")))
    return names


def luminance(c: Color) -> float:
    def channel(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)


def ratio(fg: Color, bg: Color) -> float:
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def resolve(value: str, under: Color) -> Color:
    """A theme value as painted on `under`: 'auto 87%' is Textual's contrast text; alpha is blended."""
    if value.startswith("auto"):
        alpha = float(value.split()[1].rstrip("%")) / 100 if " " in value else 1.0
        colour = under.get_contrast_text(alpha)
    else:
        colour = Color.parse(value)
    return under.blend(colour.with_alpha(1.0), colour.a) if colour.a < 1 else colour


def variables(theme: str) -> dict[str, str]:
    app = App()
    for shipped in themes.THEMES:
        app.register_theme(shipped)
    app.theme = theme
    return app.get_css_variables()


def test_the_sources_use_only_classified_variables():
    text = used_variables() - NOT_TEXT
    assert {"text-muted", "warning", "error", "accent", "success", "secondary"} <= text
    unknown = text - {
        "text",
        "text-muted",
        "warning",
        "error",
        "accent",
        "success",
        "secondary",
        "block-cursor-foreground",
    }
    assert not unknown, f"classify these colours in this test: {sorted(unknown)}"


@pytest.mark.parametrize("theme", [t.name for t in themes.THEMES])
def test_every_text_colour_reaches_aa_on_every_background(theme):
    v = variables(theme)
    text = sorted(used_variables() - NOT_TEXT - {"block-cursor-foreground"})
    low = []
    for bg_name in BACKGROUNDS:
        bg = Color.parse(v[bg_name])
        for name in text:
            r = ratio(resolve(v[name], bg), bg)
            if r < AA:
                low.append(f"${name} on ${bg_name}: {r:.2f}:1")
    assert not low, low
    cursor_bg = resolve(v["block-cursor-background"], Color.parse(v["surface"]))
    assert ratio(resolve(v["block-cursor-foreground"], cursor_bg), cursor_bg) >= AA


def test_textual_dark_is_why_memtui_ships_its_own():
    """The check is not vacuous: Textual's dark theme draws the type labels at 1.9:1."""
    v = variables("textual-dark")
    bg = Color.parse(v["background"])
    assert ratio(resolve(v["secondary"], bg), bg) < AA


async def test_the_app_opens_in_memtui_dark_and_names_the_themes_for_an_unknown_one(demo):
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == themes.DEFAULT
    app = make_app(demo, theme="no-such-theme")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == themes.DEFAULT
        said = " ".join(str(n.message) for n in app._notifications)
        assert "no-such-theme" in said and "memtui-light" in said
