"""Build a packet: prepare → make the documents → place them → lint them → the manifest.

A packet is written whole or not at all: everything renders in memory, is staged in a folder
beside the packet, and moves in only when all of it rendered. A generated file that someone
edited since the last build is kept as `<name>.edited-N.<ext>`, never overwritten. The manifest
comes last; whether the packet is ready is decided from all of the findings at once.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from generator import __version__, findings
from generator.documents import mail_merge, registry
from generator.documents.base import Output
from generator.errors import UserError
from generator.findings import Finding
from generator.hashing import sha256_file
from generator.inputs import CaseFile
from generator.kinds import DocumentKind, Format
from generator.lint import report
from generator.lint.engine import lint
from generator.paths import NEWSPAPERS
from generator.prepare import Prepared, prepare
from generator.render import templates

MANIFEST = "manifest.json"
LINT_REPORT = "lint_report.json"
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
    case: Path | CaseFile, out_root: Path, progress: Callable[[int], None] | None = None
) -> Result:
    """Build the packet of one case into `out_root/<case-id>/` (`progress` counts letters made)."""
    prepared = prepare(case)
    if prepared.late:
        raise UserError(list(prepared.late))
    token = mail_merge.PROGRESS.set(progress)
    try:
        made = registry.make(prepared)
    finally:
        mail_merge.PROGRESS.reset(token)
    folder = out_root / prepared.case_file.id
    kept = place(folder, list(made.outputs), previous_hashes(folder), remove_stale=True)
    linted = lint([folder], prepared=prepared)
    lint_data = report.as_json(linted, base=folder).encode()
    (folder / LINT_REPORT).write_bytes(lint_data)
    outputs = [*made.outputs, Output(DocumentKind.LINT_REPORT, Format.JSON, LINT_REPORT, lint_data)]
    every = findings.ordered([*prepared.findings, *made.findings, *linted.findings])
    manifest = _manifest(prepared, outputs, every, folder)
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    (folder / MANIFEST).write_text(text, encoding="utf-8")
    return Result(folder, manifest, kept)


def write_recipients(case: Path, out_root: Path) -> Result:
    """`notices recipients`: the recipient files, and the map the notices carry, into the packet folder."""
    prepared = prepare(case)
    made = registry.make(prepared, kinds=(DocumentKind.RECIPIENTS, DocumentKind.MAP))
    folder = out_root / prepared.case_file.id
    kept = place(folder, list(made.outputs), previous_hashes(folder), remove_stale=False)
    found = prepared.recipients
    summary = {
        "recipients": found.provenance,
        "findings": [f.as_dict() for f in found.findings],
        "count": len(found.recipients),
    }
    return Result(folder, summary, kept)


def _manifest(
    prepared: Prepared, outputs: list[Output], found: list[Finding], folder: Path
) -> dict[str, Any]:
    """The manifest: what was made from what, with every finding and whether it may go out."""

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
        {"path": p.name, "sha256": sha256_file(p), "draft_of": re.sub(r"\.edited-\d+", "", p.name)}
        for p in sorted(folder.glob("*.edited-*.*"))
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
        files["newspaper_profile"] = NEWSPAPERS / f"{cf.newspaper_profile.id}.yaml"
    return {name: {"path": _from(folder, p), "sha256": sha256_file(p)} for name, p in files.items()}


def _from(folder: Path, path: Path) -> str:
    """`path` relative to `folder` (absolute if no relative path leads there: another drive)."""
    try:
        return Path(os.path.relpath(path.resolve(), folder.resolve())).as_posix()
    except ValueError:
        return str(path.resolve())


def place(
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
            if sha256_file(target) != old_sha:
                kept.append(_keep_edited(target))
            elif name not in new_paths:
                target.unlink()  # generated last time, no longer part of the packet
        for out in outputs:
            target = folder / out.path
            if target.is_file() and out.path not in previous and sha256_file(target) != out.sha256:
                kept.append(_keep_edited(target))  # a file we did not make: never clobber it
            target.parent.mkdir(parents=True, exist_ok=True)
            (staging / out.path).replace(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return kept


def previous_hashes(folder: Path) -> dict[str, str]:
    """The files the last build wrote into `folder`, by path, with their sha256."""
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
