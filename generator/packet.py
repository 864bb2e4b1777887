"""The one orchestrator: load → plan → render → check → write the packet and its manifest.

A packet is written whole or not at all: everything renders in memory, is staged in a folder
beside the packet, and moves in only when all of it rendered. A generated file that someone edited
since the last build is kept as `<name>.edited-N.<ext>`, never overwritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from generator import __version__, recipients, schedule
from generator.documents import DocumentKind, Format
from generator.errors import UserError
from generator.inputs import NEWSPAPERS, CaseFile, load_case, sha256_file
from generator.plan import Finding, MapInfo, Plan, plan
from generator.proofs import posting_proofs, proof_outputs, publication_proofs
from generator.render import calendar_file, docx, pdf, templates
from generator.render import context as ctx
from generator.rules.loader import ROOT, ResolvedPack, resolve

MANIFEST = "manifest.json"
LINT_REPORT = "lint_report.json"
LIBRARIES = ("weasyprint", "docxtpl", "python-docx", "jinja2", "markdown", "pydantic", "pyyaml")


@dataclass
class Output:
    """One rendered file of a packet."""

    kind: DocumentKind
    format: Format
    path: str
    data: bytes
    rules: tuple[str, ...] = ()  # the rules that require the document

    @property
    def sha256(self) -> str:
        """The file's sha256."""
        return hashlib.sha256(self.data).hexdigest()


@dataclass
class Result:
    """What a build did: the packet folder, its manifest, and what was kept aside."""

    folder: Path
    manifest: dict
    kept: list[str] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        """Whether the packet has every required part."""
        return bool(self.manifest["ready"])


def build(case_path: Path, out_root: Path, progress: Callable[[int], None] | None = None) -> Result:
    """Build the packet of one case into `out_root/<case-id>/` (`progress` counts letters made)."""
    cf, pack, found, deadlines = prepare(case_path)
    late = schedule.check_in_time(cf, pack, deadlines, schedule.judged_on(cf.case))
    if late:
        raise UserError(late)
    the_plan = plan(cf.case, pack, _case_map(cf))
    if the_plan.map is None and the_plan.needs_map and found.subject is not None:
        the_plan = plan(cf.case, pack, _drawn_map(cf, found))
    outputs = render(the_plan, cf, deadlines) + recipient_outputs(found)
    mail_outputs, mail_findings = mailing_outputs(the_plan, cf, found)
    made_letters = letter_outputs(the_plan, cf, found, deadlines, progress)
    posted, posted_findings = posted_outputs(the_plan, cf, deadlines)
    proofs = [
        Output(*t)
        for t in proof_outputs(the_plan, cf, found, deadlines)
        + publication_proofs(the_plan, cf, deadlines)
        + posting_proofs(the_plan, cf, deadlines)
    ]
    outputs += mail_outputs + made_letters + posted + proofs
    given = {rule for o in made_letters + posted + proofs for rule in o.rules}  # not "by hand"
    the_plan.findings = [
        f for f in the_plan.findings if not (f.code == "PLAN007" and f.rule in given)
    ]
    rank = {"error": 0, "warning": 1, "info": 2}
    every = (
        the_plan.findings
        + found.findings
        + mail_findings
        + posted_findings
        + schedule.findings(cf.case, deadlines)
    )
    findings = sorted(every + check_markers(the_plan, outputs), key=lambda f: rank[f.severity])
    manifest = _manifest(cf, the_plan, outputs, findings)
    if found.provenance["method"] or found.recipients:
        manifest["recipients"] = found.provenance
    from generator.lint.engine import Context

    return _write(out_root / cf.id, outputs, manifest, Context(cf.case, cf, the_plan, deadlines))


