"""The insertion order for the paper's legal desk (issue 19): size, cost, cap, bill-to, e-mail."""

from __future__ import annotations

import email
import io
from datetime import date
from decimal import Decimal
from email import policy
from pathlib import Path

import pytest

from generator.documents import insertion_order as order
from generator.documents import registry
from generator.kinds import DocumentKind
from generator.models.newspaper import LegalType, RateCard
from generator.models.pack import LegalRateCap
from generator.prepare import prepare

from .conftest import CASES, ROOT, notices

# Two paragraphs and the blank line between them, at 20 characters a line:
#   "NOTICE OF PUBLIC" / "HEARING"                                   2 lines
#   (blank)                                                          1 line
#   "The council will" / "hold a hearing on" / "the rezoning."       3 lines
COPY = "NOTICE OF PUBLIC HEARING\n\nThe council will hold a hearing on the rezoning.\n"
LEGAL = LegalType(points=7, leading=8, column_width_in=1.5, chars_per_line=20)
ISSUES = [date(2027, 3, 4), date(2027, 3, 11)]


def card(per: str, first: str, later: str) -> RateCard:
    return RateCard(
        sample=True,
        per=per,
        first_insertion=Decimal(first),
        later_insertion=Decimal(later),
        affidavit_fee=Decimal("5.00"),
        minimum_charge=Decimal("5.00"),
    )


def test_the_size_is_counted_by_hand() -> None:
    size = order.measure(COPY, LEGAL)
    # 13 words; 6 lines; 6 lines × 8 pt = 48 pt = 0.667 in, up to the next tenth: 0.7 in.
    assert (size.words, size.lines, size.column_inches) == (13, 6, Decimal("0.7"))


def test_a_cost_per_line_against_a_hand_computed_one() -> None:
    cost = order.estimate(order.measure(COPY, LEGAL), card("line", "0.85", "0.70"), ISSUES)
    # First: 6 × $0.85 = $5.10. Later: 6 × $0.70 = $4.20, raised to the $5.00 minimum.
    # Affidavit $5.00. Total $15.10.
    assert [(i.charge, i.minimum) for i in cost.insertions] == [
        (Decimal("5.10"), False),
        (Decimal("5.00"), True),
    ]
    assert cost.total == Decimal("15.10")


def test_a_cost_per_column_inch_against_a_hand_computed_one() -> None:
    cost = order.estimate(order.measure(COPY, LEGAL), card("column_inch", "12.50", "10.00"), ISSUES)
    # 0.7 col. in.: first 0.7 × $12.50 = $8.75; later 0.7 × $10.00 = $7.00; affidavit $5.00.
    assert [i.charge for i in cost.insertions] == [Decimal("8.75"), Decimal("7.00")]
    assert cost.total == Decimal("20.75")


def test_a_cap_in_dollars_is_checked_in_either_unit() -> None:
    cap = LegalRateCap(citation="Test cap", text="A test cap.", limit="9 cents a line",
                       per_line=Decimal("0.09"))  # fmt: skip
    assert "more than the cap of $0.09 a line" in order.over_cap(
        card("line", "0.10", "0.1"), LEGAL, cap
    )
    # $0.90 a column inch at 9 lines an inch (8 pt leading) is $0.10 a line.
    assert order.over_cap(card("column_inch", "0.90", "0.9"), LEGAL, cap)
    assert order.over_cap(card("column_inch", "0.81", "0.8"), LEGAL, cap) is None


