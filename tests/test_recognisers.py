"""Clauses are recognised by meaning, as the packs declare them (issue 15).

A pack's recognisers are data: each clause rule's `checks` names key terms by role, and carries
`examples` (real sentences it must recognise) and `not_examples` (look-alikes it must not). Those
are run here for every pack, so a pack author's new phrasing is tested without Python. The
sentences quoted below are real notices, with where each was read; none is made up.
"""

from __future__ import annotations

import time

import pytest

from generator.lint import when
from generator.lint.checks import clause_present
from generator.lint.engine import lint
from generator.lint.sentences import Span, clean, sentences
from generator.models.pack import ClauseChecks, ClauseParams
from generator.rules.loader import resolve

from .conftest import ROOT

LINT = ROOT / "tests" / "lint"
PACKS = sorted(p.stem for p in (ROOT / "jurisdictions").glob("*.yaml"))


def _pack_sentences() -> list[tuple[str, str, str, bool]]:
    out = []
    for pack_id in PACKS:
        for rule in resolve(pack_id).rules:
            if isinstance(rule.params, ClauseParams):
                checks = rule.params.checks
                out += [(pack_id, rule.id, s, True) for s in checks.examples]
                out += [(pack_id, rule.id, s, False) for s in checks.not_examples]
    return out


def _text_fact_sentences() -> list[tuple[str, str, str, bool]]:
    """The examples and look-alikes of every pack's `text_facts`, by pack and fact."""
    out = []
    for pack_id in PACKS:
        for pf in resolve(pack_id).chain:
            if pf.pack.id != pack_id:
                continue  # a parent's own, tested under its own id
            for tf in pf.pack.text_facts:
                out += [(pack_id, tf.fact, s, True) for s in tf.checks.examples]
                out += [(pack_id, tf.fact, s, False) for s in tf.checks.not_examples]
    return out


@pytest.mark.parametrize(
    ("pack_id", "fact", "sentence", "recognised"),
    _text_fact_sentences(),
    ids=lambda v: v[:40] if isinstance(v, str) else str(v),
)
def test_text_fact_examples_and_look_alikes(
    pack_id: str, fact: str, sentence: str, recognised: bool
) -> None:
    (tf,) = [t for pf in resolve(pack_id).chain for t in pf.pack.text_facts if t.fact == fact]
    assert clause_present(tf.checks, sentence) is recognised


@pytest.mark.parametrize(
    ("pack_id", "rule_id", "sentence", "recognised"),
    _pack_sentences(),
    ids=lambda v: v[:40] if isinstance(v, str) else str(v),
)
def test_pack_examples_and_look_alikes(
    pack_id: str, rule_id: str, sentence: str, recognised: bool
) -> None:
    checks = resolve(pack_id).rule(rule_id).params.checks
    assert clause_present(checks, sentence) is recognised


def _checks(pack_id: str, rule_id: str) -> ClauseChecks:
    return resolve(pack_id).rule(rule_id).params.checks


# --- the paraphrases issue 15 found flagged as missing -------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        # City of Raleigh, N.C., legal ad, 2025 (classifieds.mcclatchy.com/marketplace/advert/-Notices_205251)
        "NOTE: Copies of public hearing proposals are on file with Raleigh Planning and"
        " Development or can be accessed via the internet at www.raleighnc.gov/development.",
        # Town of Queen Creek, Ariz., hearing notice, case P25-0154 (classifieds.gannettclassifieds.com)
        "Copies of the application and related materials are on file for public viewing at the"
        " Town of Queen Creek Development Services Department offices during normal business"
        " hours, 7:00 A.M. to 6:00 P.M., Monday through Thursday.",
    ],
)
def test_a_copy_on_file_for_inspection_is_where_to_examine(sentence: str) -> None:
    assert clause_present(_checks("us-ri", "where_to_examine"), sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # Town of Burnsville, N.C., 2014 (ourlocalcommunityonline.com/pages/18167328.php)
        "The public is invited to attend and be heard.",
        # City of Nichols Hills, Okla., notice of public hearings, October 11, 2017
        "Any person may address the Nichols Hills Planning Commission and Nichols Hills City"
        " Council at these public hearings regarding the Ordinance and the Resolution.",
        # City of Moore, Okla., The Norman Transcript, July 21, 2015
        "Any person wishing to appear in support or opposition to the proposed change may do so"
        " in the City Council Chambers, 301 North Broadway, Moore, Oklahoma.",
    ],
)
@pytest.mark.parametrize("pack_id", ["us-ri", "us-ok"])
def test_interested_persons_given_the_opportunity_to_be_heard(pack_id: str, sentence: str) -> None:
    assert clause_present(_checks(pack_id, "right_to_be_heard"), sentence)


