"""The packet review page: every document with its first page, the findings, the manifest, the map.

It reads what `notices build` wrote into the packet folder and decides nothing itself. Files are
served by name through the workspace; thumbnails are rendered once per file content and cached
outside the packet (`<folder>/.notices-cache/thumbs/<sha256>.png`), so a rebuild never sees them.
"""

from __future__ import annotations

import hashlib
import threading
from collections import defaultdict
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Route

from generator.web import pack, packets, recipients, schedule
from generator.web.render import page

THUMB_WIDTH = 180  # pixels: a first page the eye recognises, a few kB
CACHE = ".notices-cache/thumbs"
_PDFIUM = threading.Lock()  # pdfium is not thread-safe; sync handlers run in a pool


def packet_page(request: Request) -> HTMLResponse:
    """GET /cases/{case_id}: the packet's documents, findings and manifest, or "not built yet"."""
    case_id, folder = packets.case_folder(request)
    data = packets.manifest(folder)
    if data is None:
        return page(
            request,
            "packet.html",
            case_id=case_id,
            links=packets.links(request, case_id),
            built=False,
        )
    names = {p.name for p in folder.iterdir() if p.is_file()}
    return page(
        request,
        "packet.html",
        case_id=case_id,
        links=packets.links(request, case_id),
        built=True,
        m=data,
        documents=_documents(request, case_id, data, names),
        findings=_findings(request, case_id, data, names),
        counts=_counts(data["findings"]),
        raw=(folder / packets.MANIFEST).read_text(encoding="utf-8"),
    )


def _documents(
    request: Request, case_id: str, data: dict[str, Any], names: set[str]
) -> list[dict[str, Any]]:
    """The manifest's documents, one entry per document with all its formats (letters.pdf, .docx)."""
    from generator.documents.registry import DOCUMENTS  # heavy: only when a page needs it

    summaries: dict[str, str] = {}
    for d in DOCUMENTS:  # a kind's first type is its main one (letters before returned letters)
        summaries.setdefault(d.kind.value, d.summary)
    groups: dict[str, dict[str, Any]] = {}
    for doc in data["documents"]:
        stem = doc["path"].rsplit(".", 1)[0]
        group = groups.setdefault(
            stem,
            {
                "stem": stem,
                "kind": doc["kind"],
                "summary": summaries.get(doc["kind"], ""),
                "rules": [],
                "files": [],
                "thumb": None,
            },
        )
        group["rules"] += [r for r in doc.get("rules", []) if r not in group["rules"]]
        url = request.url_for("packet_file", case_id=case_id, name=doc["path"])
        group["files"].append({**doc, "url": url, "present": doc["path"] in names})
    for group in groups.values():
        present = {f["path"] for f in group["files"]} & names
        thumb = _thumb_source(present)
        image = min((f for f in present if f.endswith((".png", ".svg", ".jpg"))), default=None)
        if thumb:
            group["thumb"] = request.url_for("thumbnail", case_id=case_id, name=thumb)
        elif image:  # the map: itself
            group["thumb"] = request.url_for("packet_file", case_id=case_id, name=image)
    return list(groups.values())


def _thumb_source(files: set[str]) -> str | None:
    """The PDF whose first page stands for the document (HTML, TXT, Word: their PDF twin)."""
    return min((f for f in files if f.endswith(".pdf")), default=None)


def _findings(
    request: Request, case_id: str, data: dict[str, Any], names: set[str]
) -> list[dict[str, Any]]:
    """The findings grouped by document (the case as a whole first), each with a link to its place."""
    grouped: dict[str | None, list[dict[str, Any]]] = defaultdict(list)
    for f in data["findings"]:
        grouped[f.get("document")].append({**f, "href": _place(request, case_id, f, names)})
    order = sorted(grouped, key=lambda d: (d is not None, d or ""))
    return [{"document": d, "entries": grouped[d]} for d in order]


def _place(request: Request, case_id: str, f: dict[str, Any], names: set[str]) -> str | None:
    """A link to where the finding is: `#page=N` in a PDF, the quoted words in an HTML page."""
    doc = f.get("document")
    if not doc or doc not in names:
        return None
    url = str(request.url_for("packet_file", case_id=case_id, name=doc))
    where = f.get("location") or {}
    if doc.endswith(".pdf") and where.get("page"):
        return f"{url}#page={int(where['page'])}"
    if doc.endswith((".html", ".txt")) and where.get("quote"):
        return f"{url}#:~:text={quote(str(where['quote']), safe='')}"  # a text fragment
    return url


def _counts(findings: list[dict[str, Any]]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f["severity"]] = counts.get(f["severity"], 0) + 1
    return counts


