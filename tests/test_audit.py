"""The packet audit (tools/audit) reads PDFs back as printed and says what is wrong.

Every check is shown to fire on a real bad PDF (typeset by WeasyPrint or drawn by ReportLab,
as the product makes its own) and to stay quiet on a good one; then the audit runs over every
sample packet, which must come out clean.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tools.audit import audit, dates
from tools.audit.pages import BEGIN, END, kinds

from .conftest import ROOT, notices, sample_cases

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
DEJAVU_CAP = 1493 / 2048  # DejaVu Sans Bold: capital height over the em
HEARINGS = {"planning": "2027-04-20", "council": "2027-05-10"}


# ------------------------------------------------------------------------------- helpers


def packet(
    tmp_path: Path,
    docs: dict[str, str],
    *,
    case: dict | None = None,
    name: str = "case-x",
) -> Path:
    """A packet folder: the PDFs already in it, a manifest naming their kinds, a plan."""
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    inputs = {}
    if case is not None:
        (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump(case))
        inputs = {"case": {"path": str(tmp_path / f"{name}.yaml")}}
    (folder / "manifest.json").write_text(
        json.dumps(
            {
                "case": name,
                "inputs": inputs,
                "documents": [
                    {"kind": kind, "format": "pdf", "path": path} for path, kind in docs.items()
                ],
            }
        )
    )
    (folder / "schedule.json").write_text(
        json.dumps([{"hearing": f"{body} {day}"} for body, day in HEARINGS.items()])
    )
    return folder


def html_pdf(path: Path, body: str, css: str = "") -> None:
    """Typeset `body` on letter paper with WeasyPrint, as the product's notices are."""
    from weasyprint import HTML

    HTML(
        string=(
            "<!doctype html><html><head><style>@page{size:letter;margin:1in}"
            f"body{{font:11pt 'DejaVu Sans'}}{css}</style></head><body>{body}</body></html>"
        )
    ).write_pdf(path)


def found(folder: Path, check: str | None = None) -> list[str]:
    """The audit's findings on the packets beside `folder`, as printed (of one check)."""
    return [str(f) for f in audit(folder.parent).findings if check is None or f.check == check]


NOTICE = (
    "<h1>NOTICE OF PUBLIC HEARING</h1>"
    "<p>The hearing will be held by the City Council on Monday, May 10, 2027, at 6:00 p.m., in"
    " Council Chambers, 200 North Main Street.</p>"
    "<p>Public hearing on this matter before the Planning Commission: {planning}</p>"
    "<p>{extra}</p>"
    "<p>Publication date: {published}.</p>"
)


def notice(**kw: str) -> str:
    values = {
        "planning": "Tuesday, April 20, 2027, at 6:00 p.m.",
        "extra": "Questions may be directed to the City Clerk.",
        "published": "Thursday, April 15, 2027",
    }
    return NOTICE.format(**{**values, **kw})


# -------------------------------------------------------------- placeholder, punctuation


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("I, ____________ (the local government), certify that I posted the sign.", "label"),
        ("I, ____________ (the applicant (the Town, if it applied)), certify so.", "nested"),
        ("Required by Zoning Code § 4-2-3(D) (sample).", "sample marker"),
        ("The sign was the one generated for this case.", "program's word"),
        ("The hearing is on {{ hearing.date }}.", "template code"),
        ("Dear [Owner name]:", "bracket"),
        ("Mail it to None, RI 02914.", "not there"),
        ("The hearing is on &lt;date&gt;.", "slot name"),
    ],
)
def test_placeholder_text_is_found(tmp_path: Path, text: str, label: str) -> None:
    folder = packet(tmp_path, {"newspaper_notice.pdf": "newspaper_notice"})
    html_pdf(folder / "newspaper_notice.pdf", notice(extra=text))
    hits = found(folder, "placeholder")
    assert len(hits) == 1, hits
    assert hits[0].startswith("case-x/newspaper_notice.pdf:1: placeholder: "), hits


def test_a_clean_notice_and_the_clerks_own_brackets_pass(tmp_path: Path) -> None:
    """Words the clerk typed in the case are theirs: a bracket in a legal description stays."""
    legal = "Lot 4 [formerly Lot 12], Block 3, Westside Addition"
    folder = packet(
        tmp_path,
        {"newspaper_notice.pdf": "newspaper_notice"},
        case={"parcels": [{"id": "1", "legal_description": legal}]},
    )
    html_pdf(
        folder / "newspaper_notice.pdf",
        notice(extra=f"The property: {legal}. None of the lots is affected otherwise. Wait..."),
    )
    assert found(folder) == []


