"""PDF through WeasyPrint, sealed: a document sees only its own packet files and templates.

Packet files (the map) are served from memory under a fixed base URL, so the PDF does not
depend on where the packet is written (WeasyPrint names images by URL). WeasyPrint reports
most problems (a missing image, bad CSS) as log records and carries on; here they are
errors, so a PDF is never silently missing its map.
"""

from __future__ import annotations

import functools
import importlib
import logging
import mimetypes
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from generator.errors import RenderError

PACKET_URL = "file:///packet/"
# Font subsetting falls back to fontTools without libharfbuzz-subset0: slower, not wrong.
_HARMLESS = ("Using fontTools instead of HarfBuzz-Subset",)


def _fetcher(files: dict[str, bytes], allowed: list[Path]) -> Any:
    _import_weasyprint()
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
    _import_weasyprint()
    from weasyprint import HTML

    return _checked(
        lambda: HTML(string=html, base_url=PACKET_URL, url_fetcher=_fetcher(files, allowed)).render(
            font_config=_font_config()
        )
    )


def load() -> None:
    """Import WeasyPrint and set up the fonts, what the first PDF of a process would pay."""
    _font_config()


@functools.cache
def _import_weasyprint() -> None:
    """Import WeasyPrint, on Linux without the library search it would run for nothing.

    WeasyPrint loads each C library (Pango, HarfBuzz, fontconfig...) by trying its Windows,
    macOS and Linux names in turn, and for each name that does not load, cffi asks
    `ctypes.util.find_library`, which runs ldconfig, gcc and ld: some fifty programs, about
    0.1 s of CPU and more of waiting, in every process that imports it. On Linux
    find_library can only answer a library's soname (`libpango-1.0.so.0`), which is in
    each of WeasyPrint's lists and loads by itself, so there the search is skipped.
    """
    if not sys.platform.startswith("linux") or "weasyprint" in sys.modules:
        return
    import ctypes.util

    search = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    try:
        importlib.import_module("weasyprint")
    finally:
        ctypes.util.find_library = search


@functools.cache
def _font_config() -> Any:
    """One font configuration for every document of the process.

    WeasyPrint otherwise builds one (fontconfig's setup, Pango's font map) per document; the
    templates declare no web fonts, so every document sees the same installed fonts.
    """
    _import_weasyprint()
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