def packet_file(request: Request) -> Response:
    """GET /cases/{case_id}/files/{name}: a file of the packet, inline or (`?download=1`) saved."""
    case_id, _ = packets.case_folder(request)
    path = packets.packet_file(request, case_id, request.path_params["name"])
    return packets.file_response(path, download=request.query_params.get("download") == "1")


def thumbnail(request: Request) -> Response:
    """GET /cases/{case_id}/thumbs/{name}.png: the first page of a PDF of the packet, small."""
    case_id, _ = packets.case_folder(request)
    name = request.path_params["name"]
    if not name.endswith(".pdf"):
        raise HTTPException(404)
    pdf = packets.packet_file(request, case_id, name)
    data = pdf.read_bytes()
    cache = packets.workspace(request).root / CACHE
    png = cache / f"{hashlib.sha256(data).hexdigest()}.png"
    if not png.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        partial = png.with_suffix(f".{threading.get_ident()}.tmp")
        partial.write_bytes(_first_page(data))
        partial.replace(png)  # whole or not at all, even with two requests at once
    return FileResponse(
        png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"}
    )


def _first_page(pdf: bytes) -> bytes:
    """Page 1 of `pdf` as a PNG `THUMB_WIDTH` pixels wide."""
    import io

    import pypdfium2  # heavy: only when a thumbnail is not cached yet

    with _PDFIUM:
        doc = pypdfium2.PdfDocument(pdf)
        try:
            first = doc[0]
            image = first.render(scale=THUMB_WIDTH / first.get_width()).to_pil()
        except IndexError:
            raise HTTPException(404) from None
        finally:
            doc.close()
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def map_page(request: Request) -> HTMLResponse:
    """GET /cases/{case_id}/map: the packet's map, its caption, the subject parcels and distances."""
    case_id, folder = packets.case_folder(request)
    data = packets.manifest(folder)
    maps = [d for d in (data or {}).get("documents", []) if d["kind"] == "map"]
    shown = next((d for d in maps if d["format"] == "svg"), maps[0] if maps else None)
    figure: dict[str, str] = {}
    carried: list[str] = []
    if shown:
        for html in sorted(folder.glob("*.html")):
            found = _figure(html.read_text(encoding="utf-8"), {d["path"] for d in maps})
            if found:
                figure = figure or found
                carried.append(html.stem)
    twins = [
        d["path"]
        for d in (data or {}).get("documents", [])
        if d["path"].rsplit(".", 1)[0] in carried
    ]
    return page(
        request,
        "map.html",
        case_id=case_id,
        links=packets.links(request, case_id),
        built=data is not None,
        maps=[
            {**d, "url": request.url_for("packet_file", case_id=case_id, name=d["path"])}
            for d in maps
        ],
        shown=shown,
        figure=figure,
        documents=twins,
        parcels=_parcels(request, case_id),
        distances=(data or {}).get("recipients", {}).get("rules", []),
    )


def _parcels(request: Request, case_id: str) -> list[Any]:
    """The subject parcels the case file names (none when it is gone or does not load)."""
    case = packets.loaded_case(request, case_id)
    return list(case.parcels) if case else []


class _MapFigure(HTMLParser):
    """The `<figure class="map">` of a notice: its image's file and alt text, and its caption."""

    def __init__(self, files: set[str]) -> None:
        super().__init__()
        self.files, self.depth, self.in_caption = files, 0, False
        self.found: dict[str, str] = {}
        self.caption: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "figure" and "map" in (a.get("class") or "").split():
            self.depth += 1
        elif self.depth and tag == "img" and a.get("src") in self.files:
            self.found = {"src": a.get("src") or "", "alt": a.get("alt") or ""}
        elif self.depth and tag == "figcaption":
            self.in_caption = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "figcaption":
            self.in_caption = False
        elif tag == "figure" and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.in_caption and self.found:
            self.caption.append(data)


def _figure(html: str, files: set[str]) -> dict[str, str]:
    """The map figure of an HTML document of the packet, if it carries one of `files`."""
    parser = _MapFigure(files)
    parser.feed(html)
    if not parser.found:
        return {}
    return {**parser.found, "caption": " ".join("".join(parser.caption).split())}


routes = [
    Route("/cases/{case_id}", packet_page, name="packet"),
    Route("/cases/{case_id}/files/{name}", packet_file, name="packet_file"),
    Route("/cases/{case_id}/thumbs/{name}.png", thumbnail, name="thumbnail"),
    Route("/cases/{case_id}/map", map_page, name="map"),
    *schedule.routes,
    *recipients.routes,
    *pack.routes,
]
