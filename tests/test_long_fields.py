"""Long names and addresses stay where they are printed: window, labels, lists, Exhibit A, signs.

A county parcel layer can carry an owner name of 5,000 characters, a 300-letter word, a URL, a
street line of 200 characters; a case can add a recipient with nine street lines or give a
300-digit phone number. Each is printed inside its box - wrapped, set smaller down to 6.5 pt,
a name shortened with `…` - or reported with the recipient and parcel named; nothing runs off
the page or prints over the next label (issue 14, item 5). The East Providence sample's real
GeoPackage is copied and its owners rewritten, as tests/test_csv_injection.py does.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import pdfplumber
import pyogrio
import pytest
from reportlab.pdfgen import canvas as rl_canvas

from generator.documents import firm_mailing_list, labels, mail_merge, mailroom, registry
from generator.errors import UserError
from generator.kinds import DocumentKind
from generator.packet import build
from generator.prepare import prepare
from generator.recipients import Recipient
from tools.audit import audit
from tools.audit.checks import LABEL_IN, LABEL_PITCH_IN

from .conftest import CASES, ROOT, write_case
from .test_audit import found, packet
from .test_mailing import ep_templates

WORDS_200 = ("SMITHERSON JONATHAN " * 10).strip()  # 199 characters
NAMES = {
    61: "HENDERSON EDWARD REVOCABLE TRUST & HENDERSON MARGARET TRUSTEE",
    200: WORDS_200,
    5000: ("LONGNAME " * 600)[:5000].strip(),
    300: "X" * 300,  # one word, no place to break
    417: "https://records.example.gov/" + "/".join(f"segment{i}" for i in range(40)),
}
SHORTENED = {200, 5000, 300, 417}  # longer than three address lines of 40 characters


def _city(parcels: object) -> None:
    """Rewrite owners in turn with the long names; other parcels keep theirs."""
    long = list(NAMES.values())
    for k, n in enumerate(parcels.index):  # type: ignore[attr-defined]
        parcels.loc[n, "OWNER1"] = long[k % len(long)]  # type: ignore[attr-defined]
        parcels.loc[n, "OWNER2"] = None  # type: ignore[attr-defined]


def hostile_case(tmp_path: Path, rewrite: object = _city, extra: str = "") -> Path:
    """The East Providence case over a copy of its parcel layer rewritten by `rewrite`."""
    layer = tmp_path / "ri-east-providence.gpkg"
    shutil.copy(ROOT / "data" / "gis" / "ri-east-providence.gpkg", layer)
    parcels = pyogrio.read_dataframe(layer, layer="parcels")
    rewrite(parcels)  # type: ignore[operator]
    pyogrio.write_dataframe(parcels, layer, layer="parcels")
    case = tmp_path / "ep-2027-za-03.yaml"
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    case.write_text(text.replace("../data/gis/ri-east-providence.gpkg", str(layer)) + extra)
    return case


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The East Providence packet, its owners renamed with NAMES."""
    tmp = tmp_path_factory.mktemp("long-names")
    return build(hostile_case(tmp), tmp / "out").folder


def recipients_of(folder: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO((folder / "recipients.csv").read_text())))


# ---------------------------------------------------------------------- the packet


