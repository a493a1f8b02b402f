"""Published list prices of Anthropic's models, in USD per million tokens.

Its own module so the settings (which refuse a configured price below these) and the usage
accounting (which charges at them) both read it without importing each other.
"""

from __future__ import annotations

from typing import Any

#: USD per million tokens (input, output), published list prices; cache writes cost 1.25× input, reads 0.1×.
_OPUS_LEGACY = (15.0, 75.0)
_FAMILIES = (
    ("claude-3-haiku", (0.25, 1.25)),
    ("claude-3-5-haiku", (0.8, 4.0)),
    ("haiku", (1.0, 5.0)),
    ("sonnet", (3.0, 15.0)),
    ("claude-3-opus", _OPUS_LEGACY),
    ("claude-opus-4-0", _OPUS_LEGACY),
    ("claude-opus-4-1", _OPUS_LEGACY),
    ("claude-opus-4-2025", _OPUS_LEGACY),
    ("opus", (5.0, 25.0)),
)
#: Unknown models are priced like Sonnet: over-estimating keeps the budget a real cap.
_UNKNOWN = (3.0, 15.0)


def prices(model: str, settings: Any = None) -> tuple[float, float]:
    """(input, output) for `model`; the settings' own prices when both are set."""
    if settings is not None and settings.price_input is not None and settings.price_output is not None:
        return settings.price_input, settings.price_output
    name = model.lower()
    for marker, price in _FAMILIES:
        if marker in name:
            return price
    return _UNKNOWN
