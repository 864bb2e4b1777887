"""The review folder: the first page of every document as a PNG, and an index.html.

The index shows each page with the audit's findings beside it.
"""

from __future__ import annotations

import html
import os
import subprocess
from pathlib import Path

DPI = 50
LARGE_IN = 20  # a sign at 50 dpi would be 4,800 px wide: larger pages are scaled to fit
LARGE_PX = 1600


def render_first_page(pdf: Path, png: Path, width_in: float, height_in: float) -> None:
    """Page 1 of `pdf` as `png` (pdftoppm at 50 dpi; a page over 20 in scaled to 1,600 px)."""
    png.parent.mkdir(parents=True, exist_ok=True)
    size = ["-scale-to", str(LARGE_PX)] if max(width_in, height_in) > LARGE_IN else ["-r", str(DPI)]
    subprocess.run(
        ["pdftoppm", "-png", "-f", "1", "-l", "1", "-singlefile", *size, pdf, png.with_suffix("")],
        check=True,
    )


def index(review: Path, packets: list[tuple[str, list[tuple[Path, Path, list[str]]]]]) -> Path:
    """Write review/index.html: per packet, each document's first page and its findings.

    `packets`: (packet name, [(pdf, png, findings)]).
    """
    total = sum(len(f) for _, docs in packets for _, _, f in docs)
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8"><title>Packet review</title>',
        "<style>body{font:14px/1.4 sans-serif;margin:2em}figure{display:inline-block;"
        "vertical-align:top;margin:0 1.5em 1.5em 0;max-width:340px}img{max-width:320px;"
        "border:1px solid #888}figcaption{margin-top:.3em}ul{padding-left:1.2em;color:#a00}"
        ".ok{color:#070}</style></head><body>",
        f"<h1>Packet review</h1><p>{len(packets)} packets, {total} findings. The first page of"
        " each PDF; click for the whole document.</p>",
    ]
    for name, docs in packets:
        count = sum(len(f) for _, _, f in docs)
        out.append(f'<h2 id="{html.escape(name)}">{html.escape(name)} ({count} findings)</h2>')
        for pdf, png, findings in docs:
            pdf_href = html.escape(os.path.relpath(pdf, review))
            png_href = html.escape(os.path.relpath(png, review))
            items = "".join(f"<li>{html.escape(f)}</li>" for f in findings)
            notes = f"<ul>{items}</ul>" if findings else '<div class="ok">no findings</div>'
            out.append(
                f'<figure><a href="{pdf_href}"><img src="{png_href}" alt="page 1 of'
                f' {html.escape(pdf.name)}"></a><figcaption><b>{html.escape(pdf.name)}</b>'
                f"{notes}</figcaption></figure>"
            )
    out.append("</body></html>")
    path = review / "index.html"
    path.write_text("\n".join(out) + "\n")
    return path
