"""A body's numbered hearings (`council#2`), a hearing timed from another, the time of day of
hearings, and a display ad's floor in columns, inches and headline type: pack shapes and the
Florida sample's display ads (Fla. Stat. § 166.041(3)(c)2. in the Florida pack)."""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber
import pytest

from generator.documents import display_ad
from generator.documents.display_ad import Minimum, size
from generator.errors import UserError
from generator.inputs import load_profile
from generator.rules.loader import load_pack_file

from .conftest import CASES
from .test_display_ad import make, trim_box_in
from .test_pack_loading import STATE, packs, problems

NEWSPAPER = "      channel: newspaper\n      document: newspaper_notice\n"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            NEWSPAPER,
            NEWSPAPER + "      hearing: council#two\n",
            "rules[0].params.hearing: a hearing is council, planning, first, each, or a body's nth"
            " hearing written like council#2 (got 'council#two')",
        ),
        (NEWSPAPER, NEWSPAPER + "      hearing: mayor#1\n", "rules[0].params.hearing.body"),
        (
            "    params: {topic: cost_borne_by_applicant}\n",
            "    params: {topic: cost_borne_by_applicant}\n"
            "  - {id: spacing, title: T, citation: X § 2, text: T, kind: deadline, params: {action:"
            " decision, hearing: council#2, from_hearing: council#1, timing: {type: at_least_after,"
            " days: 10}}}\n",
            "`from_hearing` times a hearing from another: action hold_hearing",
        ),
        (
            "    params: {topic: cost_borne_by_applicant}\n",
            "    params: {topic: cost_borne_by_applicant}\n"
            "  - {id: evening, title: T, citation: X § 2, text: T, kind: hearing_time, params:"
            " {hearing: council}}\n",
            "a hearing_time rule states `after`, `weekdays_only` or both",
        ),
        (
            "    params: {topic: cost_borne_by_applicant}\n",
            "    params: {topic: cost_borne_by_applicant}\n"
            "  - {id: evening, title: T, citation: X § 2, text: T, kind: hearing_time, params:"
            ' {after: "five"}}\n',
            "rules[4].params.after",
        ),
    ],
)
def test_bad_shapes_are_located(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert old in STATE
    root = packs(tmp_path, us_xx=STATE.replace(old, new, 1))
    with pytest.raises(UserError) as exc:
        load_pack_file("us-xx", root)
    text = problems(exc)
    assert expected in text
    assert "us-xx.yaml:" in text


def test_the_floor_of_columns_and_inches_binds_a_share_free_ad() -> None:
    page = load_profile("sabal-springs-courier").page
    ad = size(page, 0.0, least=Minimum(columns=2, depth_in=10))
    assert ad.columns >= 2 and ad.depth_in >= 10
    narrow = size(page, 0.0, columns=2, least=Minimum(columns=2, depth_in=10))
    assert (narrow.columns, narrow.depth_in) == (2, 10)
    with pytest.raises(ValueError, match="2 to 5 columns"):
        size(page, 0.0, columns=1, least=Minimum(columns=2))


@pytest.mark.slow
def test_the_florida_large_rezoning_ads_are_2_columns_by_10_inches_with_an_18_point_headline() -> (
    None
):
    made = make(CASES / "fl-2027-map-02.yaml")
    assert not [f for f in made.findings if f.severity == "error"], made.findings
    ads = [o for o in made.outputs if o.format.value == "pdf"]
    assert len(ads) == 2  # one for each of the Commission's two hearings
    for ad in ads:
        width, depth = trim_box_in(ad.data)
        assert depth >= 10 - 1e-6 and width >= display_ad.column_width(
            load_profile("sabal-springs-courier").page, 2
        )
        with pdfplumber.open(io.BytesIO(ad.data)) as pdf:
            biggest = max(c["size"] for c in pdf.pages[0].chars)
        assert biggest >= 18 - 0.01
