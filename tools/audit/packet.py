"""What the audit knows of a packet besides its PDFs: the plan, the case and the law.

`manifest.json` lists the documents (kind, file, the rules each gives effect to) and names the
case file and the jurisdiction; `schedule.json` is the plan, whose deadlines name the hearings
(`"planning 2027-04-20"`); the case gives the districts a sign must show and the clerk's own
words (which the text checks leave alone); the rule pack gives a sign's reading distance.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DISTANCE_FT = 100.0  # the product's promise for a sign where the law names no distance
DEFAULT_INDEX = 25.0  # ft of reading distance per inch of capital height
_CODE = re.compile(r"^[A-Z]{1,4}\d*(?:-\d+[A-Z]?)?(?:-[A-Z]{1,4})?$")


@dataclass(frozen=True)
class Document:
    """A PDF of the packet, as the manifest lists it."""

    kind: str
    path: Path
    rules: tuple[str, ...]

    @property
    def is_sign(self) -> bool:
        """A sign, or a poster at sign size (`posting_notice-poster.pdf`)."""
        return self.kind == "sign" or self.path.stem.endswith("-poster")


@dataclass(frozen=True)
class SignNeed:
    """How tall a sign's capitals must be, and why."""

    cap_in: float
    distance_ft: float
    index: float
    source: str


@dataclass
class Packet:
    """A built packet folder and what the audit reads from it."""

    folder: Path
    documents: list[Document]
    hearings: dict[date, str]
    data: str
    districts: dict[str, list[list[str]]] = field(default_factory=dict)
    signs: dict[str, SignNeed] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The packet's folder name (the case id)."""
        return self.folder.name


def load(folder: Path) -> Packet:
    """Read a packet folder's manifest, plan, case and the law behind its signs."""
    manifest = json.loads((folder / "manifest.json").read_text())
    documents = [
        Document(d["kind"], folder / d["path"], tuple(d.get("rules") or ()))
        for d in manifest["documents"]
        if d["format"] == "pdf" and (folder / d["path"]).is_file()
    ]
    hearings: dict[date, str] = {}
    schedule = folder / "schedule.json"
    for deadline in json.loads(schedule.read_text()) if schedule.is_file() else []:
        m = re.fullmatch(r"(\S+) (\d{4}-\d{2}-\d{2})", deadline.get("hearing") or "")
        if m:
            hearings[date.fromisoformat(m.group(2))] = m.group(1)
    case = _case(manifest, folder)
    packet = Packet(
        folder,
        sorted(documents, key=lambda d: d.path.name),
        hearings,
        _data(case, folder),
        _districts(case),
    )
    signs = [d for d in documents if d.is_sign]
    if signs:
        rules = _rules(manifest.get("jurisdiction"))
        legible_from = ((case.get("sign") or {}) if case else {}).get("legible_from_ft")
        for doc in signs:
            packet.signs[doc.path.name] = _sign_need(doc, rules, legible_from)
    return packet


def packets(output: Path) -> list[Path]:
    """The packet folders under an output folder (those with a manifest), sorted.

    A dot-folder is a build's staging folder (or what a killed build left), never a packet.
    """
    return sorted(
        p.parent for p in output.glob("*/manifest.json") if not p.parent.name.startswith(".")
    )


def _case(manifest: dict[str, Any], folder: Path) -> dict[str, Any]:
    path = Path(((manifest.get("inputs") or {}).get("case") or {}).get("path") or "")
    for candidate in (folder / path, path, ROOT / path):  # the manifest's: relative to the packet
        if path.name and candidate.is_file():
            return yaml.safe_load(candidate.read_text()) or {}
    return {}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def normalize(text: str) -> str:
    """Case-blind, whitespace-blind text, to compare what a PDF prints with the case's words."""
    return re.sub(r"\s+", " ", text).casefold().strip()


def _data(case: dict[str, Any], folder: Path) -> str:
    """The clerk's and the assessor's own words.

    Every text value of the case and the names and addresses of the recipients: a bracket or
    odd word the clerk typed is theirs to keep.
    """
    parts = _strings(case)
    for name in ("recipients.csv", "mailing_list.csv"):
        path = folder / name
        if path.is_file():
            with path.open(newline="") as f:
                parts += [v for row in csv.reader(f) for v in row]
    return "\n".join(normalize(p) for p in parts)


def _districts(case: dict[str, Any]) -> dict[str, list[list[str]]]:
    """Each district a sign must show, as the spellings that count (its code, its full name)."""
    out: dict[str, list[list[str]]] = {"present": [], "proposed": []}
    for parcel in case.get("parcels") or []:
        for which, key in (("present", "current_district"), ("proposed", "proposed_district")):
            name = (parcel or {}).get(key)
            if not name:
                continue
            spellings = [name.strip()]
            inner = re.search(r"\(([^()]+)\)\s*$", name)
            first = name.split()[0]
            for code in (inner.group(1) if inner else "", first):
                if _CODE.match(code) and (any(c.isdigit() for c in code) or len(code) <= 3):
                    spellings.append(code)
            if spellings not in out[which]:
                out[which].append(spellings)
    return {k: v for k, v in out.items() if v}


def _rules(jurisdiction: str | None) -> Any:
    """The jurisdiction's rules, resolved through its chain, to read a sign's format rule."""
    if not jurisdiction:
        return None
    from generator.rules.loader import resolve

    return resolve(jurisdiction)


def _sign_need(doc: Document, resolved: Any, case_distance: float | None) -> SignNeed:
    """The capital height a sign needs: the pack's distance ÷ its legibility index.

    Where the pack names no distance, 100 ft (or the case's `sign.legible_from_ft` if farther);
    where it names no index, 25 ft per inch.
    """
    distances: list[tuple[float, str]] = []
    indexes: list[float] = []
    for rule_id in doc.rules:
        try:
            rule = resolved.rule(rule_id) if resolved is not None else None
        except KeyError:
            continue
        if rule is None or rule.kind != "format":
            continue
        if rule.params.legible_from_ft:
            distances.append((rule.params.legible_from_ft, f"{rule.id}, {rule.citation}"))
        if rule.params.legibility_index_ft_per_in:
            indexes.append(rule.params.legibility_index_ft_per_in)
    if distances:
        distance, source = max(distances)
    elif case_distance and case_distance > DEFAULT_DISTANCE_FT:
        distance, source = float(case_distance), "the case's sign.legible_from_ft"
    else:
        distance, source = DEFAULT_DISTANCE_FT, "no distance in the law: 100 ft"
    index = min(indexes) if indexes else DEFAULT_INDEX
    return SignNeed(distance / index, distance, index, source)