@pytest.mark.parametrize(
    "text",
    ["The hearing is at 6:00 p.m..", "at 6:00 p.m. . The clerk", "Newport,, RI", "Newport, ."],
)
def test_doubled_punctuation_is_found(tmp_path: Path, text: str) -> None:
    folder = packet(tmp_path, {"newspaper_notice.pdf": "newspaper_notice"})
    html_pdf(folder / "newspaper_notice.pdf", notice(extra=text))
    hits = found(folder, "punctuation")
    assert len(hits) == 1 and ": punctuation: " in hits[0], hits


# --------------------------------------------------------------------------------- dates


def test_a_notice_published_after_a_hearing_it_names_is_found(tmp_path: Path) -> None:
    """The Oklahoma notice of issue 13: published April 22, it names the April 20 hearing."""
    folder = packet(tmp_path, {"newspaper_notice.pdf": "newspaper_notice"})
    html_pdf(folder / "newspaper_notice.pdf", notice(published="Thursday, April 22, 2027"))
    assert found(folder) == [
        "case-x/newspaper_notice.pdf:1: dates: names the planning hearing of Tuesday, April 20,"
        " 2027, which is past on its publication date Thursday, April 22, 2027"
    ]


def test_the_last_publication_date_counts(tmp_path: Path) -> None:
    folder = packet(tmp_path, {"newspaper_notice.pdf": "newspaper_notice"})
    published = "Thursday, April 8, 2027; Thursday, April 15, 2027; Thursday, April 22, 2027"
    html_pdf(folder / "newspaper_notice.pdf", notice(published=published))
    assert len(found(folder, "dates")) == 1
    html_pdf(folder / "newspaper_notice.pdf", notice(published="Thursday, April 15, 2027"))
    assert found(folder) == []


def test_a_notice_that_states_no_publication_date_is_found(tmp_path: Path) -> None:
    folder = packet(tmp_path, {"newspaper_notice.pdf": "newspaper_notice"})
    html_pdf(folder / "newspaper_notice.pdf", notice().replace("Publication date:", "Issue:"))
    assert found(folder) == [
        "case-x/newspaper_notice.pdf:1: dates: no publication date found: the day it goes out is"
        " not stated"
    ]


# ------------------------------------------------------------------------------- letters


def letter_pdf(path: Path, letters: list[dict]) -> None:
    """Letters drawn with ReportLab at exact positions (inches from the top-left corner)."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("DejaVu", str(FONT.with_name("DejaVuSans.ttf"))))
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    height = letter[1]

    def text(x_in: float, baseline_in: float, s: str, size: float = 10) -> None:
        c.setFont("DejaVu", size)
        c.drawString(x_in * 72, height - baseline_in * 72, s)

    for spec in letters:
        for i, line in enumerate(("City of Sample City", "200 North Main Street")):
            text(0.6, 0.6 + i * 0.17, line, 9)
        x, y = spec.get("address_at", (1.1, 2.45))
        for i, line in enumerate(
            spec.get("address", ("JANE Q OWNER", "12 ELM ST", "SAMPLE CITY OK 74999"))
        ):
            text(x, y + i * 0.17, line)
        if spec.get("parcel_in_window"):
            text(3.5, 2.45, "Your parcel: R0412480", 8)
        text(1.0, 3.6, spec.get("date", "Monday, March 29, 2027"))
        text(1.0, 4.2, "Dear Property Owner:")
        text(1.0, 4.6, spec.get("hearing", "The hearing will be held on Tuesday, April 20, 2027."))
        text(4.5, 10.6, "JANE Q OWNER — page 1 of 1", 8)
        c.showPage()
    c.save()


def test_a_letter_in_the_window_passes(tmp_path: Path) -> None:
    folder = packet(tmp_path, {"letters.pdf": "letters"})
    letter_pdf(
        folder / "letters.pdf", [{}, {"address": ("JOHN ROE", "PO BOX 7", "TULSA OK 74101")}]
    )
    assert found(folder) == []


def test_an_address_above_the_window_and_a_parcel_line_in_it_are_found(tmp_path: Path) -> None:
    """Issue 13: the address block touching the window's top, the parcel line showing in it."""
    folder = packet(tmp_path, {"letters.pdf": "letters"})
    letter_pdf(
        folder / "letters.pdf",
        [{}, {"address_at": (1.1, 2.12), "parcel_in_window": True}],
    )
    hits = found(folder, "window")
    assert hits == [
        "case-x/letters.pdf:2: window: text shows through the window besides the address:"
        " “Your parcel: R0412480”",
        "case-x/letters.pdf:2: window: the address block's top is at 2.014 in; the window less"
        " 1/8 in is 1.025–5.175 in from the left and 2.125–2.975 in from the top",
    ]


