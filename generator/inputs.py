"""Reading a case file: YAML with positions, the Case model, and checks that need the disk."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.errors import UserError
from generator.models.base import validate
from generator.models.case import Case, case_id_from_path
from generator.rules.loader import available, pack_paths
from generator.yamlio import load


@dataclass(frozen=True)
class CaseFile:
    """A validated case and where it came from."""

    case: Case
    path: Path
    id: str

    def resolve(self, relative: str) -> Path:
        """A path written in the case, relative to the case file."""
        return (self.path.parent / relative).resolve()


def load_case(path: Path) -> CaseFile:
    """Load and validate a case; every problem is reported at once with its line and field."""
    doc = load(path)
    case = validate(Case, doc)
    case_id = case_id_from_path(path)
    problems = []
    if case.id is not None and case.id != case_id:
        problems.append(doc.problem(("id",), f"must be {case_id!r}, the name of the case file"))
    if not pack_paths(case.jurisdiction):
        known = ", ".join(available())
        problems.append(
            doc.problem(
                ("jurisdiction",), f"unknown jurisdiction {case.jurisdiction!r}; known: {known}"
            )
        )
    if case.map:
        image = (path.parent / case.map.image).resolve()
        if not image.is_file():
            problems.append(doc.problem(("map", "image"), f"no such file: {image}"))
        elif image.suffix.lower() not in (".png", ".jpg", ".jpeg", ".svg"):
            problems.append(doc.problem(("map", "image"), "must be a PNG, JPEG or SVG image"))
    if problems:
        raise UserError(problems)
    return CaseFile(case, path, case_id)
