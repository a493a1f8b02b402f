"""Characters that read as the ASCII ones memtui's fences and entry headers are made of, for core/defuse.py.

A closer (`</recalled-memories>`, Claude Code's `</system-reminder>`) is `<`, `/` and a name; an entry
header is `[type · id]`, `- [type] … (id)` or `mem_… · type`. A model reads `＜／ｒｅｃａｌｌｅｄ…＞`,
`⟨∕system-reminder⟩` or `［decision・m-1］` as the same thing, so the defuser folds every lookalike to
the ASCII character it reads as before it looks for an opener or a header. The fold is one table
(code point → one printable ASCII character or `·`) from two sources:

- `unicode`: Python's own Unicode data: every character whose NFKC form is one such character
  (fullwidth `＜／［`, small `﹤`, mathematical letters), and the brackets whose Unicode names make
  them angle or square brackets (`⟨ 〈 〈 ❬ ❰ ⧼ 《`, `【 〔 ⟦`), which the confusables data does not pair
  with ASCII;
- `library`: the Unicode confusables (UTS #39) as the maintained `confusable-homoglyphs` package
  ships them (`‹ ❮ ˂ ᐸ` for `<`, `∕ ⁄ ⧸ ╱` for `/`, Cyrillic and Greek letters for Latin ones).

Letters of the CJK scripts (`prose_letters`, by the library's script data) are not folded: beside
their own brackets they are prose (`《ノルウェイの森》`), not a tag name; the confusables data's few
(`ノ 丿` for `/`) are kept apart (`prose`) for the defuser to read as slashes only before a Latin
letter. Every part comes from the snapshot beside this file (`lookalikes.json`), so the hooks fold
without importing the library (it loads a 900 kB table); the library's parts are read from the
library itself only when another version of it is installed. Regenerate with
`python -m memtui.core.lookalikes --write`; a test checks the snapshot against the library and
Python's Unicode data.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

SNAPSHOT = Path(__file__).with_name("lookalikes.json")
LIBRARY = "confusable_homoglyphs"

#: What a lookalike may fold to: the characters of every fence, tag and header (and all of printable
#: ASCII, so a tag name in lookalike letters folds too), and the middle dot of our headers.
TARGETS = "".join(map(chr, range(0x20, 0x7F))) + "·"  # not `string`'s: its import compiles a pattern
#: When the confusables data pairs one character with several targets, the markup ones win.
_PRECEDENCE = "</>![]?·-*+ abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
#: Scripts whose letters are prose beside a bracket or a dot, never a tag name or a header.
PROSE_SCRIPTS = frozenset({"HAN", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO", "YI"})
#: Brackets by their Unicode names. A left guillemet (`«`, "DOUBLE ANGLE QUOTATION MARK") is not
#: one: French and German prose open every quote with it. Vertical presentation forms render as `︿`.
_NAMED = (
    ("<", r"\bLEFT(?:-POINTING)? (?:[A-Z]+ )*ANGLE BRACKET\b|LEFT-POINTING ANGLE QUOTATION|LEFT ARROWHEAD$"),
    (">", r"\bRIGHT(?:-POINTING)? (?:[A-Z]+ )*ANGLE BRACKET\b|RIGHT-POINTING ANGLE QUOTATION|RIGHT ARROWHEAD$"),
    ("[", r"\bLEFT (?:[A-Z]+ )*(?:SQUARE|LENTICULAR|TORTOISE SHELL) BRACKET\b"),
    ("]", r"\bRIGHT (?:[A-Z]+ )*(?:SQUARE|LENTICULAR|TORTOISE SHELL) BRACKET\b"),
)
_BRACKET_CATEGORIES = frozenset({"Ps", "Pe", "Pi", "Pf", "Sm", "Sk"})


def _prose_letter(char: str, script: str) -> bool:
    return unicodedata.category(char).startswith("L") and script in PROSE_SCRIPTS


def unicode_part() -> dict[str, str]:
    """{target: its lookalikes} from Python's Unicode data (NFKC and names). Scans every code point."""
    named = [(target, re.compile(pattern)) for target, pattern in _NAMED]  # compiled here: not on the hook path
    found: dict[str, list[str]] = {}
    for code in range(0x80, sys.maxunicode + 1):
        char = chr(code)
        folded = unicodedata.normalize("NFKC", char)
        if len(folded) == 1 and folded in TARGETS:
            found.setdefault(folded, []).append(char)
            continue
        name = unicodedata.name(char, "")
        if unicodedata.category(char) in _BRACKET_CATEGORIES and "VERTICAL" not in name:
            target = next((t for t, pattern in named if pattern.search(name)), None)
            if target:
                found.setdefault(target, []).append(char)
    return {target: "".join(chars) for target, chars in sorted(found.items())}