def prepare(
    case_path: Path,
) -> tuple[CaseFile, ResolvedPack, recipients.RecipientList, list[schedule.Deadline]]:
    """Load a case, its pack, its recipients (GIS facts included) and deadlines: build and lint."""
    cf = load_case(case_path)
    pack = resolve(cf.case.jurisdiction)
    found = recipients.collect(cf, pack)
    cf = replace(cf, case=found.case)  # with the facts the GIS layers answered
    return cf, pack, found, schedule.compute(cf.case, pack)


def render(the_plan: Plan, cf: CaseFile, deadlines: list[schedule.Deadline]) -> list[Output]:
    """Render every planned document, and the schedule, in every format."""
    pack = the_plan.pack
    outputs: list[Output] = []
    the_map = the_plan.map
    if the_map:
        suffix = the_map.name.rsplit(".", 1)[1].replace("jpeg", "jpg")
        outputs.append(Output(DocumentKind.MAP, Format(suffix), the_map.name, the_map.data))
        if the_map.raster and the_map.name.endswith(".svg"):
            outputs.append(Output(DocumentKind.MAP, Format.PNG, "map.png", the_map.raster))
    stylesheet = templates.find(pack, "notice.css").read_text(encoding="utf-8")
    html_env = templates.environment(pack, autoescape=True)
    text_env = templates.environment(pack, autoescape=False)
    files = {o.path: o.data for o in outputs}
    for doc in the_plan.documents:
        context = ctx.build(the_plan, doc, stylesheet)
        rules = tuple(rule_id for b in doc.notices for rule_id in b.ids)
        context["publication_dates"] = schedule.issues_of(deadlines, rules, doc.hearing)
        base = doc.kind.value
        html = templates.render(html_env, f"{base}.html.j2", context)
        text = templates.tidy_text(templates.render(text_env, f"{base}.txt.j2", context))
        outputs.append(Output(doc.kind, Format.TXT, f"{doc.name}.txt", text.encode(), rules))
        outputs.append(Output(doc.kind, Format.HTML, f"{doc.name}.html", html.encode(), rules))
        data = pdf.write_pdf(html, files, templates.search_path(pack))
        outputs.append(Output(doc.kind, Format.PDF, f"{doc.name}.pdf", data, rules))
        data = docx.render(
            pack,
            templates.find(pack, f"{base}.docx"),
            context,
            full_text=cf.case.amendment.full_text if cf.case.amendment.print_full_text else None,
            map_image=the_map.word_image if the_map else None,
            title=f"Notice of {pack.terms['hearing']} — {cf.case.case_number}",
        )
        outputs.append(Output(doc.kind, Format.DOCX, f"{doc.name}.docx", data, rules))
    outputs += _schedule_outputs(the_plan, cf, deadlines, html_env, stylesheet)
    return outputs


def posted_outputs(
    the_plan: Plan, cf: CaseFile, deadlines: list[schedule.Deadline]
) -> tuple[list[Output], list[Finding]]:
    """Display ads, posting sheets, website notices, signs at print size, posters legible from afar."""
    from generator.display_ad import display_ad_outputs
    from generator.postings import posting_outputs

    made, findings = display_ad_outputs(the_plan, cf, deadlines)
    made += posting_outputs(the_plan, cf, deadlines)
    posters = [
        replace(doc, name=f"{doc.name}-poster")
        for doc in the_plan.postings
        if any(b.params.legible_from_ft for b in doc.formats)  # type: ignore[attr-defined]
    ]
    if the_plan.signs or posters:
        from generator import signs

        more, sign_findings = signs.sign_outputs(the_plan, cf, deadlines, the_plan.signs + posters)
        made, findings = made + more, findings + sign_findings
    return [Output(*t) for t in made], findings


def _case_map(cf: CaseFile) -> MapInfo | None:
    """The map image the clerk supplied, if any."""
    m = cf.case.map
    if m is None:
        return None
    suffix = m.image.rsplit(".", 1)[-1].lower()
    alt = m.alt or m.caption or "Map of the proposed change"
    return MapInfo(
        f"map.{suffix}", cf.resolve(m.image).read_bytes(), m.caption, alt, tuple(m.shows)
    )