# Granville County, N.C., notice of a rezoning hearing, 2019 (granvillecounty.org/?p=16597)
ADVERTISED_PROPOSAL = (
    "Changes may be made in the advertised proposal, which reflect debate, objections, and"
    " discussions at the hearing."
)


def test_changes_in_the_advertised_proposal_after_the_hearing() -> None:
    """Shelby asks that "substantial changes may be made following the hearing": said otherwise."""
    assert clause_present(
        _checks("us-nc-shelby", "shelby_substantial_changes"), ADVERTISED_PROPOSAL
    )


def test_rhode_island_may_be_amended_needs_both_halves() -> None:
    """R.I.G.L. § 45-24-53(a)(5): altered before the close AND without further advertising."""
    checks = _checks("us-ri", "may_be_amended")
    assert not clause_present(checks, ADVERTISED_PROPOSAL)
    # Town of North Smithfield, R.I., Valley Breeze print ad, hearing of November 18, 2019
    # (valleybreeze.com/print-ads/ad/north-smithfield-town-hall-memorial-town-building)
    both = (
        "These proposals may be altered or amended prior to the close of the public hearing"
        " without further advertising, as a result of further study or because of the views"
        " expressed at the public hearings."
    )
    assert clause_present(checks, both)
    assert not clause_present(checks, both.replace(" without further advertising,", ","))
    assert not clause_present(checks, both.replace(" prior to the close of the public hearing", ""))


def test_the_board_amending_its_agenda_is_not_the_proposal_amended() -> None:
    # Town of Little Compton, R.I., Town Council agenda of February 24, 2022, as scanned
    agenda = (
        "There will be no separate discussion oft these items unless a council member or citizen"
        " sO requests in which event the item willl be withdrawn from the General Order ofbusiness"
        " and considered ini the normal sequence on the agenda."
    )
    for rule_id in ("may_be_amended", "proposal_statement", "right_to_be_heard"):
        assert not clause_present(_checks("us-ri", rule_id), agenda), rule_id


def test_a_real_notice_linted_without_a_case() -> None:
    """City of Moore, Okla., The Norman Transcript, July 21, 2015
    (johnstown573.rssing.com/chan-42125881/article733.html), stored verbatim: it says in its own
    words that anyone may appear and be heard, which 11 O.S. § 43-104 asks."""
    found = lint(
        [LINT / "ok-moore-2015-rz-928.txt"],
        jurisdiction="us-ok",
        kind="newspaper_notice",
        on=None,
    ).findings
    assert not [f for f in found if f.code == "NL001" and f.rule == "right_to_be_heard"]


def test_a_sentence_broken_over_lines_and_hyphenated_is_read_whole() -> None:
    """Town of Fincastle, Va., Fincastle Herald, hearings of February 11 and 13, 2025
    (fincastleherald.com/notice-of-public-hearings-of-the-fincastle-planning-commission-and-fincastle-town-council),
    set in narrow columns: "con-/tacting", "pub-/lic", "540-/473-3377"."""
    text = (LINT / "va-fincastle-2025-hearings.txt").read_text()
    said = [clean(s.text) for s in sentences(text)]
    assert (
        "The Fincastle Town Council will then have a public hearing on these items on February"
        " 13, 2025 at 7:00 p.m. at the Fincastle Public Library located at 11 Academy Street,"
        " Fincastle." in said
    )
    assert (
        "Copies of these proposals can be obtained by contacting the Fincastle Town Office during"
        " regular office hours or by contacting Scott Critzer at 540-473-3377 or the Town Manager"
        " at 540-473-2200." in said
    )
    assert clause_present(_checks("us-ri", "where_to_examine"), text)


# --- sentences --------------------------------------------------------------------------