@pytest.mark.slow
def test_long_names_stay_in_the_window_on_the_labels_and_on_the_page(long_names: Path) -> None:
    """Every page of the packet read back: address inside the window less 1/8 in, each label's
    text inside its label, nothing off the page, nothing printed over anything."""
    result = audit(long_names.parent)
    assert result.documents >= 10
    assert [str(f) for f in result.findings] == []
    with pdfplumber.open(long_names / "labels.pdf") as pdf:
        left, top, width, height = (v * 72 for v in LABEL_IN)
        across, down = (v * 72 for v in LABEL_PITCH_IN)
        for c in pdf.pages[0].chars:
            column, row = int((c["x0"] - left) // across), int((c["top"] - top) // down)
            x0, y0 = left + column * across, top + row * down
            assert x0 <= c["x0"] and c["x1"] <= x0 + width, c["text"]
            assert y0 <= c["top"] and c["bottom"] <= y0 + height, c["text"]
            assert c["size"] >= mailroom.MIN_SIZE


@pytest.mark.slow
def test_a_shortened_name_is_a_warning_naming_the_owner_and_parcel(long_names: Path) -> None:
    """Deliverable (street and city lines whole): ready, one warning per owner, none from lint."""
    manifest = json.loads((long_names / "manifest.json").read_text())
    assert manifest["ready"], [f for f in manifest["findings"] if f["severity"] == "error"]
    rows = recipients_of(long_names)
    owners = [r for r in rows if r["recipient"] in {NAMES[k] for k in SHORTENED}]
    warned = [f for f in manifest["findings"] if f["code"] == "MAIL005"]
    assert len(warned) == len(owners) >= 4
    for row in owners:  # the owner's beginning and parcel, the law behind the letter
        parcel = re.escape(row["parcels"].split("; ")[0])
        (f,) = [f for f in warned if re.search(rf"\(parcels? {parcel}[,) ]", f["message"])]
        assert row["recipient"][:20] in f["message"] and f["severity"] == "warning"
        assert f["rule"] == row["rule"].split("; ")[0] and "45-24-53" in f["citation"]
        assert len(f["message"]) < 400  # the 5,000 characters are not repeated
    assert not [f for f in manifest["findings"] if f["code"] in ("NL005", "MAIL003")]
    whole = [r for r in rows if r["recipient"] == NAMES[61]]
    assert whole and not [f for f in warned if whole[0]["recipient"] in f["message"]]


@pytest.mark.slow
def test_the_window_shows_the_name_shortened_and_the_lists_keep_it_whole(
    long_names: Path,
) -> None:
    x, y, w, h = (v * 72 for v in mail_merge.ADDRESS_AT)
    with pdfplumber.open(long_names / "letters.pdf") as pdf:
        windows = [
            "".join((page.crop((x, y, x + w, y + h)).extract_text() or "").split())
            for page in pdf.pages
            if re.search(r"page 1 of \d+$", (page.extract_text() or "").strip())
        ]
    assert len(windows) == len(recipients_of(long_names))
    for length, name in NAMES.items():
        begins = "".join(mailroom.addressee(Recipient(name, [], "", "", "")).name.split())
        assert any(window.startswith(begins) for window in windows), length
        assert begins.endswith("…") == (length in SHORTENED)
    # The full name: recipients.csv, mailing_list.csv and Exhibit A of the affidavit.
    listed = {r["recipient"] for r in recipients_of(long_names)}
    assert set(NAMES.values()) <= listed
    mailing = (long_names / "mailing_list.csv").read_text()
    assert NAMES[5000] in mailing
    exhibit = _column(long_names / "affidavit_of_mailing.pdf", "Name", "Mailing")
    assert all("".join(name.split()) in exhibit for name in NAMES.values())
    # The Word letters print what the window prints, not 5,000 characters.
    body = zipfile.ZipFile(long_names / "letters.docx").read("word/document.xml").decode()
    assert NAMES[5000] not in body and NAMES[300] not in body
    assert mailroom.addressee(Recipient(NAMES[5000], [], "", "", "")).name in body


@pytest.mark.slow
def test_exhibit_a_wraps_a_long_word_inside_its_cell(long_names: Path) -> None:
    with pdfplumber.open(long_names / "affidavit_of_mailing.pdf") as pdf:
        for page in pdf.pages:
            for c in page.chars:
                assert c["x0"] >= 0 and c["x1"] <= page.width - 72 + 1, (page.page_number, c)


def _column(path: Path, heading: str, next_heading: str) -> str:
    """The text of a table's column on every page, without spaces: where its heading is."""
    out, box = [], None
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            words = page.extract_words()
            head = [w for w in words if w["text"] == heading]
            after = [w for w in words if w["text"] == next_heading]
            if head and after:
                box = (head[0]["x0"] - 1, head[0]["bottom"], after[0]["x0"] - 1, page.height)
            elif box:  # a row going on from the page before, under no heading
                box = (box[0], 0, box[2], page.height)
            if box:
                out.append("".join((page.crop(box).extract_text() or "").split()))
    # A row longer than a page goes on over the page's foot and the next page's heading.
    return re.sub(rf"Page\d+of\d+(No\.)?({heading})?", "", "".join(out))


# -------------------------------------------------------------- cannot be addressed


def test_an_address_that_cannot_fit_is_an_error_naming_recipient_and_parcel() -> None:
    many = Recipient(
        "RIVERSIDE NEIGHBORHOOD ASSOCIATION",
        [f"LINE {n} OF THE ADDRESS" for n in range(1, 10)],
        "EAST PROVIDENCE",
        "RI",
        "02914",
        parcels=["107-4-12"],
        rules=["owners_within_200_ft"],
        citations=["R.I.G.L. § 45-24-53(b)"],
    )
    data, findings = labels.labels_pdf(mailroom.pieces([many]), "labels")
    (f,) = findings
    assert f.code == "MAIL003" and f.severity == "error" and f.document == "labels.pdf"
    assert "RIVERSIDE NEIGHBORHOOD ASSOCIATION (parcel 107-4-12)" in f.message
    assert f.rule == "owners_within_200_ft"
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        lines = pdf.pages[0].extract_text().splitlines()
        chars = pdf.pages[0].chars
    # The bottom lines are kept - the delivery line and the city line - under the name.
    assert lines[0].startswith("RIVERSIDE") and lines[-1] == "EAST PROVIDENCE RI 02914"
    assert lines[-2] == "LINE 9 OF THE ADDRESS" and "LINE 1 OF THE ADDRESS" not in lines
    assert max(c["bottom"] for c in chars) <= labels.TOP + labels.LABEL_H


def test_a_window_that_cannot_hold_the_address_is_reported_for_the_letter() -> None:
    prepared = prepare(CASES / "ep-2027-za-03.yaml")
    long_street = ("1234 VERY LONG STREET NAME " * 20).strip()
    first = prepared.recipients.recipients[0]
    first.lines = [long_street]
    made = registry.make(prepared, kinds=(DocumentKind.LETTERS,))
    cut = [f for f in made.findings if f.code == "MAIL003"]
    assert len(cut) == 1 and cut[0].document == "letters.pdf" and cut[0].severity == "error"
    assert f"(parcel {first.parcels[0]})" in cut[0].message
    n = int(re.search(r"letter (\d+) shows", cut[0].message)[1])  # type: ignore[index]
    pdf = next(o for o in made.outputs if o.path == "letters.pdf").data
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = next(
            p
            for p in doc.pages
            if re.search(r"page 1 of \d+$", p.extract_text().strip()) and (n := n - 1) == 0
        )
        x, y, w, h = (v * 72 for v in mail_merge.ADDRESS_AT)
        assert "1234 VERY LONG STREET NAME" in page.extract_text()
        for c in page.chars:
            if y - 20 <= c["top"] <= y + h + 20 and c["x0"] < x + w + 20:
                assert x <= c["x0"] and c["x1"] <= x + w and c["bottom"] <= y + h, c


# ---------------------------------------------------------------- the block itself


@pytest.mark.parametrize("length", sorted(NAMES))
def test_every_window_line_keeps_to_40_characters_and_8_words(length: int) -> None:
    """USPS Publication 28 § 35: the reader ignores a longer line."""
    r = Recipient(NAMES[length], ["1053 BURNSIDE AVE"], "EAST PROVIDENCE", "RI", "02916")
    block = mailroom.address(r, 4 * 72, 0.8 * 72, 10)
    assert block.whole and block.lines[-2:] == ["1053 BURNSIDE AVE", "EAST PROVIDENCE RI 02916"]
    assert all(len(x) <= 40 and len(x.split()) <= 8 for x in block.lines)
    assert block.addressee.shortened == (length in SHORTENED)
    assert len(block.lines) - 2 <= mailroom.NAME_LINES
    printed = "".join(" ".join(block.lines[:-2]).split())
    assert printed.removesuffix("…") in "".join(NAMES[length].split())


def test_a_name_is_shortened_at_a_word() -> None:
    name = mailroom.addressee(Recipient(WORDS_200, [], "", "", "")).name
    assert name.endswith("JONATHAN…") and WORDS_200.startswith(name[:-1])


def test_the_firm_list_keeps_every_addressee_in_its_column() -> None:
    people = [
        Recipient(NAMES[length], ["1 MAIN ST", "APT 2", "BUILDING 3"], "EAST PROVIDENCE", "RI",
                  "02914")
        for length in sorted(NAMES)
    ]  # fmt: skip
    words = ep_templates().phrases("mail_phrases.j2")
    data = firm_mailing_list.firm_mailing_pdf(
        mailroom.pieces(people),
        sender=["City of East Providence", "Leah Stoddard, City Clerk", "145 Taunton Avenue"],
        certified=False,
        title="Case No. ZA-2027-03",
        words=words,
    )
    start = 0.5 * 72 + words.firm_columns[0][1] * 72
    end = start + words.firm_columns[1][1] * 72
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        foot = page.search("Postmark and date of receipt")[0]["top"]  # below the table
        chars = [c for c in page.chars if start < c["x0"] < end and 100 < c["top"] < foot]
        text = page.extract_text()
    assert chars and max(c["x1"] for c in chars) <= end
    assert "".join(text.split()).count("EASTPROVIDENCERI02914") == len(people)  # each whole


def test_the_overflow_page_of_a_long_list_of_long_parcels_stays_on_its_pages() -> None:
    from weasyprint import HTML

    body = HTML(string="<html lang=en><body><p>Body.</p></body></html>").write_pdf()
    owner = Recipient(
        NAMES[5000],
        ["1 MAIN ST"],
        "EAST PROVIDENCE",
        "RI",
        "02914",
        parcels=[f"107-{n}-1" for n in range(250)] + ["P" * 300],
    )
    tpl = ep_templates()
    greet = mail_merge.Greeter(
        tpl.phrases("letter_phrases.j2", municipality="City of East Providence"),
        tpl.phrases("mail_phrases.j2"),
        False,
        "R.I.G.L. § 45-24-53(b)",
    )
    made = mail_merge.combine({greet(owner): body}, [owner], greet, sender=["City Hall"])
    assert made.pages == 3  # the letter, and two pages of parcels
    with pdfplumber.open(io.BytesIO(made.pdf)) as pdf:
        for page in pdf.pages:
            assert all(c["x0"] >= 0 and c["x1"] <= page.width for c in page.chars)
            assert all(c["top"] >= 0 and c["bottom"] <= page.height for c in page.chars)
        listed = "".join((pdf.pages[1].extract_text() + pdf.pages[2].extract_text()).split())
        x, y, w, h = (v * 72 for v in mail_merge.PARCELS_AT)
        first = " ".join(pdf.pages[0].crop((x, y, x + w, y + h)).extract_text().split())
    # Every parcel listed: the long one wrapped in its column (read across the columns).
    assert "107-249-1" in listed and listed.count("P") >= 300 and "see the list on page 2" in first


# ---------------------------------------------------------------------- case values


def test_a_return_address_too_long_for_its_window_is_bad_input(tmp_path: Path) -> None:
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    old = "signer: {name: Leah Stoddard, title: City Clerk}"
    assert old in text
    title = "City Clerk and " * 18 + "Keeper of Records"  # within the 300 a field may have
    case = write_case(
        tmp_path, text.replace(old, f"signer: {{name: Leah Stoddard, title: {title}}}")
    )
    with pytest.raises(UserError) as raised:
        registry.make(prepare(case), kinds=(DocumentKind.LETTERS,))
    (problem,) = raised.value.problems
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("signer:"))
    assert problem.field == "signer" and problem.line == line
    assert "return window" in problem.message


