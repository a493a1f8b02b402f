"""`f1`: help for the focused part of the screen, and every key active there with its id."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Markdown

KEYS_NOTE = """
Keys can be remapped in `.memory/config.toml`, by binding id:

```toml
[tui.keys]
"main.drop" = "delete"
```
"""


def help_text(focused: Widget | None, screen: object) -> str:
    """The HELP of the focused widget or its nearest ancestor that has one, and the screen's."""
    parts: list[str] = []
    node = focused
    while node is not None:
        text = getattr(type(node), "HELP", None)
        if text:
            parts.append(text.strip())
            break
        node = node.parent if isinstance(node.parent, Widget) else None
    screen_help = getattr(type(screen), "HELP", None)
    if screen_help and screen_help.strip() not in parts:
        parts.append(screen_help.strip())
    return "\n\n".join(parts) or "## memtui"


def keys_table(bindings: list[tuple[str, str, str]]) -> str:
    rows = ["| key | does | id |", "|---|---|---|"]
    rows += [f"| `{key}` | {description} | `{binding_id}` |" for key, description, binding_id in bindings]
    return "\n".join(rows)


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "close", "Close", id="help.close")]

    def __init__(self, focused: Widget | None) -> None:
        super().__init__()
        app = focused.app if focused is not None else None
        screen = focused.screen if focused is not None else None
        self.text = help_text(focused, screen)
        seen: set[str] = set()
        self.bindings: list[tuple[str, str, str]] = []
        if app is not None:
            for active in app.active_bindings.values():
                binding: Binding = active.binding
                if binding.id and binding.id not in seen and binding.description:
                    seen.add(binding.id)
                    self.bindings.append((app.get_key_display(binding), binding.description, binding.id))

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide", id="help"):
            yield Markdown(
                f"{self.text}\n\n## Keys here\n\n{keys_table(self.bindings)}\n{KEYS_NOTE}\n"
                "`ctrl+p` opens the command palette; `escape` closes this."
            )
        yield Footer()  # this dialog's keys, over the screen's below it: those do nothing here

    def action_close(self) -> None:
        self.dismiss(None)
