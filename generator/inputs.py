"""Reading a case file: YAML with positions, the Case model, and checks that need the disk."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from generator.errors import Problem, UserError, display_path, shown
from generator.models.base import validate
from generator.models.case import Case, MunicipalityKind, Newspaper, case_id_from_path
from generator.models.newspaper import NewspaperProfile
from generator.models.options import CaseOption
from generator.models.pack import Municipality
from generator.paths import SAFE_NAME_RULE, newspapers, safe_name
from generator.rules.loader import available, pack_paths, resolve
from generator.safe_svg import SvgError, clean
from generator.yamlio import Located, load, loads


@dataclass(frozen=True)
class CaseFile:
    """A validated case, where it came from, and the newspaper profile it names."""

    case: Case
    path: Path
    id: str
    newspaper_profile: NewspaperProfile | None = None
    doc: Located | None = None  # the YAML with positions, to place later problems

    def problem(self, loc: tuple[str | int, ...], message: str) -> Problem:
        """A problem at field `loc` of the case file."""
        if self.doc:
            return self.doc.problem(loc, message)
        return Problem(str(self.path), None, None, ".".join(map(str, loc)), message)

    def resolve(self, relative: str) -> Path:
        """A path written in the case, relative to the case file."""
        return (self.path.parent / relative).resolve()


def load_case(path: Path, text: str | None = None) -> CaseFile:
    """Load and validate a case; every problem is reported at once with its line and field.

    `text`: the case's YAML not yet saved at `path` (the web form checks what it would write
    by the same path as the command line, with the same messages).
    """
    doc = load(path) if text is None else loads(text, display_path(path))
    case = validate(Case, doc)
    case_id = case_id_from_path(path)
    problems = []
    if not safe_name(case_id):
        # The id names the packet's folder: `..` or `a/b` would put the packet outside --out.
        problems.append(
            doc.problem(
                ("id",),
                f"the case id {case_id!r} is the case file's name and must be {SAFE_NAME_RULE}:"
                " rename the file",
            )
        )
    if case.id is not None and case.id != case_id:
        problems.append(doc.problem(("id",), f"must be {case_id!r}, the name of the case file"))
    if not pack_paths(case.jurisdiction):
        known = ", ".join(available())
        problems.append(
            doc.problem(
                ("jurisdiction",), f"unknown jurisdiction {case.jurisdiction!r}; known: {known}"
            )
        )
    else:
        pack = resolve(case.jurisdiction)
        problems += option_problems(doc, case, pack.options)
        kind, problem = municipality_kind(doc, case, pack.municipality)
        if problem:
            problems.append(problem)
        elif kind:
            case = case.model_copy(update={"municipality_kind": kind})
    if case.map:
        image = (path.parent / case.map.image).resolve()
        if not image.is_file():
            problems.append(doc.problem(("map", "image"), f"no such file: {image}"))
        elif image.suffix.lower() not in (".png", ".jpg", ".jpeg", ".svg"):
            problems.append(doc.problem(("map", "image"), "must be a PNG, JPEG or SVG image"))
        elif image.suffix.lower() == ".svg":
            try:
                clean(image.read_bytes())
            except SvgError as exc:
                problems.append(doc.problem(("map", "image"), f"{image.name}: {exc}"))
    profile = None
    if case.newspaper and case.newspaper.profile and not safe_name(case.newspaper.profile):
        problems.append(  # a path here would read any YAML file on the machine
            doc.problem(
                ("newspaper", "profile"),
                f"{case.newspaper.profile!r} is not a profile id: it must be {SAFE_NAME_RULE}",
            )
        )
    elif case.newspaper and case.newspaper.profile:
        try:
            profile = load_profile(case.newspaper.profile)
        except FileNotFoundError:
            known = ", ".join(sorted(p.stem for p in newspapers().glob("*.yaml"))) or "none"
            problems.append(
                doc.problem(
                    ("newspaper", "profile"),
                    f"no newspaper profile {case.newspaper.profile!r}; known: {known}",
                )
            )
        except UserError as exc:
            problems.extend(exc.problems)
    if problems:
        raise UserError(problems)
    if profile:
        case = case.model_copy(update={"newspaper": with_profile(case.newspaper, profile)})
    return CaseFile(case, path, case_id, profile, doc)


def municipality_kind(
    doc: Located, case: Case, served: Municipality | None
) -> tuple[MunicipalityKind | None, Problem | None]:
    """The case's kind of municipality: its own, else its pack's; a problem if they differ."""
    if served is None or case.municipality_kind in (None, served.kind):
        return case.municipality_kind or (served.kind if served else None), None
    return None, doc.problem(
        ("municipality_kind",),
        f"the pack serves {served.name}, a {served.kind.value}; this case says"
        f" {case.municipality_kind.value}: leave it out or correct it",
    )


def option_problems(doc: Located, case: Case, declared: Mapping[str, CaseOption]) -> list[Problem]:
    """The case's `options` that no pack of its chain declares, or that have a wrong value."""
    problems = []
    for key, value in case.options.elected.items():
        option = declared.get(key)
        if option is None:
            known = ", ".join(sorted(declared)) or "none"
            problems.append(
                doc.problem(
                    ("options", key),
                    f"unknown option; the packs of {case.jurisdiction} declare: {known}",
                    at_key=True,
                )
            )
        elif option.type == "yes_no" and not isinstance(value, bool):
            problems.append(
                doc.problem(("options", key), f"must be true or false, not {shown(value)}")
            )
        elif option.type == "text" and not isinstance(value, (str, int, float)):
            problems.append(
                doc.problem(("options", key), f"must be words or a number, not {shown(value)}")
            )
        elif option.type == "choices":
            choices = ", ".join(option.choices)
            if not isinstance(value, list):
                problems.append(
                    doc.problem(("options", key), f"must be a list of some of: {choices}")
                )
            elif bad := [v for v in value if v not in option.choices]:
                problems.append(
                    doc.problem(
                        ("options", key),
                        f"unknown choice(s) {', '.join(map(shown, bad))}; choose from: {choices}",
                    )
                )
    return problems


def load_profile(profile_id: str) -> NewspaperProfile:
    """Load and validate `<id>.yaml` of the profiles folder (`paths.newspapers()`)."""
    path = profile_path(profile_id)
    if not path.is_file():
        raise FileNotFoundError(path)
    doc = load(path)
    profile = validate(NewspaperProfile, doc)
    if profile.id != profile_id:
        raise UserError(doc.problem(("id",), f"must be {profile_id!r}, the name of the file"))
    return profile


def profile_path(profile_id: str) -> Path:
    """Where the newspaper profile `profile_id` is read from."""
    return newspapers() / f"{profile_id}.yaml"


def with_profile(paper: Newspaper, profile: NewspaperProfile) -> Newspaper:
    """The case's newspaper with what it leaves unsaid taken from its profile."""
    stated = paper.model_dump(exclude_unset=True)
    from_profile = {
        "name": profile.name,
        "publication_days": profile.publication_days,
        "copy_deadline": profile.copy_deadline,
        "general_circulation": profile.general_circulation,
        "local_circulation": profile.local_circulation,
        "legal_email": profile.legal_email,
    }
    return Newspaper.model_validate({**from_profile, **stated})