def test_offsets_are_into_the_text_given() -> None:
    text = (LINT / "va-fincastle-2025-hearings.txt").read_text()
    for span in sentences(text):
        assert isinstance(span, Span)
        assert text[span.start : span.end] == span.text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # City of Gastonia, N.C., Charlotte Observer legal ad, 2025 (classifieds.mcclatchy.com, -Notices_209048)
        (
            "in the City Council Chambers, 181 S. South Street, in Gastonia, North Carolina. If"
            " any of the decisions of the Planning Commission are appealed",
            2,
        ),
        # Town of Queen Creek, Ariz.: "A.M." and "P.M." inside one sentence
        (
            "Copies of the application and related materials are on file for public viewing at"
            " the Town of Queen Creek Development Services Department offices during normal"
            " business hours, 7:00 A.M. to 6:00 P.M., Monday through Thursday.",
            1,
        ),
        # Town of Little Compton, R.I., agenda of May 5, 2022, as scanned: "P.M." ends one
        (
            "Date posted: MAY3, 2022 by 4:00 P.M. Alli items on this agenda are to be discussed"
            " and/or acted upon.",
            2,
        ),
        # Town of Chino Valley, Ariz., 2016: "W." is an initial
        (
            "A copy of the agenda and background material provided to the Commissioners is"
            " available for public inspection at the Marion Lassa/Chino Valley Library, 1020 W."
            " Palomino Road, Chino Valley, Arizona.",
            1,
        ),
        # Midtown Phoenix, Ariz., on Rezoning Case No. Z-41-18, 2018 (midtownphx.org/news/2018/8/12): "No."
        (
            "Meetings and hearings have been set for Rezoning Case No. Z-41-18, which requests a"
            " change in zoning for approximately 2.16 acres located at the northeast corner of 7th"
            ' Street and Thomas Road (the "Property") from Parking P-1 District to R-5 Multi-Family'
            " Residence District and HighRise HR District.",
            1,
        ),
    ],
)
def test_abbreviations_do_not_end_a_sentence(text: str, expected: int) -> None:
    assert len([s for s in sentences(text) if not s.heading]) == expected


def test_headings_stand_alone() -> None:
    # Town of Smithfield, R.I., notice of a public hearing of February 4, 2025 (ClerkBase copy)
    text = (
        "TOWN OF SMITHFIELD, RHODE ISLAND\n\nPUBLIC HEARING\n\nNOTICE IS HEREBY GIVEN that the"
        " Smithfield Town Council will hold a Public Hearing at the Smithfield Town Hall, 64"
        " Farnum Pike, Smithfield, RI on Tuesday, February 4, 2025 at 7:00 PM."
    )
    spans = sentences(text)
    assert [s.heading for s in spans] == [True, True, False]
    assert spans[1].text == "PUBLIC HEARING"


# --- dates and times --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Monday, the 6th day of May, 2019", "2019-05-06"),
        ("the sixth day of May 2019", "2019-05-06"),
        ("May 6th, 2019", "2019-05-06"),
        ("5/6/19", "2019-05-06"),
        ("on May 6 at", "2019-05-06"),
        ("Tues., Feb. 3", "2019-02-03"),
        ("Date posted: MAY3, 2022 by 4:00 P.M.", "2022-05-03"),
    ],
)
def test_dates_as_notices_write_them(text: str, day: str) -> None:
    assert [d.day.isoformat() for d in when.find_dates(text, default_year=2019)] == [day]


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("7 PM", "19:00"),
        ("7:00 p.m.", "19:00"),
        ("7:00 P. M.", "19:00"),
        ("seven o'clock p.m.", "19:00"),
        ("7 o'clock in the evening", "19:00"),
        ("6:30pm", "18:30"),
        ("noon", "12:00"),
        ("1900 hours", "19:00"),
        ("7 :00 p. m.", "19:00"),
    ],
)
def test_times_as_notices_write_them(text: str, at: str) -> None:
    assert [t.at.strftime("%H:%M") for t in when.find_times(text)] == [at]


def test_a_spaced_colon_alone_is_not_a_time() -> None:
    assert when.find_times("Section 19 :00 of the code") == []


def test_reading_a_long_notice_stays_fast() -> None:
    text = (LINT / "va-fincastle-2025-hearings.txt").read_text() * 40
    start = time.perf_counter()
    sentences(text)
    assert time.perf_counter() - start < 0.5


def test_a_scanned_ordinal_with_a_space_and_a_copied_line_break_tag_are_read(tmp_path) -> None:
    """'6:00 p.m. on the 16 th day of March, 2026' (Pocono Township, PA) and '28th <br />day of
    February, 2022' (La Porte, TX: a web page's line-break tag kept in its text copy)."""
    from datetime import date

    from generator.lint.extract import extract

    assert [d.day for d in when.find_dates("on the 16 th day of March, 2026, at")] == [
        date(2026, 3, 16)
    ]
    page = tmp_path / "notice.txt"
    page.write_text("a public hearing at 6:00 P.M. on the 28th <br />day of February, 2022, in")
    text = extract(page).text
    assert "<br" not in text
    assert [d.day for d in when.find_dates(text)] == [date(2022, 2, 28)]