def _drawn_map(cf: CaseFile, found: recipients.RecipientList) -> MapInfo | None:
    """A map drawn from the GIS layers (SVG for HTML and PDF, PNG for Word)."""
    from generator.gis.notice_map import draw_change  # matplotlib only when needed

    drawn = draw_change(cf, found)
    if drawn is None:
        return None
    return MapInfo(
        "map.svg", drawn.svg, drawn.caption, drawn.alt, tuple(drawn.shows), drawn.png, drawn=True
    )


def recipient_outputs(found: recipients.RecipientList) -> list[Output]:
    """recipients.csv and, where a parcel layer was read, recipients.geojson."""
    if not (found.recipients or found.subject is not None):
        return []
    kind = DocumentKind.RECIPIENTS
    out = [Output(kind, Format.CSV, "recipients.csv", recipients.to_csv(found))]
    if found.subject is not None:
        out.append(Output(kind, Format.GEOJSON, "recipients.geojson", recipients.to_geojson(found)))
    return out


def letter_outputs(
    the_plan: Plan,
    cf: CaseFile,
    found: recipients.RecipientList,
    deadlines: list[schedule.Deadline],
    progress: Callable[[int], None] | None = None,
) -> list[Output]:
    """The mailed letters and transmittals of each hearing: one combined PDF and DOCX each."""
    if not ((the_plan.letters or the_plan.transmittals) and found.recipients):
        return []
    from generator import letters, mailing  # ReportLab and pikepdf only for mail
    from generator.render.filters import long_date

    pack, case = the_plan.pack, cf.case
    env = templates.environment(pack, autoescape=True)
    stylesheet = templates.find(pack, "notice.css").read_text(encoding="utf-8")
    files = {the_plan.map.name: the_plan.map.data} if the_plan.map else {}
    out = []
    kinds = [(d, False) for d in the_plan.letters] + [(d, True) for d in the_plan.transmittals]
    for doc, transmittal in kinds:
        notice_ids = {i for b in doc.notices for i in b.ids}
        wanted = [
            r for r in found.recipients
            if any(getattr(pack.rule(rule).params, "notice", None) in notice_ids for rule in r.rules if rule in pack.origin)
        ]  # fmt: skip
        pieces = mailing.pieces(wanted)
        if not pieces.pieces:
            continue
        label = schedule.hearing_label(doc.hearing)
        due = [
            d.latest for d in deadlines if d.hearing == label and d.rule in notice_ids and d.latest
        ]
        context = ctx.build(the_plan, doc, stylesheet)
        cites = "; ".join(dict.fromkeys(c for b in doc.notices for c in b.citations))
        reason = (
            f"As {cites} requires, the {case.municipality} transmits to you the notice below of a"
            " public hearing on a proposed amendment of its zoning ordinance."
            if transmittal
            else "You are receiving this notice because the records of the municipality list you"
            " as the owner of property in or near the area proposed for change, or as a party the law"
            " requires to be notified of this hearing."
        )
        context["letter"] = {
            "date": long_date(min(due)) if due else long_date(case.as_of or doc.hearing.date),
            "salutation": "Sir or Madam" if transmittal else "Property Owner",
            "reason": reason,
            "body_top_in": letters.BODY_TOP_IN - 0.75,
        }
        html = templates.render(env, "letter.html.j2", context)
        body = pdf.write_pdf(html, files, templates.search_path(pack))
        who = case.signer or case.contact
        address = (
            (case.mail.sender.address if case.mail.sender else None)
            or who.address
            or case.examination.address
        )
        sender = [case.municipality, ", ".join(x for x in (who.name, who.title) if x)]
        sender += (
            [*address.lines, f"{address.city} {address.state} {address.zip}"] if address else []
        )
        made = letters.combine(
            body, pieces, sender=sender, duplex=case.options.duplex_letters, progress=progress
        )
        rules = tuple(sorted(notice_ids))
        kind = DocumentKind.TRANSMITTAL if transmittal else DocumentKind.LETTERS
        out.append(Output(kind, Format.PDF, f"{doc.name}.pdf", made.pdf, rules))
        if case.options.letter_files:  # one file per letter as well, on request
            for n, (one, r) in enumerate(zip(made.split(), pieces.pieces, strict=True), 1):
                slug = re.sub(r"[^a-z0-9]+", "-", r.name.lower()).strip("-")[:40]
                out.append(Output(kind, Format.PDF, f"{doc.name}/{n:05d}-{slug}.pdf", one, rules))
        context["recipients"] = letters.for_word()
        one = docx.render(
            pack,
            templates.find(pack, "letters.docx"),
            context,
            full_text=case.amendment.full_text if case.amendment.print_full_text else None,
            map_image=the_plan.map.word_image if the_plan.map else None,
            title=f"Mailed notice — {case.case_number}",
        )
        data = letters.word(one, pieces)
        out.append(Output(kind, Format.DOCX, f"{doc.name}.docx", data, rules))
    return out


