"""CSV files a spreadsheet may open: values from a case or a parcel layer stay data.

A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to Excel,
LibreOffice and Google Sheets (OWASP, "CSV Injection"). Every such cell is written with a
leading apostrophe, which a spreadsheet shows as text and does not run; `value()` reads it back.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

# What a spreadsheet takes for the start of a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """`value` as a cell: a string a spreadsheet would run is prefixed with an apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def value(text: str) -> str:
    """A cell as written by `cell()`, back to the value it holds."""
    if text.startswith("'") and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text


def write(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """A UTF-8 CSV of `header` and `rows`, every cell neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([cell(v) for v in row] for row in rows)
    return out.getvalue().encode("utf-8")
