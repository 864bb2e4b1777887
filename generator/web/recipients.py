"""The recipients page: the packet's recipients.csv as a table, sorted, searched and paged.

Everything is done on the server (`?sort=&dir=&q=&page=`), so the page works without script and
10,000 recipients make a page of `PAGE_SIZE` rows. The download is the packet's own CSV file,
which the build already made safe to open in a spreadsheet.
"""

from __future__ import annotations

import csv
import io
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from generator.web import packets
from generator.web.render import page

PAGE_SIZE = 100
CSV = "recipients.csv"


@dataclass(frozen=True)
class Table:
    """A CSV file read: its header and rows."""

    columns: list[str]
    rows: list[list[str]]


_CACHE: dict[Path, tuple[tuple[int, int], Table]] = {}
_LOCK = threading.Lock()


def read_table(path: Path) -> Table:
    """The CSV at `path`, read once per version of the file (a rebuild changes its size or time)."""
    stat = path.stat()
    key = (stat.st_mtime_ns, stat.st_size)
    with _LOCK:
        hit = _CACHE.get(path)
        if hit and hit[0] == key:
            return hit[1]
    reader = csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig")))
    columns = next(reader, [])
    table = Table(columns, [row + [""] * (len(columns) - len(row)) for row in reader])
    with _LOCK:
        _CACHE[path] = (key, table)
    return table


def recipients_page(request: Request) -> HTMLResponse:
    """GET /cases/{case_id}/recipients: the table, `?sort=COLUMN&dir=asc|desc&q=WORDS&page=N`."""
    case_id, folder = packets.case_folder(request)
    path = folder / CSV
    if not path.is_file():
        return page(
            request,
            "recipients.html",
            case_id=case_id,
            links=packets.links(request, case_id),
            built=False,
        )
    table = read_table(path)
    params = request.query_params
    sort = params.get("sort") if params.get("sort") in table.columns else None
    descending = params.get("dir") == "desc"
    q = params.get("q", "").strip()
    rows = search(table.rows, q)
    if sort:
        rows = sorted(rows, key=_sort_key(table.columns.index(sort)), reverse=descending)
    shown = [i for i, _ in enumerate(table.columns) if any(r[i] for r in table.rows)]
    pages = max(1, -(-len(rows) // PAGE_SIZE))
    number = min(max(_int(params.get("page"), 1), 1), pages)
    state = {"q": q, "sort": sort, "dir": "desc" if descending else "asc"}
    return page(
        request,
        "recipients.html",
        case_id=case_id,
        links=packets.links(request, case_id),
        built=True,
        columns=[_header(request, table.columns[i], state) for i in shown],
        rows=[[r[i] for i in shown] for r in rows[(number - 1) * PAGE_SIZE : number * PAGE_SIZE]],
        empty=[c for i, c in enumerate(table.columns) if i not in shown],
        total=len(table.rows),
        matched=len(rows),
        page_number=number,
        pages=pages,
        first=(number - 1) * PAGE_SIZE + 1,
        prev_url=_url(request, state, page=number - 1) if number > 1 else None,
        next_url=_url(request, state, page=number + 1) if number < pages else None,
        q=q,
        sort=sort,
        dir=state["dir"],
    )


def recipients_csv(request: Request) -> Response:
    """GET /cases/{case_id}/recipients.csv: the packet's own file, to save."""
    case_id, _ = packets.case_folder(request)
    return packets.file_response(packets.packet_file(request, case_id, CSV), download=True)


def search(rows: list[list[str]], q: str) -> list[list[str]]:
    """The rows holding every word of `q` (any case), in any column."""
    words = q.casefold().split()
    if not words:
        return rows
    return [r for r in rows if all(w in "\x1f".join(r).casefold() for w in words)]


def _sort_key(index: int) -> Any:
    """Numbers as numbers (distances), words without case, empty cells last either way."""

    def key(row: list[str]) -> tuple[int, float, str]:
        value = row[index].strip()
        try:
            return (0, float(value), "")
        except ValueError:
            return (1 if value else 2, 0.0, value.casefold())

    return key


def _header(request: Request, column: str, state: dict[str, Any]) -> dict[str, Any]:
    """A column's header: the link that sorts by it (the other way when it is the sort already)."""
    current = state["sort"] == column
    flip = "desc" if current and state["dir"] == "asc" else "asc"
    aria = ("ascending" if state["dir"] == "asc" else "descending") if current else None
    return {
        "name": column,
        "url": _url(request, {**state, "sort": column, "dir": flip}),
        "aria_sort": aria,
    }


def _url(request: Request, state: dict[str, Any], **more: Any) -> str:
    from urllib.parse import urlencode

    query = {k: v for k, v in {**state, **more}.items() if v not in (None, "")}
    base = request.url_for("recipients", case_id=request.path_params["case_id"])
    return f"{base}?{urlencode(query)}" if query else str(base)


def _int(raw: str | None, default: int) -> int:
    try:
        return int(raw) if raw else default
    except ValueError:
        return default


routes = [
    Route("/cases/{case_id}/recipients", recipients_page, name="recipients"),
    Route("/cases/{case_id}/recipients.csv", recipients_csv, name="recipients_csv"),
]
