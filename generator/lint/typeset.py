"""A clause's type: the words a statute asks in "bold 14-point type or larger" are set so.

Where the clause is recognised (`checks.recognised_spans`: each sentence its terms name), its
letters are found again in the document's type (`extract.styled`) and every place it is printed
is checked: bold when the law asks bold, and no letter smaller than the law's size (NL018). A
plain-text or HTML file cannot show the type it will be printed in, and letters the linter cannot
match to their type are not checked either: both are said (NL019), never passed in silence.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.findings import Finding
from generator.lint import checks
from generator.lint.extract import Extracted
from generator.lint.extract.styled import Styled, docx_styled, pdf_styled
from generator.models.pack import ClauseType

_CANNOT_SHOW = {"txt": "plain text", "html": "an HTML page"}
_TOLERANCE = 0.05  # points: a PDF's sizes are products of matrices, 14 reads as 13.9999


def type_findings(path: Path, ext: Extracted, clauses: Any, name: str) -> list[Finding]:
    """NL018 for a typed clause printed in a smaller or lighter type; NL019 where not checked."""
    typed = [b for b in clauses if b.params.type is not None]
    if not typed:
        return []
    found = {id(b): checks.recognised_spans(b.params.checks, ext.text) for b in typed}
    typed = [b for b in typed if found[id(b)]]  # a clause not found at all is NL001
    if not typed:
        return []
    out: list[Finding] = []
    styled: Styled | None = None
    for b in typed:
        spans, kind = found[id(b)], b.params.type
        law = {
            "rule": b.rule.id,
            "citation": "; ".join(dict.fromkeys(b.citations)),
            "document": name,
        }
        if ext.format not in ("pdf", "docx"):
            out.append(
                Finding(
                    "NL019",
                    f"{b.rule.title}: the law asks {kind.describe()}, which"
                    f" {_CANNOT_SHOW.get(ext.format, 'this file')} cannot show; check it in the"
                    " PDF or the printed proof",
                    **law,
                )
            )
            continue
        if styled is None:
            if ext.format == "pdf":
                pages = {
                    p
                    for s, e in spans
                    for p in range(
                        ext.locate(s).page or 1, (ext.locate(max(s, e - 1)).page or 1) + 1
                    )
                }
                styled = pdf_styled(path, pages)
            else:
                styled = docx_styled(path)
        out += _judge(b.rule.title, kind, spans, ext, styled, law)
    return out


def _judge(
    title: str,
    kind: ClauseType,
    spans: list[tuple[int, int]],
    ext: Extracted,
    styled: Styled,
    law: dict[str, Any],
) -> list[Finding]:
    places: dict[int, tuple[range, tuple[int, int]]] = {}
    for span in spans:
        for letters in styled.find(ext.text[span[0] : span[1]]):
            places.setdefault(letters.start, (letters, span))
    if not places:
        return [
            Finding(
                "NL019",
                f"{title}: the law asks {kind.describe()}, but the linter could not match the"
                " clause's letters to their type; check it by eye",
                **law,
            )
        ]
    wrong = []
    for letters, span in places.values():
        sizes = [s for s in (styled.sizes[i] for i in letters) if s is not None]
        smallest = min(sizes) if sizes else None
        bold = [styled.bold[i] for i in letters]
        small = (
            kind.min_points is not None
            and smallest is not None
            and smallest < kind.min_points - _TOLERANCE
        )
        light = kind.bold and not all(bold)
        if small or light:
            wrong.append((letters, span, smallest, bold))
    if not wrong:
        return []
    letters, span, smallest, bold = wrong[0]
    weight = "bold" if all(bold) else "partly bold" if any(bold) else "regular"
    size = f"{smallest:g}-point " if smallest is not None else ""
    where = checks.located(ext, *span)
    page = styled.pages[letters.start]
    if page is not None and page != where["page"]:
        where.update(page=page, line=None)  # the same words printed again, on another page
    times = f" ({len(wrong)} of the {len(places)} places it is printed)" if len(places) > 1 else ""
    return [
        Finding(
            "NL018",
            f"{title}: set in {size}{weight} type{times}; the law asks {kind.describe()}",
            **law,
            **where,
        )
    ]
