"""How a map looks: grays only, text of a few kinds in DejaVu Sans, line styles, paper measures.

Text is measured in the font files matplotlib will draw it with, so that the layout and the
drawing agree; matplotlib is imported only when text is first measured.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.font_manager import FontProperties


_PAD = 0.04  # figure edge to map frame, in
_INSET = 0.08  # map frame to legend and scale bar boxes, in
_BOX_PAD = 0.06  # inside the legend and scale bar boxes, in
_HALO_PT = 2.4  # white stroke behind labels, pt
_ON_LINE = ("street", "buffer")  # labels set on their line, in a white box

# Grays only: the map is printed in black and white.
_BLACK = "#000000"
_WHITE = "#ffffff"
_FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "italic": "DejaVuSans-Oblique.ttf",
    "bolditalic": "DejaVuSans-BoldOblique.ttf",
}
# kind: (font face, color, size in pt)
_TEXT = {
    "change": ("bold", _BLACK, 9.0),
    "street": ("regular", _BLACK, 7.0),
    "district": ("bold", "#333333", 9.0),
    "municipal": ("bolditalic", "#1a1a1a", 7.5),
    "water": ("italic", "#333333", 7.0),
    "buffer": ("regular", _BLACK, 7.0),
    "legend": ("regular", _BLACK, 7.0),
    "scale": ("regular", _BLACK, 7.0),
    "north": ("bold", _BLACK, 9.0),
}
# layer: matplotlib patch keywords (linewidths in pt, dashes in pt)
_STYLE: dict[str, dict[str, Any]] = {
    "water": {"facecolor": "#ebebeb", "edgecolor": "#8c8c8c", "linewidth": 0.5, "zorder": 1},
    "water_line": {"edgecolor": "#8c8c8c", "linewidth": 2.8, "zorder": 1},
    "water_core": {"edgecolor": "#ebebeb", "linewidth": 1.4, "zorder": 1.1},
    "notified": {"facecolor": "#d4d4d4", "edgecolor": "none", "linewidth": 0, "zorder": 2},
    "parcel": {"edgecolor": "#7f7f7f", "linewidth": 0.4, "zorder": 3},
    "street": {"edgecolor": "#b3b3b3", "linewidth": 0.9, "zorder": 4},
    "district": {"edgecolor": "#333333", "linewidth": 1.3, "zorder": 5},
    "municipal": {
        "edgecolor": _BLACK,
        "linewidth": 2.0,
        "linestyle": (0, (9.0, 3.0, 2.0, 3.0)),
        "zorder": 6,
    },
    "buffer": {"edgecolor": _BLACK, "linewidth": 1.0, "linestyle": (0, (5.0, 3.0)), "zorder": 7},
    "subject_fill": {
        "facecolor": _WHITE,
        "edgecolor": "#7f7f7f",
        "hatch": "////",
        "linewidth": 0,
        "zorder": 8,
    },
    "subject": {"edgecolor": _BLACK, "linewidth": 2.4, "zorder": 9},
}
_LEGEND_TEXT = {
    "subject": "Area of proposed change",
    "notified": "Notified parcel",
    "buffer": "Notice distance",
    "district": "Zoning district boundary",
    "street": "Street centerline",
    "parcel": "Parcel line",
    "municipal": "Municipal boundary",
    "water": "Water",
}
_RC = {
    "svg.hashsalt": "zoning-notices-map",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "hatch.linewidth": 0.5,
    "lines.scale_dashes": False,
    "text.usetex": False,
    "figure.facecolor": _WHITE,
    "savefig.facecolor": _WHITE,
    "savefig.edgecolor": _WHITE,
}
# A legend row: the symbol, the gap before its words, the row height; in
_HANDLE_W = 0.3
_HANDLE_GAP = 0.07
_ROW_H = 0.145


@lru_cache(maxsize=64)
def _font(face: str, size: float) -> FontProperties:
    """Matplotlib's own DejaVu Sans, so every machine draws the same glyphs."""
    import matplotlib
    from matplotlib.font_manager import FontProperties

    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / _FONT_FILES[face]
    return FontProperties(fname=path, size=size)


@lru_cache(maxsize=4096)
def _measure(text: str, kind: str, size: float | None = None) -> tuple[float, float]:
    """Width and height of text of a kind (lines apart by matplotlib's 1.2 spacing), in inches."""
    from matplotlib.textpath import text_to_path

    face, _, default = _TEXT[kind]
    prop = _font(face, size or default)
    lines = text.split("\n")
    w = max(text_to_path.get_text_width_height_descent(t, prop, ismath=False)[0] for t in lines)
    h = max(text_to_path.get_text_width_height_descent(t, prop, ismath=False)[1] for t in lines)
    _, h_lp, d_lp = text_to_path.get_text_width_height_descent("lp", prop, ismath=False)
    return w / 72, (max(h, h_lp) + (len(lines) - 1) * 1.2 * (h_lp - d_lp)) / 72