@pytest.fixture(scope="module")
def tx(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The Texas sample's insertion orders, by file name."""
    made = registry.make(prepare(CASES / "tx-2027-map-01.yaml"), (DocumentKind.INSERTION_ORDER,))
    return {o.path: o.data for o in made.outputs}


def _pdf_text(data: bytes) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(io.BytesIO(data))
    return " ".join(" ".join(page.get_textpage().get_text_range().split()) for page in doc)


def test_the_texas_order_names_dates_deadline_size_cost_cap(tx: dict[str, bytes]) -> None:
    assert set(tx) == {
        "insertion_order-council.pdf",
        "insertion_order-council.eml",
        "insertion_order-planning.pdf",
        "insertion_order-planning.eml",
    }
    text = _pdf_text(tx["insertion_order-council.pdf"])
    # The issue and the copy deadline as the schedule computed them (5 days before, 5:00 p.m.).
    assert "Wednesday, April 7, 2027" in text
    assert "Friday, April 2, 2027, 5:00 p.m." in text
    # 96 lines at the Courier's sample $0.85 a line = $81.60, + the $5.00 affidavit = $86.60.
    assert "96 lines" in text and "$81.60" in text and "$86.60" in text
    assert "SAMPLE FIGURES" in text
    assert "Tex. Gov't Code §§ 2051.048(b), 2051.051" in text
    assert "Legal Notices" in text


def test_the_email_is_addressed_to_the_legal_desk_with_the_copy(tx: dict[str, bytes]) -> None:
    msg = email.message_from_bytes(tx["insertion_order-council.eml"], policy=policy.default)
    assert msg["To"] == "legals@pecangrovecourier.com"
    assert msg["From"] == "planning@pecangrovetx.gov"
    assert "ZC-2027-04" in msg["Subject"]
    names = [p.get_filename() for p in msg.iter_attachments()]
    assert names == [
        "newspaper_notice-council.txt",
        "newspaper_notice-council.docx",
        "insertion_order-council.pdf",
    ]
    copy = next(msg.iter_attachments()).get_content()
    assert "6:00 p.m." in copy and "NOTICE OF PUBLIC HEARING" in copy
    assert "$86.60" in msg.get_body(("plain",)).get_content()


def test_the_same_case_gives_the_same_bytes(tx: dict[str, bytes]) -> None:
    again = registry.make(prepare(CASES / "tx-2027-map-01.yaml"), (DocumentKind.INSERTION_ORDER,))
    assert {o.path: o.data for o in again.outputs} == tx


def test_a_map_goes_with_the_copy_and_the_applicant_is_billed(tmp_path: Path) -> None:
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    text = text.replace("newspaper:\n", "newspaper:\n  bill_to: applicant\n", 1)
    map_svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="50" height="50"/></svg>'
    text += "map: {image: map.svg, caption: The change, alt: A map of the parcel}\n"
    case = tmp_path / "ep-2027-za-03.yaml"
    case.write_text(text.replace("../data/gis/", f"{CASES.parent / 'data' / 'gis'}/"))
    (tmp_path / "map.svg").write_text(map_svg)
    prepared = prepare(case)
    made = registry.make(prepared, (DocumentKind.INSERTION_ORDER,))
    eml = next(o.data for o in made.outputs if o.path.endswith(".eml"))
    msg = email.message_from_bytes(eml, policy=policy.default)
    assert [p.get_content_type() for p in msg.iter_attachments()][-1] == "image/svg+xml"
    pdf = next(o.data for o in made.outputs if o.path.endswith(".pdf"))
    assert prepared.case.applicant.name in _pdf_text(pdf)
    assert "ORDER003" not in {f.code for f in made.findings}


def test_a_rate_cap_of_a_bad_shape_is_refused_with_its_place(tmp_path: Path) -> None:
    packs = tmp_path / "jurisdictions"
    packs.mkdir()
    text = (ROOT / "jurisdictions" / "us-tx.yaml").read_text(encoding="utf-8")
    text = text.replace("  citation: Tex. Gov't Code §§ 2051.048(b), 2051.051\n", "", 1)
    (packs / "us-tx.yaml").write_text(
        text.replace("legal_rate_cap:\n", "legal_rate_cap:\n  per_line: -1\n", 1)
    )
    result = notices("explain", "us-tx", env={"NOTICES_JURISDICTIONS": str(packs)})
    assert result.returncode == 2
    line = text.splitlines().index("legal_rate_cap:") + 2  # the mapping, on its first key
    assert (
        f"us-tx.yaml:{line}:3: legal_rate_cap.citation: required field is missing" in result.stderr
    )
    assert "legal_rate_cap.per_line: Input should be greater than 0" in result.stderr


def test_explain_shows_the_cap() -> None:
    result = notices("explain", "us-nc-shelby")
    assert "Legal-notice rate cap: the newspaper's local commercial rate" in result.stdout
    assert "G.S. 1-596" in result.stdout
