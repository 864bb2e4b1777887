"""Mailing addresses as counties publish them, read into USPS Publication 28 form.

Every row of tests/addresses/corpus.yaml (real address shapes, each with its source) must give
its expected fields; hostile text stays data; formatting a formatted address changes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.recipients.address import MailingAddress, from_block, from_parts, normalize_line

CORPUS = yaml.safe_load(
    (Path(__file__).parent / "addresses" / "corpus.yaml").read_text(encoding="utf-8")
)
CASES = CORPUS["cases"]


def _read(case: dict) -> MailingAddress:
    return from_block(case["block"]) if "block" in case else from_parts(**case["parts"])


def test_the_corpus_is_real_and_large_enough() -> None:
    assert len(CASES) >= 60
    assert len({c["id"] for c in CASES}) == len(CASES)
    for case in CASES:
        assert case["source"] in CORPUS["sources"], case["id"]
    kinds = {c["expect"]["kind"] for c in CASES}
    assert kinds == {"street", "po_box", "rural_route", "military", "foreign", "unparsed"}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_each_real_shape_reads_as_expected(case: dict) -> None:
    got = _read(case)
    expect = {"lines": [], "city": "", "state": "", "zip5": "", "zip4": "", "country": "",
              "problem": ""} | case["expect"]  # fmt: skip
    if expect["kind"] == "unparsed":
        # Kept as read, with the reason, and nothing guessed.
        assert (got.kind, got.problem) == ("unparsed", expect["problem"])
        assert (got.city, got.state, got.zip5, got.country) == ("", "", "", "")
        assert got.label() == list(got.lines) and got.lines
        return
    assert got.kind == expect["kind"]
    assert got.problem == ""
    assert list(got.lines) == expect["lines"]
    assert (got.city, got.state, got.zip5, got.zip4, got.country) == (
        expect["city"], expect["state"], expect["zip5"], expect["zip4"], expect["country"]
    )  # fmt: skip
    assert got.verbatim == tuple("" if v is None else str(v) for v in case.get("block", ())) or (
        "parts" in case
    )


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_formatting_a_formatted_address_changes_nothing(case: dict) -> None:
    first = _read(case)
    if first.kind == "unparsed":
        return
    again = from_block(first.label())
    assert again.label() == first.label()
    assert (again.kind, again.city, again.state, again.zip5, again.zip4, again.country) == (
        first.kind, first.city, first.state, first.zip5, first.zip4, first.country
    )  # fmt: skip
    for line in first.lines:
        assert normalize_line(line) == line


def test_the_label_ends_with_the_last_line_or_the_country() -> None:
    us = from_block(["123 North Main Street Apt 4", "Oro Valley AZ", "85755-1234"])
    assert us.label() == ["123 N MAIN ST APT 4", "ORO VALLEY AZ 85755-1234"]
    assert us.state == "AZ" and us.country == ""
    abroad = from_block(["12 High Street", "London SW1A 1AA", "England"])
    assert abroad.label() == ["12 HIGH STREET", "LONDON SW1A 1AA", "ENGLAND"]
    assert (abroad.kind, abroad.state, abroad.country) == ("foreign", "", "ENGLAND")


def test_the_issue_s_doubled_city_gives_one_last_line() -> None:
    """Issue 16: a MAIL block mapped field by field printed "ORO VALLEY AZ ORO VALLEY AZ 85755"."""
    got = from_block(["1 W CALLE CONCORDIA", "ORO VALLEY AZ", "ORO VALLEY AZ 85755"])
    assert got.label() == ["1 W CALLE CONCORDIA", "ORO VALLEY AZ 85755"]


@pytest.mark.parametrize(
    "line",
    [
        '=HYPERLINK("http://example.invalid","click")',
        "+1-800-555-0100",
        "@SUM(A1:A9)",
        "'; DROP TABLE parcels; --",
        "{{ owner.name }}",
    ],
)
def test_formula_looking_lines_stay_data(line: str) -> None:
    got = from_block([line, "240 N Stone Ave", "Tucson AZ 85701"])
    assert got.verbatim[0] == line  # the record keeps what the county wrote
    assert got.kind == "street" and got.lines[-1] == "240 N STONE AVE"
    for text in got.label():
        assert text[:1] not in ("=", "+", "@", "-"), text
    alone = from_block([line])
    assert alone.kind == "unparsed" and alone.verbatim == (line,)


@pytest.mark.parametrize("line", ["+1+12202 ROSE ST", "-2+32202 ROSE ST", "+1 2202 ROSE ST"])
def test_a_formula_typed_before_a_street_line_is_never_read_as_another_address(line: str) -> None:
    """Its signs dropped, "+1+12202 ROSE ST" would read "1 12202 ROSE ST" or "12202 ROSE ST 1"."""
    got = from_parts([line], city="PAWTUCKET", state="RI", zip_code="02861")
    assert got.kind == "unparsed" and got.problem == "no street address, PO box or route"
    assert (
        from_parts(["12 1/2 ROSE ST"], city="PAWTUCKET", state="RI", zip_code="02861").kind
        == "street"
    )


def test_control_characters_and_long_lines_stay_data() -> None:
    got = from_block(["240 N\tStone\x00 Ave\r\n", "Tucson\x1b AZ  85701"])
    assert got.label() == ["240 N STONE AVE", "TUCSON AZ 85701"]
    long = "9" * 5000 + " MAIN ST"
    got = from_block([long, "Tucson AZ 85701"])
    assert got.kind == "unparsed" and got.problem.startswith("a line of 5008 characters")
    assert got.verbatim[0] == long
    assert from_block([]).problem == "no address"
    assert from_block([None, "", "   "]).problem == "no address"  # type: ignore[list-item]


def test_zip_codes_are_never_padded() -> None:
    lines = ["25 Elm St"]
    assert from_parts(lines, "Boston", "MA", "02108").zip5 == "02108"
    assert from_parts(lines, "Boston", "MA", "021081234").zip4 == "1234"
    assert from_parts(lines, "Boston", "MA", "2108").kind == "unparsed"
    assert from_parts(lines, "Boston", "MA", "21081234").kind == "unparsed"
    assert from_parts(lines, "Boston", "MA", "").problem == "no ZIP code"
    assert from_parts(lines, "Boston", "XX", "02108").problem == (
        "state 'XX' is not a USPS state code"
    )


def test_normalize_line_compares_two_spellings_of_one_address() -> None:
    assert normalize_line("123 North Main Street, Apartment #4") == "123 N MAIN ST APT 4"
    assert normalize_line("123 N. MAIN ST. APT 4") == "123 N MAIN ST APT 4"
    assert normalize_line("P. O. Box 0123") == "PO BOX 0123"
    assert normalize_line("Rural Route 02 Box 152") == "RR 2 BOX 152"
    assert normalize_line("1 1/2 Elm Street") == "1 1/2 ELM ST"
    assert normalize_line("c/o Jane Roe") == "C/O JANE ROE"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=6))
def test_any_text_reads_without_error_and_a_label_reads_back_the_same(lines: list[str]) -> None:
    got = from_block(lines)
    assert got.kind in {"street", "po_box", "rural_route", "military", "foreign", "unparsed"}
    assert got.verbatim == tuple(lines)
    assert (got.problem == "") == (got.kind != "unparsed")
    if got.kind != "unparsed":
        assert from_block(got.label()).label() == got.label()


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([c for c in CASES if "block" in c and c["expect"]["kind"] != "unparsed"]),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
)
def test_an_extra_line_of_junk_never_changes_the_state(case: dict, junk: str) -> None:
    """A stray line above a real address may make it unparsed, but never gives another state."""
    got = from_block([junk, *case["block"]])
    if got.kind != "unparsed" and got.kind != "foreign":
        assert (got.state, got.zip5) == (case["expect"]["state"], case["expect"]["zip5"])