def mailing_outputs(
    the_plan: Plan, cf: CaseFile, found: recipients.RecipientList
) -> tuple[list[Output], list[Finding]]:
    """Labels, the mail-house list and the firm mailing list, where the law requires mailed notice."""
    mails = any(
        b.params.channel.value in ("mail", "transmittal")  # type: ignore[attr-defined]
        for snap in the_plan.snapshots.values()
        for b in snap.of_kind("notice")
    )
    if not (mails and found.recipients):
        return [], []
    from generator import mailing  # ReportLab only when there is mail

    case = cf.case
    pieces = mailing.pieces(found.recipients)
    findings = list(pieces.findings)
    if not pieces.pieces:
        return [], findings
    labels, label_findings = mailing.labels_pdf(pieces)
    findings += label_findings
    out = [
        Output(DocumentKind.LABELS, Format.PDF, "labels.pdf", labels),
        Output(
            DocumentKind.MAILING_LIST,
            Format.CSV,
            "mailing_list.csv",
            mailing.mail_house_csv(pieces),
        ),
    ]
    if len(pieces.pieces) >= 3:  # the firm forms are for three or more pieces
        who = case.mail.sender or case.signer or case.contact
        address = who.address or case.examination.address
        sender = [case.municipality, ", ".join(x for x in (who.name, who.title) if x)]
        sender += [address.one_line()] if address else []
        title = f"Case No. {case.case_number} — notice of the hearing of {case.hearings[0].date:%B %d, %Y}"
        certified = case.mail.mail_class == "certified"
        data = mailing.firm_mailing_pdf(pieces, sender=sender, certified=certified, title=title)
        out.append(
            Output(DocumentKind.FIRM_MAILING_LIST, Format.PDF, "firm_mailing_list.pdf", data)
        )
    return out, findings


def write_recipients(case_path: Path, out_root: Path) -> Result:
    """`notices recipients`: the recipient files and the map of the change, into the packet folder."""
    cf = load_case(case_path)
    found = recipients.collect(cf, resolve(cf.case.jurisdiction))
    folder = out_root / cf.id
    outputs = recipient_outputs(found)
    drawn = _drawn_map(cf, found)
    if drawn:
        outputs += [
            Output(DocumentKind.MAP, Format.SVG, "map.svg", drawn.data),
            Output(DocumentKind.MAP, Format.PNG, "map.png", drawn.raster or b""),
        ]
    kept = _place(folder, outputs, _previous_hashes(folder), remove_stale=False)
    summary = {
        "recipients": found.provenance,
        "findings": [f.as_dict() for f in found.findings],
        "count": len(found.recipients),
    }
    return Result(folder, summary, kept)


