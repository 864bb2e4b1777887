"""The fonts our PDFs use, found through fontconfig, and their true capital height.

Letter height on a sign is the height of a capital. A PDF's /CapHeight is not to be trusted
(WeasyPrint writes the font's bounding-box top there), so the ratio is measured from the outline
of "H" in the font file itself.
"""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path

from generator.errors import RenderError

SIGN_FAMILY = "DejaVu Sans Condensed"  # sans-serif, narrow enough for tall letters on a panel


@lru_cache
def font_file(pattern: str) -> Path:
    """The file fontconfig picks for a pattern such as `DejaVu Sans Condensed:bold`."""
    try:
        found = subprocess.run(
            ["fc-match", "--format=%{file}", pattern], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        raise RenderError(f"fontconfig cannot find the font {pattern!r}: {exc}") from None
    return Path(found)


@lru_cache
def cap_height_ratio(path: Path) -> float:
    """Height of the capital H over the em, from the font's own outlines."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont

    font = TTFont(path, lazy=True)
    glyphs = font.getGlyphSet()
    pen = BoundsPen(glyphs)
    glyphs[font.getBestCmap()[ord("H")]].draw(pen)
    assert pen.bounds is not None
    return pen.bounds[3] / font["head"].unitsPerEm


# Style words WeasyPrint (through Pango) appends to a family in a PDF font name, as fontconfig
# properties: "DejaVu-Sans-Bold-Semi-Condensed" is "DejaVu Sans:bold:semicondensed".
_STYLE_WORDS = {
    "bold": ":bold",
    "italic": ":italic",
    "oblique": ":oblique",
    "light": ":light",
    "semi-condensed": ":semicondensed",
    "condensed": ":condensed",
    "book": "",
}


@lru_cache
def file_of_pdf_font(name: str) -> Path:
    """The installed file of a font named in a PDF by WeasyPrint (subset prefix and all)."""
    words = name.split("+", 1)[-1].replace("Semi-Condensed", "Semi_Condensed").split("-")
    family, style = [], ""
    for word in words:
        key = word.lower().replace("_", "-")
        if key in _STYLE_WORDS:
            style += _STYLE_WORDS[key]
        else:
            family.append(word)
    return font_file(" ".join(family) + style)
