"""Build a packet: prepare → make the documents → place them → lint them → the manifest.

A packet is written whole or not at all: everything renders in memory, then `packet_folder`
stages the new packet beside the old one, where it is linted and gets its manifest, and swaps it
in only when all of that succeeded. A generated file that someone edited since the last build is
kept as `<name>.edited-N.<ext>`, never overwritten. Whether the packet is ready is decided from
all of the findings at once.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from generator import __version__, findings, packet_folder
from generator.documents import change_map
from generator.documents import recipients as recipient_files
from generator.documents.base import Built, Output
from generator.errors import UserError
from generator.findings import Finding
from generator.hashing import sha256_file
from generator.inputs import CaseFile, profile_path
from generator.kinds import DocumentKind, Format
from generator.packet_folder import MANIFEST
from generator.paths import data_paths
from generator.prepare import Prepared, prepare
from generator.render import templates
from generator.writer import write

LINT_REPORT = "lint_report.json"
# What `notices recipients` writes, in the registry's order (tests/test_recipients.py checks
# that these are the registry's builders of those kinds).
RECIPIENT_DOCUMENTS = (change_map.DOCUMENT, recipient_files.DOCUMENT)
LIBRARIES = ("weasyprint", "docxtpl", "python-docx", "jinja2", "markdown", "pydantic", "pyyaml")


@dataclass
class Result:
    """What a build did: the packet folder, its manifest, and what was kept aside."""

    folder: Path
    manifest: dict[str, Any]
    kept: list[str] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        """Whether the packet has every required part."""
        return bool(self.manifest["ready"])


def build(
    case: Path | CaseFile,
    out_root: Path,
    progress: Callable[[int], None] | None = None,
    history: str | None = None,
) -> Result:
    """Build the packet of one case into `out_root/<case-id>/` (`progress` counts letters made).

    `history`: the documents this build changes or drops are kept in `history/<history>/` of
    the packet (a re-notice keeps what was sent before).
    """
    # The document builders and the linter are imported here, not at the top: `notices
    # recipients` imports this module for `write_recipients`, which needs neither (~0.16 s).
    from generator.documents import mail_merge, registry
    from generator.lint import report
    from generator.lint.engine import lint

    prepared = prepare(case)
    if prepared.late:
        raise UserError(list(prepared.late))
    token = mail_merge.PROGRESS.set(progress)
    try:
        made = registry.make(prepared)
    finally:
        mail_merge.PROGRESS.reset(token)
    folder = out_root / prepared.case_file.id
    done: list[dict[str, Any]] = []

    def finish(staging: Path) -> None:
        """Lint the staged packet and write its lint report and manifest there."""
        linted = lint([staging], prepared=prepared)
        every = findings.ordered([*prepared.findings, *made.findings, *linted.findings])
        done.append(
            _seal(
                staging,
                report.as_json(linted, base=staging).encode(),
                lambda lint_out: _manifest(
                    prepared, [*made.outputs, lint_out], every, staging, folder
                ),
            )
        )

    kept = packet_folder.update(
        folder,
        _files(made.outputs),
        remove_stale=True,
        reserved=(LINT_REPORT, MANIFEST),
        finish=finish,
        history=history,
    )
    return Result(folder, done[0], kept)


def write_recipients(case: Path, out_root: Path) -> Result:
    """`notices recipients`: the recipient files, and the map the notices carry, into the packet folder."""
    prepared = prepare(case)
    # The two builders by name rather than `registry.make(kinds=...)`: the registry imports
    # every document kind, the whole rendering stack, for two files it does not render.
    tpl = templates.for_pack(prepared.pack)
    made = Built()
    for doc in RECIPIENT_DOCUMENTS:
        if doc.required(prepared):
            made += doc.build(prepared, tpl)
    folder = out_root / prepared.case_file.id
    kept = packet_folder.update(folder, _files(made.outputs), remove_stale=False)
    found = prepared.recipients
    summary = {
        "recipients": found.provenance,
        "findings": [f.as_dict() for f in found.findings],
        "count": len(found.recipients),
    }
    return Result(folder, summary, kept)


def _files(outputs: tuple[Output, ...]) -> dict[str, bytes]:
    return {o.path: o.data for o in outputs}


def _manifest(
    prepared: Prepared, outputs: list[Output], found: list[Finding], staging: Path, folder: Path
) -> dict[str, Any]:
    """The manifest of the packet staged in `staging` that will become `folder`.

    What was made from what, with every finding and whether it may go out.
    """

    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    cf, pack = prepared.case_file, prepared.pack
    manifest: dict[str, Any] = {
        "case": cf.id,
        "case_number": cf.case.case_number,
        "jurisdiction": cf.case.jurisdiction,
        "ready": findings.ready(found),
        "documents": [
            {"kind": o.kind.value, "format": o.format.value, "path": o.path, "sha256": o.sha256}
            | ({"rules": list(o.rules)} if o.rules else {})
            for o in sorted(outputs, key=lambda o: o.path)
        ],
        "findings": [f.as_dict() for f in found],
        "inputs": _inputs(cf, folder),
        "data_paths": data_paths(),  # where packs, profiles and presets were read from
        "tool": {"name": "zoning-notices", "version": __version__},
        "packs": [
            {
                "id": pf.pack.id,
                "version": pf.pack.version,
                "last_verified_on": pf.pack.last_verified_on.isoformat(),
                "sha256": pf.sha256,
            }
            for pf in pack.chain
        ],
        "templates": templates.file_hashes(pack),
        "libraries": {name: version(name) for name in LIBRARIES},
    }
    found_recipients = prepared.recipients
    if found_recipients.provenance["method"] or found_recipients.recipients:
        manifest["recipients"] = found_recipients.provenance
    manifest["edited"] = [
        {"path": p.name, "sha256": sha, "draft_of": re.sub(r"\.edited-\d+", "", p.name)}
        for p in sorted(staging.glob("*.edited-*.*"))
        if (sha := packet_folder.sha256_regular(p))
    ]
    return manifest


def _inputs(cf: CaseFile, folder: Path) -> dict[str, dict[str, str]]:
    """Every input file by path and sha256 (never by modification time).

    Paths are relative to the packet folder: `notices lint` finds the case from any working
    directory, and wherever the packet and its inputs move together.
    """
    files = {"case": cf.path}
    if cf.case.map:
        files["map"] = cf.resolve(cf.case.map.image)
    if cf.newspaper_profile:
        files["newspaper_profile"] = profile_path(cf.newspaper_profile.id)
    return {name: {"path": _from(folder, p), "sha256": sha256_file(p)} for name, p in files.items()}


def _from(folder: Path, path: Path) -> str:
    """`path` relative to `folder` (absolute if no relative path leads there: another drive)."""
    try:
        return Path(os.path.relpath(path.resolve(), folder.resolve())).as_posix()
    except ValueError:
        return str(path.resolve())


def _seal(
    staging: Path, lint_data: bytes, manifest_of: Callable[[Output], dict[str, Any]]
) -> dict[str, Any]:
    """Write the staged packet's lint report, then its manifest (which lists the report)."""
    write(staging, LINT_REPORT, lint_data)
    manifest = manifest_of(Output(DocumentKind.LINT_REPORT, Format.JSON, LINT_REPORT, lint_data))
    write(staging, MANIFEST, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode())
    return manifest