def _schedule_outputs(
    the_plan: Plan, cf: CaseFile, deadlines: list[schedule.Deadline], env: Any, stylesheet: str
) -> list[Output]:
    """schedule.json (DESIGN.md §6), schedule.ics, and a readable page as HTML and PDF."""
    case, kind = cf.case, DocumentKind.SCHEDULE
    data = json.dumps([d.as_json() for d in deadlines], indent=2, ensure_ascii=False) + "\n"
    stamp = calendar_file.stamp_for(case.hearings[0].date, case.as_of)
    title = f"{case.municipality} {case.case_number} notice deadlines"
    ics = calendar_file.ics(deadlines, uid_prefix=cf.id, title=title, stamp=stamp)
    page = templates.render(
        env, "schedule.html.j2", ctx.schedule_context(the_plan, deadlines, stylesheet)
    )
    pdf_data = pdf.write_pdf(page, {}, templates.search_path(the_plan.pack))
    return [
        Output(kind, Format.JSON, "schedule.json", data.encode()),
        Output(kind, Format.ICS, "schedule.ics", ics),
        Output(kind, Format.HTML, "schedule.html", page.encode()),
        Output(kind, Format.PDF, "schedule.pdf", pdf_data),
    ]


_DATA_CLAUSE = re.compile(r'data-clause="([a-z][a-z0-9_]*)"')
_BOOKMARK = re.compile(rb'w:name="clause_([a-z][a-z0-9_]*)"')


def check_markers(the_plan: Plan, outputs: list[Output]) -> list[Finding]:
    """Every clause the pack requires must be marked in the HTML and the DOCX of its document."""
    import io
    import zipfile

    findings = []
    by_path = {o.path: o for o in outputs}
    for doc in the_plan.documents + the_plan.websites + the_plan.postings:
        required = {rule_id: topic for topic, ids in doc.topics().items() for rule_id in ids}
        found = {"html": set(_DATA_CLAUSE.findall(by_path[f"{doc.name}.html"].data.decode()))}
        if f"{doc.name}.docx" in by_path:
            body = zipfile.ZipFile(io.BytesIO(by_path[f"{doc.name}.docx"].data)).read(
                "word/document.xml"
            )
            found["docx"] = {m.decode() for m in _BOOKMARK.findall(body)}
        for fmt, marks in found.items():
            for rule_id in sorted(set(required) - marks):
                rule = the_plan.pack.rule(rule_id)
                findings.append(
                    Finding(
                        "error",
                        "PLAN006",
                        f"required clause {rule.title!r} ({required[rule_id]}) is missing from the {fmt}",
                        rule_id,
                        rule.citation,
                        f"{doc.name}.{fmt}",
                    )
                )
    return findings


def _manifest(cf: CaseFile, the_plan: Plan, outputs: list[Output], findings: list[Finding]) -> dict:
    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    ready = not any(f.severity == "error" for f in findings)
    return {
        "case": cf.id,
        "case_number": cf.case.case_number,
        "jurisdiction": cf.case.jurisdiction,
        "ready": ready,
        "documents": [
            {"kind": o.kind.value, "format": o.format.value, "path": o.path, "sha256": o.sha256}
            | ({"rules": list(o.rules)} if o.rules else {})
            for o in sorted(outputs, key=lambda o: o.path)
        ],
        "findings": [f.as_dict() for f in findings],
        "inputs": _inputs(cf),
        "tool": {"name": "zoning-notices", "version": __version__},
        "packs": [
            {
                "id": pf.pack.id,
                "version": pf.pack.version,
                "last_verified_on": pf.pack.last_verified_on.isoformat(),
                "sha256": pf.sha256,
            }
            for pf in the_plan.pack.chain
        ],
        "templates": templates.file_hashes(the_plan.pack),
        "libraries": {name: version(name) for name in LIBRARIES},
    }


