"""The pack page: the rules that bind the case, as `notices explain --case` lists them, as a checklist.

Each rule with its id, title, citations and paraphrased text (and the local rules that supplement
it); once the packet is built, what the packet says of it: the documents that carry it and the
findings raised under it. Which rules bind is the pipeline's answer (`prepare`), not this page's.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from generator.web import packets
from generator.web.render import page

# case file → (its and its packet's manifest's mtimes, prepared): prepare takes seconds, and a
# rebuild (after the packs changed) or an edit of the case invalidates it.
_CACHE: dict[Path, tuple[tuple[int, int], Any]] = {}
_LOCK = threading.Lock()


def pack_page(request: Request) -> HTMLResponse:
    """GET /cases/{case_id}/pack: the binding rules, each with what the packet says of it."""
    case_id, folder = packets.case_folder(request)
    prepared = _prepared(packets.workspace(request).case_path(case_id), folder)
    data = packets.manifest(folder)
    findings = (data or {}).get("findings", [])
    documents = (data or {}).get("documents", [])
    resolved = prepared.pack
    rules: list[dict[str, Any]] = []
    anchors: set[str] = set()
    for item in in_force(prepared):
        ids = [item.rule.id, *(c.id for c in item.children)]
        anchor = _anchor(item.rule.id, anchors)
        raised = [f for f in findings if f.get("rule") in ids]
        rules.append(
            {
                "id": item.rule.id,
                "anchor": anchor,
                "kind": item.rule.kind,
                "title": item.rule.title,
                "citation": item.rule.citation,
                "text": " ".join(item.rule.text.split()),
                "children": [
                    {
                        "id": c.id,
                        "anchor": _anchor(c.id, anchors),
                        "citation": c.citation,
                        "text": " ".join(c.text.split()),
                    }
                    for c in item.children
                ],
                "differences": item.differences,
                "documents": [d["path"] for d in documents if set(ids) & set(d.get("rules", []))],
                "findings": raised,
                "worst": _worst(raised),
            }
        )
    return page(
        request,
        "pack.html",
        case_id=case_id,
        links=packets.links(request, case_id),
        built=data is not None,
        chain=[{"id": pf.pack.id, "name": pf.pack.name} for pf in resolved.chain],
        version=resolved.pack.version,
        verified=resolved.pack.last_verified_on,
        rules=rules,
    )


def in_force(prepared: Any) -> list[Any]:
    """The checklist items of the rules binding the case in the versions in force on its hearings.

    A rule's versions share an id (`effective:` dates); a hearing binds one version of each.
    """
    from generator.rules import explain

    seen: set[int] = set()
    out = []
    for day in sorted({h.date for h in prepared.case.hearings}):
        for item in explain.items(prepared.pack, day, prepared.rule_ids):
            if id(item.rule) not in seen:
                seen.add(id(item.rule))
                out.append(item)
    return out


def _anchor(rule_id: str, taken: set[str]) -> str:
    """The rule's anchor on the page, `rule-ID` (`rule-ID-2` for a second version of it)."""
    anchor, n = f"rule-{rule_id}", 1
    while anchor in taken:
        n += 1
        anchor = f"rule-{rule_id}-{n}"
    taken.add(anchor)
    return anchor


def _worst(findings: list[dict[str, Any]]) -> str | None:
    severities = {f["severity"] for f in findings}
    return next((s for s in ("error", "warning", "info") if s in severities), None)


def _prepared(path: Path, folder: Path) -> Any:
    """The case prepared (cached until the case or its packet changes); 404 without a case file."""
    from generator.errors import UserError
    from generator.prepare import prepare

    if not path.is_file():
        raise HTTPException(404)
    built = folder / packets.MANIFEST
    stamp = (path.stat().st_mtime_ns, built.stat().st_mtime_ns if built.is_file() else 0)
    with _LOCK:
        hit = _CACHE.get(path)
    if hit and hit[0] == stamp:
        return hit[1]
    try:
        prepared = prepare(path)
    except UserError as exc:
        raise HTTPException(422, str(exc)) from None
    with _LOCK:
        _CACHE[path] = (stamp, prepared)
    return prepared


routes = [Route("/cases/{case_id}/pack", pack_page, name="pack")]