@pytest.mark.slow
def test_a_long_case_value_on_a_sign_is_an_error_and_stays_on_the_panel(tmp_path: Path) -> None:
    """No owner or address from the parcel layer is printed on a sign (only the case's own
    parcels, districts and contact): the long value a sign can meet is the case's."""
    text = (CASES / "shelby-2027-map-01.yaml").read_text()
    old = "phone: (704) 484-6802"
    assert old in text
    case = write_case(tmp_path, text.replace(old, 'phone: "' + "7" * 300 + '"', 1))
    folder = build(case, tmp_path / "out").folder
    manifest = json.loads((folder / "manifest.json").read_text())
    assert not manifest["ready"]
    assert [f["document"] for f in manifest["findings"] if f["code"] == "SIGN002"] == ["sign.pdf"]
    result = audit(folder.parent)
    mine = [f for f in result.findings if f.check in ("outside-page", "overlap", "window")]
    assert not [f for f in mine if f.file.split("/")[-1] in ("sign.pdf", "letters.pdf")], mine


# ------------------------------------------------------------------------ the audit


def test_the_audit_finds_an_address_that_runs_past_its_label(tmp_path: Path) -> None:
    folder = packet(tmp_path, {"labels.pdf": "labels"})

    def sheet(line: str) -> None:
        pdf = rl_canvas.Canvas(str(folder / "labels.pdf"), pagesize=(612, 792))
        pdf.setFont("Helvetica", 9)
        x, top = labels.label_origin(0)
        pdf.drawString(x + labels.PAD, 792 - top - 16, line)
        pdf.save()

    sheet("SMITHERSON JONATHAN SMITHERSON JONATHAN SMITHERSON")
    hits = found(folder, "label")
    assert len(hits) == 1 and "runs past its label" in hits[0], hits
    sheet("SMITHERSON JONATHAN")
    assert found(folder) == []