def _inputs(cf: CaseFile) -> dict[str, dict[str, str]]:
    """Every input file by path and sha256 (never by modification time)."""
    files = {"case": cf.path}
    if cf.case.map:
        files["map"] = cf.resolve(cf.case.map.image)
    if cf.newspaper_profile:
        files["newspaper_profile"] = NEWSPAPERS / f"{cf.newspaper_profile.id}.yaml"
    return {name: {"path": _rel(path), "sha256": _sha(path)} for name, path in files.items()}


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _sha(path: Path) -> str:
    return sha256_file(path)


def _write(folder: Path, outputs: list[Output], manifest: dict, lint_context: Any) -> Result:
    """Move the packet into place, keeping edited drafts aside, lint it; the manifest comes last."""
    kept = _place(folder, outputs, _previous_hashes(folder), remove_stale=True)
    edited = sorted(p.name for p in folder.glob("*.edited-*.*"))
    manifest = dict(manifest)
    manifest["edited"] = [
        {"path": name, "sha256": _sha(folder / name), "draft_of": re.sub(r"\.edited-\d+", "", name)}
        for name in edited
    ]
    _lint(folder, manifest, lint_context)
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    (folder / MANIFEST).write_text(text, encoding="utf-8")
    return Result(folder, manifest, kept)


def _lint(folder: Path, manifest: dict, context: Any) -> None:
    """Run `notices lint` on the packet as written (edited drafts too); its errors make it not ready."""
    from generator.lint import report
    from generator.lint.engine import lint

    result = lint([folder], context=context)
    data = report.as_json(result, base=folder).encode()
    (folder / LINT_REPORT).write_bytes(data)
    entry = Output(DocumentKind.LINT_REPORT, Format.JSON, LINT_REPORT, data)
    manifest["documents"] = sorted(
        [*manifest["documents"], {"kind": entry.kind.value, "format": "json", "path": LINT_REPORT,
                                  "sha256": entry.sha256}],
        key=lambda d: d["path"],
    )  # fmt: skip
    rank = {"error": 0, "warning": 1, "info": 2}
    found = [
        Finding(f.severity, f.code, f"{f.where + ': ' if f.where else ''}{f.message}", f.rule,
                f.citation, f.document).as_dict()
        for f in result.findings
    ]  # fmt: skip
    manifest["findings"] = sorted(manifest["findings"] + found, key=lambda f: rank[f["severity"]])
    manifest["ready"] = manifest["ready"] and not result.errors


def _place(
    folder: Path, outputs: list[Output], previous: dict[str, str], *, remove_stale: bool
) -> list[str]:
    """Move outputs into `folder` once all are staged; an edited draft is kept aside, never overwritten."""
    staging = folder.parent / f".{folder.name}.new-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        for out in outputs:
            (staging / out.path).parent.mkdir(parents=True, exist_ok=True)
            (staging / out.path).write_bytes(out.data)
        folder.mkdir(exist_ok=True)
        kept = []
        new_paths = {o.path for o in outputs}
        for name, old_sha in previous.items():
            target = folder / name
            if not target.is_file() or (name not in new_paths and not remove_stale):
                continue
            if _sha(target) != old_sha:
                kept.append(_keep_edited(target))
            elif name not in new_paths:
                target.unlink()  # generated last time, no longer part of the packet
        for out in outputs:
            target = folder / out.path
            if target.is_file() and out.path not in previous and _sha(target) != out.sha256:
                kept.append(_keep_edited(target))  # a file we did not make: never clobber it
            target.parent.mkdir(parents=True, exist_ok=True)
            (staging / out.path).replace(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return kept


def _previous_hashes(folder: Path) -> dict[str, str]:
    try:
        old = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        return {d["path"]: d["sha256"] for d in old.get("documents", [])}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _keep_edited(path: Path) -> str:
    stem, dot, ext = path.name.partition(".")
    n = 1
    while (path.parent / f"{stem}.edited-{n}{dot}{ext}").exists():
        n += 1
    kept = path.parent / f"{stem}.edited-{n}{dot}{ext}"
    path.rename(kept)
    return kept.name
