"""Issue 14: every sample case, mutated, through the real build: whole packet or nothing, nothing
outside --out, hostile strings literal, exit 0/1/2 and never a traceback.

CI runs a few fixed examples per sample; `make fuzz` runs many (tests/fuzzing.py says how). A
failure prints `Mutant(...)`: paste it into FOUND below as a regression test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from generator.yamlio import loads

from . import fuzzing
from .fuzzing import SAMPLES, Mutant


@pytest.mark.parametrize("sample", SAMPLES)
@fuzzing.budget()
@given(data=st.data())
def test_a_mutated_sample_builds_whole_or_not_at_all(sample: str, data: st.DataObject) -> None:
    fuzzing.check(data.draw(fuzzing.mutants(sample), label="mutant"))


@pytest.mark.parametrize("sample", SAMPLES)
def test_a_sample_written_back_reads_as_the_product_read_it(sample: str) -> None:
    """The fuzzer edits the case as the product parses it (YAML 1.2) and writes it back: without
    edits, the written YAML must mean the same case, or every mutant would test something else."""
    tree = fuzzing.sample_tree(sample)
    assert loads(fuzzing.dump(tree).decode(), "x.yaml").data == tree


def test_a_mutant_replays_its_edits() -> None:
    mutant = Mutant(
        "ep-2027-za-03",
        (
            ("set", ("contact", "name"), "zz{{ 7*7 }}zz"),
            ("drop", ("hearings", 0, "place")),
            ("name", "...yaml"),
        ),
    )
    case = yaml.safe_load(mutant.text())
    assert case["contact"]["name"] == "zz{{ 7*7 }}zz"
    assert "place" not in case["hearings"][0]
    assert mutant.file_name == "...yaml"
    assert eval(repr(mutant), {"Mutant": Mutant}) == mutant  # noqa: S307 - our own repr
    cut = Mutant("ep-2027-za-03", (("bytes", 10, 10**6, b""),))
    assert cut.text() == fuzzing.sample_text("ep-2027-za-03")[:10]


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("newspaper_notice.txt", "To zz49zz", "Evaluated"),
        ("website_notice.html", '<p><a href="javascript:alert(1)">x</a></p>', "LiveHtml"),
        ("website_notice.html", "<p>&lt;script&gt;</p><SCRIPT>x</SCRIPT>", "LiveHtml"),
        ("map.svg", '<svg><g onload="alert(1)"/></svg>', "LiveHtml"),
        ("mailing_list.csv", "name,zip\n=cmd|' /C calc'!A0,02914\n", "Formula"),
    ],
)
def test_the_oracle_sees_live_hostile_text(tmp_path: Path, name: str, text: str, kind: str) -> None:
    (tmp_path / name).write_text(text)
    with pytest.raises(AssertionError, match=kind):
        fuzzing.check_inert(tmp_path / name)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("website_notice.html", "<p>&lt;script&gt;alert(1)&lt;/script&gt; zz{{ 7*7 }}zz</p>"),
        ("website_notice.html", "<p>see javascript:alert(1) in the code</p>"),
        ("mailing_list.csv", "name,n\n'=cmd|' /C calc'!A0,-12\n"),
    ],
)
def test_the_oracle_lets_escaped_text_pass(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text)
    fuzzing.check_inert(tmp_path / name)


JS_LINK = "[the code](javascript:alert(document.cookie))"
# What `make fuzz` found (minimised by hand): each was exit 70 with a traceback, or a live link.
# A failure not fixed yet goes here with
# `marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=...)`, dropped with the fix.
FOUND = [
    pytest.param(  # was a ValueError in python-docx: a Word title over 255 characters
        Mutant("ok-2027-text-01", (("set", ("case_number",), "ZTA-" + "W" * 240),)),
        id="a-case-number-too-long-for-the-docx-title",
    ),
    pytest.param(  # the longest case number the input allows still makes a Word title
        Mutant("ok-2027-text-01", (("set", ("case_number",), "ZTA-" + "W" * 196),)),
        id="the-longest-case-number",
    ),
    pytest.param(  # was an OverflowError counting business days back
        Mutant("ok-2027-text-01", (("set", ("hearings", 0, "date"), "0001-01-01"),)),
        id="a-hearing-in-year-1",
    ),
    pytest.param(  # was an OverflowError judging lateness
        Mutant("ok-2027-text-01", (("set", ("as_of",), "9999-12-31"),)),
        id="as-of-in-year-9999",
    ),
    pytest.param(  # was an OverflowError in dateutil's relativedelta
        Mutant("ok-2027-map-01", (("set", ("petition_received",), "9999-12-31"),)),
        id="a-petition-received-in-year-9999",
    ),
    pytest.param(  # was an OverflowError setting the copy deadline
        Mutant(
            "ok-2027-text-01", (("set", ("newspaper", "copy_deadline", "days_before"), 10**30),)
        ),
        id="a-copy-deadline-of-10**30-days",
    ),
    pytest.param(  # was a live javascript: link in newspaper_notice.html
        Mutant(
            "ok-2027-text-01",
            (
                ("set", ("amendment", "full_text"), JS_LINK),
                ("set", ("amendment", "print_full_text"), True),
            ),
        ),
        id="a-javascript-link-in-the-full-text",
    ),
    pytest.param(  # was a ParseError (undefined entity) rendering the Markdown
        Mutant("ok-2027-text-01", (("set", ("amendment", "full_text"), "&nbsp;"),)),
        id="nbsp-in-the-full-text",
    ),
    pytest.param(  # was a ParseError (mismatched tag) rendering the Markdown
        Mutant("ok-2027-text-01", (("set", ("amendment", "full_text"), "![map](map.png)"),)),
        id="an-image-in-the-full-text",
    ),
    pytest.param(
        Mutant("ok-2027-text-01", (("set", ("timezone",), "text"),)),
        id="an-unknown-time-zone",
    ),
    pytest.param(
        Mutant("ok-2027-text-01", (("set", ("timezone",), "America/New_York ../"),)),
        id="a-time-zone-that-is-a-path",
    ),
    pytest.param(
        Mutant("az-2027-map-01", (("set", ("gis", "measure_crs"), "EPSG:0"),)),
        id="an-unknown-measuring-crs",
        marks=pytest.mark.xfail(
            strict=True, raises=AssertionError, reason="exit 70: pyproj CRSError"
        ),
    ),
]


@pytest.mark.parametrize("mutant", FOUND)
def test_a_mutant_the_fuzzer_found(mutant: Mutant) -> None:
    fuzzing.check(mutant)