def test_a_letter_dated_after_its_hearing_is_found(tmp_path: Path) -> None:
    """The Arizona council letters of issue 13: dated after the hearing they announce."""
    folder = packet(tmp_path, {"letters.pdf": "letters"})
    letter_pdf(folder / "letters.pdf", [{"date": "Wednesday, April 21, 2027"}] * 3)
    assert found(folder) == [
        "case-x/letters.pdf:1: dates: names the planning hearing of Tuesday, April 20, 2027,"
        " which is past on its letter date Wednesday, April 21, 2027 (and on 2 more pages)"
    ]


def test_a_letter_dated_on_the_day_of_another_hearing_names_only_its_own(tmp_path: Path) -> None:
    """Issue 17: the Oklahoma council letters and sign go out on the commission's hearing day.

    Their date is not the commission hearing they name; a letter of that day that does name the
    commission hearing still is.
    """
    folder = packet(tmp_path, {"letters.pdf": "letters"})
    council = "The City Council will hold its hearing on Monday, May 10, 2027."
    letter_pdf(folder / "letters.pdf", [{"date": "Tuesday, April 20, 2027", "hearing": council}])
    assert found(folder) == []
    letter_pdf(folder / "letters.pdf", [{"date": "Tuesday, April 20, 2027"}])
    assert found(folder) == [
        "case-x/letters.pdf:1: dates: names the planning hearing of Tuesday, April 20, 2027,"
        " which is that same day on its letter date Tuesday, April 20, 2027"
    ]


def test_a_letter_dated_on_a_sunday_is_found(tmp_path: Path) -> None:
    """The Oklahoma council letters of issue 13 carried the case's as-of date, a Sunday."""
    folder = packet(tmp_path, {"letters.pdf": "letters"})
    letter_pdf(folder / "letters.pdf", [{"date": "Sunday, November 29, 2026"}])
    assert found(folder) == [
        "case-x/letters.pdf:1: dates: its letter date Sunday, November 29, 2026 is a Sunday,"
        " when no mail is taken"
    ]


# --------------------------------------------------------------------------------- signs