def build_agenda(path: Path, out_root: Path) -> Result:
    """Build an agenda's packet into `out_root/agenda-<id>/`: its one notice, proof and manifest.

    Every case is prepared as its own build prepares it; the combined notice is linted case by
    case (`lint.agenda`), and the manifest names the agenda, each case and the combined schedule.
    """
    from generator.agenda import prepare_agenda
    from generator.documents import registry
    from generator.lint.agenda import lint_agenda

    agenda = prepare_agenda(path)
    made = registry.make_agenda(agenda)
    folder = out_root / agenda.folder
    done: list[dict[str, Any]] = []

    def finish(staging: Path) -> None:
        notices = sorted(
            staging / o.path for o in made.outputs if o.kind == DocumentKind.AGENDA_NOTICE
        )
        linted = lint_agenda(notices, agenda)
        lint_data = (
            json.dumps(
                {"findings": [f.as_dict() for f in findings.ordered(linted)]},
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        ).encode()
        every = findings.ordered([*agenda.findings, *made.findings, *linted])
        done.append(
            _seal(
                staging,
                lint_data,
                lambda lint_out: _agenda_manifest(agenda, [*made.outputs, lint_out], every, folder),
            )
        )

    kept = packet_folder.update(
        folder,
        _files(made.outputs),
        remove_stale=True,
        reserved=(LINT_REPORT, MANIFEST),
        finish=finish,
    )
    return Result(folder, done[0], kept)


def _agenda_manifest(
    agenda: Any, outputs: list[Output], found: list[Finding], folder: Path
) -> dict[str, Any]:
    """The manifest of an agenda's packet: the agenda, its cases, the schedule, the documents."""
    iso = lambda value: value.isoformat() if value else None  # noqa: E731
    return {
        "agenda": agenda.id,
        "body": agenda.agenda.body.value,
        "date": agenda.agenda.date.isoformat(),
        "ready": findings.ready(found),
        "cases": [
            {
                "item": item.number,
                "case": item.prepared.case_file.id,
                "case_number": item.case_number,
                "jurisdiction": item.prepared.case.jurisdiction,
                "notice": item.doc.name,
                "rules": list(item.doc.notice_ids),
                "packs": [
                    {"id": pf.pack.id, "version": pf.pack.version, "sha256": pf.sha256}
                    for pf in item.prepared.pack.chain
                ],
            }
            for item in agenda.items
        ],
        "schedule": {
            "insertions": [d.isoformat() for d in agenda.issues],
            "copy_deadline": iso(agenda.copy_deadline),
            "deadlines": [
                {"case_number": t.case_number, "strictest": t.strictest} | t.deadline.as_json()
                for t in agenda.schedule
            ],
        },
        "documents": [
            {"kind": o.kind.value, "format": o.format.value, "path": o.path, "sha256": o.sha256}
            | ({"rules": list(o.rules)} if o.rules else {})
            for o in sorted(outputs, key=lambda o: o.path)
        ],
        "findings": [f.as_dict() for f in found],
        "inputs": {
            "agenda": {"path": _from(folder, agenda.path), "sha256": sha256_file(agenda.path)},
            **{
                f"case {item.number}": _inputs(item.prepared.case_file, folder)["case"]
                for item in agenda.items
            },
        },
        "tool": {"name": "zoning-notices", "version": __version__},
    }
