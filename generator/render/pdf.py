"""PDF through WeasyPrint, sealed: a document sees only its own packet files and templates.

Packet files (the map) are served from memory under a fixed base URL, so the PDF does not
depend on where the packet is written (WeasyPrint names images by URL). WeasyPrint reports
most problems (a missing image, bad CSS) as log records and carries on; here they are
errors, so a PDF is never silently missing its map.
"""

from __future__ import annotations

import functools
import logging
import mimetypes
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from generator.errors import RenderError

PACKET_URL = "file:///packet/"
# Font subsetting falls back to fontTools without libharfbuzz-subset0: slower, not wrong.
_HARMLESS = ("Using fontTools instead of HarfBuzz-Subset",)


def _fetcher(files: dict[str, bytes], allowed: list[Path]) -> Any:
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # heavy

    folders = [p.resolve() for p in allowed]

    class SealedFetcher(URLFetcher):
        """Serve packet files and template folders; refuse everything else."""

        def fetch(self, url: str, headers: dict[str, str] | None = None) -> Any:
            if url.startswith("data:"):  # inline, as a map exported from a GIS embeds its image
                return super().fetch(url, headers)
            if url.startswith(PACKET_URL):
                name = unquote(url[len(PACKET_URL) :])
                if name not in files:
                    raise ValueError(f"no file {name!r} in the packet")
                kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
                return URLFetcherResponse(url, files[name], {"Content-Type": kind})
            parsed = urlparse(url)
            if parsed.scheme == "file":
                path = Path(unquote(parsed.path)).resolve()
                if any(path.is_relative_to(folder) for folder in folders):
                    return super().fetch(url, headers)
            raise ValueError(
                f"refusing to fetch {url}: only packet files and templates may be read"
            )

    return SealedFetcher(allowed_protocols={"file", "data"})


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if not message.startswith(_HARMLESS):
            self.messages.append(message)


def write_pdf(
    html: str, files: dict[str, bytes], allowed: list[Path], *, variant: str | None = None
) -> bytes:
    """Render HTML whose relative links name packet `files` (or templates) to PDF bytes."""
    return finish(lay_out(html, files, allowed), variant=variant)


def finish(document: Any, *, variant: str | None = None) -> bytes:
    """The PDF of a laid-out document (images are loaded only now, and checked like the rest)."""
    options: dict[str, Any] = {"pdf_variant": variant} if variant else {}
    return _checked(lambda: document.write_pdf(**options))


def lay_out(html: str, files: dict[str, bytes], allowed: list[Path]) -> Any:
    """Lay HTML out into pages (a WeasyPrint Document), to measure before writing the PDF."""
    from weasyprint import HTML

    return _checked(
        lambda: HTML(string=html, base_url=PACKET_URL, url_fetcher=_fetcher(files, allowed)).render(
            font_config=_font_config()
        )
    )


@functools.cache
def _font_config() -> Any:
    """One font configuration for every document of the process.

    WeasyPrint otherwise builds one (fontconfig's setup, Pango's font map) per document; the
    templates declare no web fonts, so every document sees the same installed fonts.
    """
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


def _checked(work: Callable[[], Any]) -> Any:
    """Run WeasyPrint work; any warning it logs (a missing image, bad CSS) is an error."""
    collect = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(collect)
    try:
        result = work()
    finally:
        logger.removeHandler(collect)
    if collect.messages:
        raise RenderError("PDF rendering: " + "; ".join(dict.fromkeys(collect.messages)))
    return result
