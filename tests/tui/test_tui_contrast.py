"""Every colour memtui draws text in reaches WCAG AA on the backgrounds it is drawn on, in both shipped themes.

Two checks. The colours are read from the sources (the CSS and the styles the renderables use), so a new
`$variable` must be classified here before it ships; the values come from the running app's own CSS
variables. And every screen is opened in both themes at 80×24 and each text cell is read back as it is
drawn (the compositor's segments: the colour and background a terminal would paint), which catches what
the variables alone do not: a style resolved without its background, a selected row's labels on the
cursor, Textual's own half-foreground text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App
from textual.color import Color
from textual.screen import ModalScreen
from tuikit import SCREENS, make_app, settle

from memtui.tui import themes
from memtui.tui.screenshots import sample_engines

pytestmark = pytest.mark.anyio

TUI = Path(__file__).resolve().parents[2] / "memtui" / "tui"
BACKGROUNDS = ("background", "surface", "panel")
# Drawn as backgrounds or borders (no text on them is coloured by memtui except the cursor pair below).
NOT_TEXT = {
    "surface",
    "panel",
    "panel-lighten-2",
    "primary",  # the active tab's underline
    "block-cursor-background",
    "block-cursor-blurred-background",
}
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
        "foreground",
        "text-muted",
        "warning",
        "error",
        "accent",
        "success",
        "secondary",
        "block-cursor-foreground",
        "markdown-h2-color",  # the help's headings and its keys table's header (themes.HEADINGS)
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


# The walk: every screen of tuikit.SCREENS, and the states where a row's coloured labels sit on a cursor.
WALK = {
    **SCREENS,
    "search-results": [*SCREENS["search"], "down"],
    "review-picker": [*SCREENS["review"], "down"],
    "consolidate-next": [*SCREENS["consolidate"], "down"],
}


def is_text(ch: str) -> bool:
    """Letters, digits, punctuation; not the borders, bars and scrollbars (box drawing, block elements)."""
    return not ch.isspace() and not "\u2500" <= ch <= "\u259f"


def drawn_cells(app) -> list[tuple[int, int, str, tuple[int, int, int], tuple[int, int, int]]]:
    """(x, y, character, colour, background) of every cell of the screen as the terminal gets it."""
    width, height = app.size
    update = app.screen._compositor.render_update(full=True)
    console = Console(width=width, height=height, force_terminal=True, color_system="truecolor", legacy_windows=False)
    cells = []
    x = y = 0
    for segment in console.render(update):
        if segment.control:  # each line starts with a cursor move
            y, x = (y + 1, 0) if x else (y, 0)
            continue
        style = segment.style
        for ch in segment.text:
            if style is not None and style.color is not None and style.bgcolor is not None:
                fg, bg = tuple(style.color.get_truecolor()), tuple(style.bgcolor.get_truecolor())
                cells.append((x, y, ch, *((bg, fg) if style.reverse else (fg, bg))))
            else:
                assert not is_text(ch), f"{ch!r} at {x},{y} is drawn without a colour and background"
            x += 1
    return cells


def rgb_ratio(fg: tuple[int, int, int], bg: tuple[int, int, int]) -> float:
    return ratio(Color(*fg), Color(*bg))


def readable_region(app):
    """A dialog fades the screen under it on purpose: only the dialog's own cells are read there."""
    if not isinstance(app.screen, ModalScreen):
        return None
    return [child.region for child in app.screen.children]


async def low_contrast(app) -> list[str]:
    regions = readable_region(app)
    low: dict[tuple, str] = {}
    for x, y, ch, fg, bg in drawn_cells(app):
        if not is_text(ch):
            continue
        if regions is not None and not any(r.contains(x, y) for r in regions):
            continue
        r = rgb_ratio(fg, bg)
        if r < AA:
            key = (y, fg, bg)  # one line per run of the same colours
            low[key] = low.get(key, f"line {y}: #{bytes(fg).hex()} on #{bytes(bg).hex()} {r:.2f}:1 ") + ch
    return list(low.values())


@pytest.mark.parametrize("theme", [t.name for t in themes.THEMES])
async def test_every_screen_reads_at_aa_as_drawn(demo, theme):
    failures = []
    for name, keys in WALK.items():
        app = make_app(demo, engines=sample_engines(demo), theme=theme)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press(*keys)
            await settle(pilot)
            failures += [f"{name} {line}" for line in await low_contrast(app)]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("theme", [t.name for t in themes.THEMES])
async def test_dim_text_is_dimmer_than_text_and_still_aa(demo, theme):
    """The list's age column (the dim style): between the background and the text, never past either."""
    app = make_app(demo, engines=sample_engines(demo), theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j")
        await settle(pilot)
        rows: dict[int, dict[int, tuple]] = {}
        for x, y, ch, fg, bg in drawn_cells(app):
            rows.setdefault(y, {})[x] = (ch, fg, bg)
        v = app.get_css_variables()
        text, surface = Color.parse(v["foreground"]), Color.parse(v["surface"])
        ages = []
        for cells in rows.values():
            line = "".join(cells[x][0] if x in cells else " " for x in range(max(cells) + 1))
            found = re.search(r"[\u2580-\u259f.·] +\d+[a-z]+ ", line)  # the age after the confidence bar
            if found and cells[found.end() - 2][2] == surface.rgb:  # a row off the cursor
                ages.append((line, cells[found.end() - 2]))
        assert ages, "no age column found"
        for line, (_, fg, bg) in ages:
            assert rgb_ratio(fg, bg) >= AA, line
            assert ratio(Color(*fg), surface) < ratio(text, surface), f"dim is not dimmer than the text: {line}"


@pytest.mark.parametrize("theme", [t.name for t in themes.THEMES])
async def test_the_help_keys_table_reads_at_aa_to_its_end(demo, theme):
    """The walk sees the help's first page; its "Keys here" table (whose header Textual draws in
    $primary) is further down: every page of it is read."""
    app = make_app(demo, engines=sample_engines(demo), theme=theme)
    failures: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        for page in range(8):
            await pilot.press("pagedown")
            await settle(pilot)
            failures += [f"page {page} {line}" for line in await low_contrast(app)]
    assert not failures, "\n".join(failures)