def sign_pdf(path: Path, lines: list[tuple[str, float]]) -> None:
    """A 96 × 48 in sign: each line in DejaVu Sans Bold capitals `cap_in` tall."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("DejaVuBold", str(FONT)))
    c = canvas.Canvas(str(path), pagesize=(96 * 72, 48 * 72), invariant=1)
    y = 48 * 72 - 72
    for text, cap_in in lines:
        size = cap_in * 72 / DEJAVU_CAP
        y -= cap_in * 72 * 1.3
        c.setFont("DejaVuBold", size)
        c.drawString(72, y, text)
    c.save()


SIGN_CASE = {
    "parcels": [{"current_district": "R-1 Single-Family", "proposed_district": "C-2 (Commercial)"}]
}
SIGN_LINES = ["REZONING", "R-1 TO C-2", "APRIL 20, 2027, 6:00 P.M.", "(405) 555-0120"]


def test_sign_capitals_tall_enough_for_100_ft_pass(tmp_path: Path) -> None:
    folder = packet(tmp_path, {"sign.pdf": "sign"}, case=SIGN_CASE)
    sign_pdf(
        folder / "sign.pdf",
        [*((t, 4.1) for t in SIGN_LINES), ("POSTED NO LATER THAN MARCH 31, 2027", 1.0)],
    )
    assert found(folder) == []


def test_sign_capitals_too_small_or_missing_are_found(tmp_path: Path) -> None:
    """The Oklahoma and Shelby signs of issue 13: 2 in capitals, no phone number."""
    folder = packet(tmp_path, {"sign.pdf": "sign"}, case=SIGN_CASE)
    sign_pdf(
        folder / "sign.pdf",
        [*((t, 2.0) for t in SIGN_LINES[:3]), ("POSTED NO LATER THAN MARCH 31, 2027", 1.0)],
    )
    hits = found(folder, "sign-capitals")
    need = "legible from 100 ft needs capitals 4.00 in tall (no distance in the law: 100 ft)"
    assert hits == [
        f"case-x/sign.pdf:1: sign-capitals: {what}; {need}"
        for what in (
            "a phone number or web address is not on the sign",
            "the hearing date is 2.00 in tall",
            "the hearing time is 2.00 in tall",
            "the present district R-1 is 2.00 in tall",
            "the proposed district C-2 is 2.06 in tall",  # round C and 2 overshoot
            "the word ZONING or REZONING is 2.00 in tall",
        )
    ]


# ------------------------------------------------------------------- overlap, off the page


def test_text_printed_over_text_is_found(tmp_path: Path) -> None:
    folder = packet(tmp_path, {"newspaper_notice.pdf": "newspaper_notice"})
    css = ".a,.b{position:absolute;top:6in;left:0}.b{top:6.03in;left:0.05in}"
    body = (
        notice()
        + '<div class="a">Map legend: notified parcel</div><div class="b">GREENWOOD AVE</div>'
    )
    html_pdf(folder / "newspaper_notice.pdf", body, css)
    hits = found(folder, "overlap")
    assert len(hits) == 1 and "GREENWOOD" in hits[0] and "legend" in hits[0], hits
    html_pdf(folder / "newspaper_notice.pdf", body, css.replace("6.03in", "6.4in"))
    assert found(folder) == []


def test_text_off_the_page_is_found(tmp_path: Path) -> None:
    folder = packet(tmp_path, {"newspaper_notice.pdf": "newspaper_notice"})
    css = ".off{position:absolute;top:8in;left:6.5in;white-space:nowrap}"
    html_pdf(
        folder / "newspaper_notice.pdf",
        notice() + '<div class="off">3 col × 7.00 in = 38.9 sq in</div>',
        css,
    )
    hits = found(folder, "outside-page")
    assert len(hits) == 1 and "off the right edge" in hits[0], hits
    html_pdf(
        folder / "newspaper_notice.pdf",
        notice() + '<div class="off">3 col</div>',
        css,
    )
    assert found(folder) == []


# ----------------------------------------------------------------------- review, command


def test_the_review_folder_shows_each_first_page_with_its_findings(tmp_path: Path) -> None:
    folder = packet(tmp_path, {"newspaper_notice.pdf": "newspaper_notice"})
    html_pdf(folder / "newspaper_notice.pdf", notice(extra="<b>Open</b> at 6:00 p.m.."))
    review = tmp_path / "review"
    result = audit(tmp_path, review=review)
    assert result.index == review / "index.html"
    page = result.index.read_text()
    assert 'src="case-x/newspaper_notice.png"' in page
    assert "punctuation: a doubled period" in page
    from PIL import Image

    with Image.open(review / "case-x" / "newspaper_notice.png") as image:
        assert image.size == (425, 550)  # letter paper at 50 dpi


def test_the_command_prints_file_page_check_what_and_fails_on_any(tmp_path: Path) -> None:
    folder = packet(tmp_path, {"newspaper_notice.pdf": "newspaper_notice"})
    html_pdf(folder / "newspaper_notice.pdf", notice(extra="At 6:00 p.m.."))
    run = subprocess.run(
        [sys.executable, "-m", "tools.audit", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert re.fullmatch(
        r"case-x/newspaper_notice\.pdf:1: punctuation: a doubled period: .*\n", run.stdout
    )
    html_pdf(folder / "newspaper_notice.pdf", notice())
    run = subprocess.run(
        [sys.executable, "-m", "tools.audit", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode, run.stdout) == (0, "")


def test_dates_are_read_in_the_forms_notices_write_them() -> None:
    text = "APRIL 20, 2027; Tue 2027-04-20; 4/20/2027; 20 April 2027; Tuesday, April 20; may 4"
    assert [m.day.isoformat() for m in dates.find(text, (2027,))] == ["2027-04-20"] * 5


def test_the_readme_shows_a_page_of_every_kind_of_document() -> None:
    """`make readme-pages` keeps docs/pages/ and the README section current."""
    readme = (ROOT / "README.md").read_text()
    shown = readme[readme.index(BEGIN) : readme.index(END)]
    pictures = re.findall(r'src="(docs/pages/[^"]+)"', shown)
    assert all((ROOT / p).is_file() for p in pictures), pictures
    assert sorted(Path(p).stem for p in pictures) == sorted(
        [*(k for k, _ in kinds()), "redline"]
    ), "run `make readme-pages`"


# ------------------------------------------------------------------- every sample packet


@pytest.mark.slow
def test_every_sample_packet_passes_the_audit(tmp_path: Path) -> None:
    """Issue 13: no document of any sample packet lies or looks wrong on paper."""
    run = notices("build", *map(str, sample_cases()), "--out", str(tmp_path))
    assert run.returncode in (0, 1), run.stderr
    result = audit(tmp_path)
    assert result.packets == len(sample_cases())
    assert not result.findings, "\n" + "\n".join(map(str, result.findings))
