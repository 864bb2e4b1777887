"""Owner names and addresses from a county parcel layer stay data in the CSVs a clerk opens.

A cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return runs as a formula in a
spreadsheet (OWASP, "CSV Injection"). The East Providence sample's real GeoPackage is copied and
its owners' names and mailing addresses rewritten with such values, as a hostile or careless
county export could carry them.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pyogrio
import pypdf

from generator import csvfile
from generator.packet import build

from .conftest import CASES, ROOT

HOSTILE = ('=HYPERLINK("http://x.test","y")', "+1+1", "-2+3", "@SUM(A1:A2)", "\tTAB", "\rCR")


def test_formulas_in_the_parcel_layer_are_written_as_text(tmp_path: Path) -> None:
    layer = tmp_path / "ri-east-providence.gpkg"
    shutil.copy(ROOT / "data" / "gis" / "ri-east-providence.gpkg", layer)
    parcels = pyogrio.read_dataframe(layer, layer="parcels")
    for n in parcels.index:
        bad = HOSTILE[n % len(HOSTILE)]
        parcels.loc[n, "OWNER1"] = f"{bad} {parcels.loc[n, 'OWNER1']}"
        if (
            n % len(HOSTILE) == 1
        ):  # no address: kept as the record writes it, reported (RCPT007), no letter
            parcels.loc[n, "MAIL_ADDR1"] = f"{bad}{parcels.loc[n, 'MAIL_ADDR1']}"
    pyogrio.write_dataframe(parcels, layer, layer="parcels")
    case = tmp_path / "ep-2027-za-03.yaml"
    case.write_text(
        (CASES / "ep-2027-za-03.yaml")
        .read_text()
        .replace("../data/gis/ri-east-providence.gpkg", str(layer))
    )
    folder = build(case, tmp_path / "out").folder

    for name in ("recipients.csv", "mailing_list.csv"):
        with (folder / name).open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
        cells = [c for row in rows[1:] for c in row]
        assert not [c for c in cells if c.startswith(csvfile.FORMULA_STARTS)], name
        quoted = [c for c in cells if c.startswith("'") and csvfile.value(c) != c]
        assert len(quoted) >= 10, name  # the hostile owners are there, as text
        assert any(csvfile.value(c).startswith("=HYPERLINK") for c in cells), name

    letters = " ".join(p.extract_text() for p in pypdf.PdfReader(folder / "letters.pdf").pages)
    assert '=HYPERLINK("http://x.test","y")' in letters  # the letter prints the name as it is
    manifest = json.loads((folder / "manifest.json").read_text())
    unread = [f["message"] for f in manifest["findings"] if f["code"] == "RCPT007"]
    assert unread and all("+1+1" in m for m in unread)
    # The list reads back: the only recipients without a letter are those with no address.
    no_letter = [f["message"] for f in manifest["findings"] if f["code"] == "NL005"]
    assert len(no_letter) == len(unread) and all("+1+1" in m for m in no_letter)


def test_a_cell_is_neutralised_only_when_a_spreadsheet_would_run_it() -> None:
    assert csvfile.cell("=1+1") == "'=1+1" and csvfile.cell("@x") == "'@x"
    assert csvfile.cell("O'BRIEN PATRICK") == "O'BRIEN PATRICK"
    assert csvfile.cell(12) == 12 and csvfile.cell("12 MAIN ST") == "12 MAIN ST"
    for text in (*HOSTILE, "'quoted", "plain", ""):
        assert csvfile.value(str(csvfile.cell(text))) == text