def library_part(*, prose: bool = False) -> dict[str, str]:
    """{target: its lookalikes} from the installed confusable-homoglyphs' confusables data; with
    `prose`, only the letters of `PROSE_SCRIPTS` (`ノ 丿` for `/`), which the table leaves out."""
    from confusable_homoglyphs.categories import alias
    from confusable_homoglyphs.confusables import confusables_data

    pairs: dict[str, set[str]] = {}
    for key, homoglyphs in confusables_data.items():
        for other in (h["c"] for h in homoglyphs):
            for char, target in ((key, other), (other, key)):
                if len(char) == 1 and not char.isascii() and target in TARGETS and len(target) == 1:
                    pairs.setdefault(char, set()).add(target)
    found: dict[str, list[str]] = {}
    for char in sorted(pairs):
        if char == "·" or _prose_letter(char, alias(char)) != prose:
            continue
        target = min(pairs[char], key=lambda t: _PRECEDENCE.find(t) % len(_PRECEDENCE))
        found.setdefault(target, []).append(char)
    return {target: "".join(chars) for target, chars in sorted(found.items())}


def installed_version() -> str | None:
    """confusable-homoglyphs' version, read from its `_version.py` without importing the package."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(LIBRARY)
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        try:
            text = (Path(location) / "_version.py").read_text(encoding="utf-8")
        except OSError:
            continue
        match = re.search(r'"version":\s*"([^"]+)"', text)
        if match:
            return match.group(1)
    return None


def snapshot() -> dict[str, Any] | None:
    try:
        data = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    parts = ("unicode", "library", "prose")
    ok = isinstance(data, dict) and all(isinstance(data.get(p), dict) for p in parts) and "prose_letters" in data
    return data if ok else None


def prose_letters() -> list[list[int]]:
    """The code point ranges of the letters of `PROSE_SCRIPTS`, from the library's script data."""
    from confusable_homoglyphs.categories import categories_data

    names, categories = categories_data["iso_15924_aliases"], categories_data["categories"]
    merged: list[list[int]] = []
    for first, last, script, category in sorted(categories_data["code_points_ranges"]):
        if names[script] not in PROSE_SCRIPTS or not categories[category].startswith("L"):
            continue
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(last, merged[-1][1])
        else:
            merged.append([first, last])
    return merged


def library_parts() -> dict[str, Any]:
    """What the snapshot holds of the library: its lookalikes, its prose ones, its prose letters."""
    return {"library": library_part(), "prose": library_part(prose=True), "prose_letters": prose_letters()}


@functools.cache
def _loaded() -> dict[str, Any]:
    """The snapshot, with its library parts read from the library itself when another version of it
    is installed (the snapshot's are then stale); the hooks never import the library otherwise."""
    taken = snapshot() or {"unicode": {}, "library": {}, "prose": {}, "prose_letters": [], LIBRARY: None}
    version = installed_version()
    if version is not None and taken.get(LIBRARY) != version:
        taken = {**taken, **library_parts(), LIBRARY: version}
    table: dict[int, str] = {}
    for part in (taken["library"], taken["unicode"]):  # NFKC last: it is exact where the two disagree
        for target, chars in part.items():
            table.update(dict.fromkeys(map(ord, chars), target))
    by_target: dict[str, list[str]] = {}
    for code, target in table.items():
        by_target.setdefault(target, []).append(chr(code))
    return {**taken, "table": table, "by_target": {t: "".join(chars) for t, chars in by_target.items()}}


def table() -> dict[int, str]:
    """{code point: the ASCII character (or `·`) it reads as}, for `str.translate`."""
    table: dict[int, str] = _loaded()["table"]
    return table


def lookalikes_of(targets: str) -> str:
    """Every character the table folds to one of `targets`."""
    by_target = _loaded()["by_target"]
    return "".join(by_target.get(target, "") for target in dict.fromkeys(targets))


def prose_lookalikes_of(targets: str) -> str:
    """The letters of CJK scripts that the confusables data pairs with one of `targets`: the table
    leaves them out (they are prose), the defuser reads them as those only before Latin letters."""
    prose = _loaded()["prose"]
    return "".join(prose.get(target, "") for target in dict.fromkeys(targets))


def prose_letter(char: str) -> bool:
    """Whether `char` is a letter of `PROSE_SCRIPTS` (a binary search of the library's ranges)."""
    ranges = _loaded()["prose_letters"]
    code = ord(char)
    at = bisect.bisect_right(ranges, [code, sys.maxunicode + 1]) - 1
    return at >= 0 and ranges[at][0] <= code <= ranges[at][1]


def main(argv: list[str] | None = None) -> int:
    """`python -m memtui.core.lookalikes --write`: snapshot the installed library and Unicode data."""
    args = sys.argv[1:] if argv is None else argv
    parts = {"unicode": unicode_part(), **library_parts()}
    data: dict[str, Any] = {LIBRARY: installed_version(), "unicodedata": unicodedata.unidata_version, **parts}
    if "--write" in args:
        SNAPSHOT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        count = sum(len(chars) for part in ("unicode", "library", "prose") for chars in parts[part].values())
        print(f"wrote {SNAPSHOT} ({count} lookalikes; {LIBRARY} {data[LIBRARY]}, Unicode {data['unicodedata']})")
        return 0
    same = snapshot() == data
    print("the snapshot matches the installed library" if same else "the snapshot is stale: run with --write")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
