"""Draw the schematic maps the sample cases attach (until the GIS capability draws real ones).

Run `python cases/maps/draw_sample_maps.py` after changing a map below; the PNGs are committed.
Each map shows what R.I.G.L. § 45-24-53(b) and 11 O.S. § 43-104 ask of a notice map: the
existing and proposed boundaries, district boundaries, labeled streets, and municipal lines.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def draw(
    name: str,
    streets: list[tuple[str, tuple[int, int, int, int]]],
    subject: tuple[int, int, int, int],
    districts: list[tuple[str, tuple[int, int]]],
    change: str,
    boundary: str | None = None,
) -> None:
    """One 1200 × 800 grayscale map."""
    img = Image.new("L", (1200, 800), 255)
    d = ImageDraw.Draw(img)
    font, bold = ImageFont.truetype(FONT, 22), ImageFont.truetype(BOLD, 26)
    for label, (x0, y0, x1, y1) in streets:
        d.rectangle((x0, y0, x1, y1), fill=215)
        horizontal = x1 - x0 > y1 - y0
        if horizontal:  # labels sit a quarter along, clear of the crossing street
            d.text((x0 + (x1 - x0) // 4, (y0 + y1) // 2), label, fill=0, font=font, anchor="mm")
        else:
            txt = Image.new("L", ((y1 - y0) // 2, x1 - x0), 215)
            ImageDraw.Draw(txt).text(
                ((y1 - y0) // 4, (x1 - x0) // 2), label, fill=0, font=font, anchor="mm"
            )
            img.paste(txt.rotate(90, expand=True), (x0, y0 + (y1 - y0) // 2))
    d.line([(0, 430), (1200, 430)], fill=90, width=3)  # district boundary
    d.rectangle(subject, outline=0, width=7)
    d.rectangle((subject[0] + 10, subject[1] + 10, subject[2] - 10, subject[3] - 10), fill=235)
    for label, (x, y) in districts:
        d.text((x, y), label, fill=40, font=bold, anchor="mm")
    d.text(
        ((subject[0] + subject[2]) // 2, (subject[1] + subject[3]) // 2),
        change,
        fill=0,
        font=bold,
        anchor="mm",
    )
    if boundary:
        d.line([(1120, 0), (1120, 800)], fill=0, width=4)
        d.text((1160, 400), boundary, fill=0, font=font, anchor="mm")
    d.rectangle((20, 700, 600, 780), fill=255, outline=0, width=2)
    d.rectangle((35, 722, 75, 758), outline=0, width=6)
    d.text((90, 740), "Area proposed for change", fill=0, font=font, anchor="lm")
    d.line([(400, 740), (450, 740)], fill=90, width=3)
    d.text((460, 740), "District line", fill=0, font=font, anchor="lm")
    d.polygon([(1140, 80), (1125, 120), (1155, 120)], fill=0)
    d.text((1140, 60), "N", fill=0, font=bold, anchor="mm")
    img.save(HERE / name, optimize=True)


if __name__ == "__main__":
    draw(
        "ep-2027-za-03.png",
        [("PAWTUCKET AVENUE", (0, 330, 1200, 390)), ("GREENWOOD AVENUE", (640, 0, 700, 800))],
        (720, 180, 980, 320),
        [("R-4", (300, 200)), ("R-4", (1000, 560)), ("C-2", (300, 560))],
        "R-4 → C-2",
        boundary=None,
    )
    draw(
        "newport-2027-map-01.png",
        [("BLISS ROAD", (0, 440, 1200, 500)), ("BROADWAY", (140, 0, 200, 800))],
        (260, 220, 620, 420),
        [("R-10", (80, 240)), ("R-10", (900, 240)), ("LB", (450, 620)), ("LB", (900, 620))],
        "R-10 → LB",
        boundary=None,
    )
    draw(
        "ok-2027-map-01.png",
        [
            ("WEST 3RD STREET", (30, 60, 1090, 110)),
            ("ALLEY", (180, 150, 810, 176)),
            ("WEST MAIN STREET", (0, 440, 1200, 500)),
            ("NORTH BIRCH AVENUE", (120, 0, 180, 690)),
            ("NORTH CEDAR AVENUE", (810, 0, 870, 800)),
        ],
        (520, 190, 800, 425),
        [("R-1", (350, 300)), ("R-1", (1000, 300)), ("C-2", (450, 600)), ("C-2", (1000, 600))],
        "R-1 → C-2",
        boundary=None,
    )
