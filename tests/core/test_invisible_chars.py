"""The way in's invisible characters (core/intake.py), as a table: every format character Unicode
knows (Cf) goes, and the two uses that show something stay."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from memtui.core import boundedjson, intake

FORMAT = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]


def test_every_format_character_is_removed_and_named():
    text = "a" + "a".join(FORMAT) + "a"
    out, removed, kinds = intake.invisible_free(text)
    assert out == "a" * (len(FORMAT) + 1)
    assert removed == len(FORMAT)
    assert kinds[:3] == ("bidi controls", "zero-width characters", "tag characters")


@pytest.mark.parametrize(
    "kept",
    ["❤️ red heart", "keycap 1️⃣", "👩‍💻 at work", "🏳️‍🌈 flag", "👩🏽‍💻 toned", "❤️‍🔥 on fire", "a < b, ünïcödé, 日本語"],
)
def test_emoji_joiners_and_presentation_stay(kept):
    assert intake.clean(kept) == intake.Cleaned(kept)


@pytest.mark.parametrize(
    ("given", "stored", "kind"),
    [
        ("a\u200db", "ab", "zero-width characters"),  # a joiner between letters shows nothing
        ("\u200d👩", "👩", "zero-width characters"),
        ("A\ufe00\ufe01\ufe0f", "A", "variation selectors"),  # selectors in a run: hidden bytes
        ("\ufe0f start", " start", "variation selectors"),
        ("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "🏴", "tag characters"),
    ],
)
def test_hidden_uses_go(given, stored, kind):
    cleaned = intake.clean(given)
    assert cleaned.text == stored and kind in cleaned.notes[0]


def test_line_separators_become_lines_with_no_note():
    assert intake.clean("one\u2028two\u2029three") == intake.Cleaned("one\ntwo\nthree")


def test_json_nested_too_deep_or_too_large_is_a_value_error_of_its_own():
    with pytest.raises(boundedjson.TooDeep):
        boundedjson.loads("[" * 100_000, max_depth=16, max_size=1 << 20)
    with pytest.raises(boundedjson.TooLarge):
        boundedjson.loads("[" + "1," * 600_000 + "1]", max_depth=16, max_size=1 << 20)
    assert boundedjson.loads('["[[[[[[[[[[[[[[[[[[[[", {"a": [1]}]', max_depth=3, max_size=100) == [
        "[" * 20,
        {"a": [1]},
    ]
    assert boundedjson.depth(b'{"a": [[["\\"["]]]}', 3) == 4  # over the limit: the scan stops there
    assert boundedjson.depth(b'["[[[[[\\"[[["]', 1) == 1  # brackets in a string do not count


@pytest.mark.timeout(60)
def test_100000_characters_of_each_worst_case_are_one_pass():
    """Linear (bench/linear.py measures it): a regex pass and a look at each match's neighbours."""
    for unit in ("a\u200d", "👩\u200d", "\ufe0f", "a\ufe0f\ufe0f", "\U000e0041", "\u202e"):
        text = unit * (100_000 // len(unit))
        out, removed, _ = intake.invisible_free(text)
        assert len(out) + removed == len(text)
    for unit in ("[", "[],", '"\\', "{"):
        assert boundedjson.depth(unit * 100_000, 16) <= 17
