"""How much of a file the linter will read, and for how long: a notice to lint may come from anyone.

Each limit sits well above the largest document the product makes — the letters of a
10,000-owner mailing (`bench/mailing.py`): a 20,000-page PDF that expands to 16 MB, and a Word
file whose document.xml expands to 133 MB (98:1), read in about 25 s and 55 s on two busy
cores — and far below what would exhaust a two-core machine with a few GB of memory. The sizes
are checked before anything is expanded or parsed. A document over a limit is not read: the
linter reports NL013, naming the file and the limit (`LimitError`).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

from generator.errors import Problem, UserError

MIB = 1024 * 1024

# A text or HTML notice is read whole. Ours are tens of KB; a whole zoning code in one is a few MB.
TEXT_BYTES = 16 * MIB
# A PDF file: the 10,000-letter mailing is 8 MB; a scanned 50-page notice at 300 dpi ~50 MB.
PDF_BYTES = 256 * MIB
# Pages of a PDF: a notice is a few pages, a mailing two per letter (20,000 for 10,000
# letters); 50,000 is a mailing of 25,000 owners, more than any hearing's radius holds.
PDF_PAGES = 50_000
# What a PDF's streams (page contents, forms, fonts; not images, which text is not read from)
# expand to: 16 MB for the 10,000 letters. pdfium holds about twice this while it reads.
PDF_EXPANDED = 256 * MIB
# A stream compressed other than by Flate (LZW, RunLength) is expanded only when its compressed
# form is at most this: LZW can expand 2,700-fold, and none of the producers of notices use it.
PDF_OTHER_FILTER_BYTES = 64 * 1024
# Parts of a Word file: ours have 22; one per picture, header and footer in a clerk's.
DOCX_ENTRIES = 1_000
# All the parts of a Word file, expanded: 133 MB for the 10,000 letters (parsed as it inflates).
DOCX_BYTES = 160 * MIB
# Expanded ÷ compressed, for a part over 1 MiB: the 10,000 letters' document.xml is 98:1, the
# most repetitive part the product makes; a deflate bomb is near 1,000:1.
DOCX_RATIO = 200
DOCX_RATIO_FROM = MIB
# Characters measured on a sign's or an ad's first page (pdfplumber reads ~20,000 a second);
# a 4 × 8 ft sign carries a few hundred.
MEASURED_CHARS = 20_000
# Seconds one document may take to read and check, a backstop for what the sizes do not bound:
# four times the largest mailing's Word letters under load.
SECONDS = 240
# Seconds between rings once the time is up, until the document's reading stops.
AGAIN = 0.05


class LimitError(UserError):
    """A document larger than the linter reads; its message names the file and the limit."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(Problem(str(path), None, None, "", message))
        self.reason = message


def over(path: Path, message: str) -> NoReturn:
    """Refuse `path`: `message` says which limit it passes (`LimitError`)."""
    raise LimitError(path, message)


def size(n: float) -> str:
    """`n` bytes as a reader says it: 160 MiB, 12 KiB, 900 bytes."""
    for unit, scale in (("MiB", MIB), ("KiB", 1024)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{int(n)} bytes"


class TimeUp(BaseException):
    """The document's time ran out (a BaseException: no `except Exception` on the way keeps it)."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise `TimeUp` in the body once `seconds` have passed (main thread, POSIX; else no limit).

    A Python signal handler runs between bytecodes, so a long call into pdfium or libxml2 ends
    first; the size limits bound those calls. When the handler happens to run inside a finalizer
    (a `__del__`, a `weakref.finalize` the garbage collector calls), Python prints the exception
    and drops it: so the clock rings again every `AGAIN` seconds until the body has ended.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return
    armed = True

    def ring(signum: int, frame: object) -> None:
        if armed:
            raise TimeUp

    before = signal.signal(signal.SIGALRM, ring)
    started = time.monotonic()
    pending = (0.0, 0.0)
    try:
        pending = signal.setitimer(signal.ITIMER_REAL, seconds, AGAIN)
        yield
    finally:
        armed = False
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            signal.signal(signal.SIGALRM, before)
            if pending[0]:  # a timer someone else set: it runs on, less the time spent here
                left = pending[0] - (time.monotonic() - started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3), pending[1])
