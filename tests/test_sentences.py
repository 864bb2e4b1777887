"""A sentence ends with one full stop, whatever the case value it ends with (issue 13: "6:00 p.m..")."""

from __future__ import annotations

import io
import re
from pathlib import Path

import docx
import pdfplumber
import pytest

from generator.documents import newspaper_notice
from generator.prepare import prepare
from generator.render import templates
from tests.conftest import CASES, write_case

# ".." (not an ellipsis), ",,", ". .", ", ." , ",." and ";." are never right in a notice.
DOUBLED = re.compile(r"(?<!\.)\.\.(?!\.)|,\s*,|\.\s+\.|,\s*\.(?!\d)|;\s*\.")


def texts(case: Path) -> dict[str, str]:
    """Every newspaper notice of a case in every format, read back as the reader sees it."""
    prepared = prepare(case)
    out = {}
    for o in newspaper_notice.build(prepared, templates.for_pack(prepared.pack)).outputs:
        if o.path.endswith(".txt"):
            out[o.path] = o.data.decode()
        elif o.path.endswith(".pdf"):
            with pdfplumber.open(io.BytesIO(o.data)) as pdf:
                out[o.path] = "\n".join(page.extract_text() for page in pdf.pages)
        elif o.path.endswith(".docx"):
            out[o.path] = "\n".join(p.text for p in docx.Document(io.BytesIO(o.data)).paragraphs)
        else:
            out[o.path] = re.sub(r"<style>.*?</style>|<[^>]+>", " ", o.data.decode(), flags=re.S)
    return out


def doubled(text: str) -> list[str]:
    return [text[max(0, m.start() - 30) : m.end() + 10] for m in DOUBLED.finditer(text)]


@pytest.fixture(scope="module")
def ending_in_stops(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The Oklahoma map case whose values end with their own full stops, and no online address."""
    text = (CASES / "ok-2027-map-01.yaml").read_text()
    for old, new in (
        (
            "to C-2 General Commercial District\n  initiated_by",
            "to C-2 General Commercial District.\n  initiated_by",
        ),
        ("and off-street parking\napplicant:", "and off-street parking.\napplicant:"),
        ("name: Cedar & Main Development, LLC", "name: Cedar & Main Development Co."),
        ("  url: https://www.samplecityok.gov/planning\n", ""),
        ("8:00 a.m. to 5:00 p.m., except legal holidays", "8:00 a.m. to 5:00 p.m."),
        (
            "  name: Marcus Redbird\n  title: City Planner and Secretary of the Planning Commission\n"
            "  phone: (405) 555-0120\n  email: planning@samplecityok.gov\n",
            "  name: Marcus Redbird Jr.\n",
        ),
    ):
        assert old in text, old
        text = text.replace(old, new)
    return texts(write_case(tmp_path_factory.mktemp("stops"), text))


def test_a_value_ending_in_a_full_stop_ends_its_sentence_once(
    ending_in_stops: dict[str, str],
) -> None:
    assert set(ending_in_stops) >= {"newspaper_notice.txt", "newspaper_notice.pdf"}
    for name, text in ending_in_stops.items():
        assert not doubled(text), (name, doubled(text))
    txt = " ".join(ending_in_stops["newspaper_notice.txt"].split())
    assert "Monday through Friday, 8:00 a.m. to 5:00 p.m. " in txt  # no online address
    assert "General Commercial District. " in txt
    assert "Applicant: Cedar & Main Development Co. " in txt
    assert "Questions may be directed to Marcus Redbird Jr. " in txt


def test_the_samples_notices_have_no_doubled_punctuation() -> None:
    for name, text in texts(CASES / "ok-2027-map-01.yaml").items():
        assert not doubled(text), (name, doubled(text))
        assert "p.m., in Council Chambers" in " ".join(text.split())  # "p.m.," is right


def test_a_title_that_names_the_case_number_does_not_print_it_twice() -> None:
    """The Arizona and Shelby samples' titles end "(RZ-2027-01)"; the subject line names the case."""
    printed = texts(CASES / "az-2027-map-01.yaml")
    for name, text in printed.items():
        if not name.endswith(".html"):  # the page's <title> names it too, out of print
            assert text.count("RZ-2027-01") == 1, (name, text.count("RZ-2027-01"))
    assert "Case No. RZ-2027-01" in printed["newspaper_notice-council.txt"]


@pytest.mark.parametrize(
    ("name", "reads"),
    [
        ("Sample Township", "the Zoning Ordinance of Sample Township by a change"),
        ("Township of Sample", "the Zoning Ordinance of the Township of Sample by a change"),
    ],
)
def test_a_municipality_named_as_a_proper_name_takes_no_article(
    tmp_path: Path, name: str, reads: str
) -> None:
    """A name in the style "<kind> of <name>" takes "the", a proper name none.

    Templates said "the {municipality}", which read "the Sample Township".
    """
    text = (CASES / "pa-2027-map-01.yaml").read_text()
    text = text.replace("municipality: Sample Township", f"municipality: {name}")
    printed = " ".join(texts(write_case(tmp_path, text))["newspaper_notice.txt"].split())
    assert reads in printed
    assert "the Sample Township" not in printed
