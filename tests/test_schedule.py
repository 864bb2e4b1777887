"""`notices schedule` and the schedule in a packet: table, JSON, iCalendar, lateness."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pdfplumber
import pytest
from icalendar import Calendar

from generator.documents import schedule
from generator.packet import build
from generator.prepare import prepare
from generator.render import templates

from .conftest import CASES, notices, write_case

EP = CASES / "ep-2027-za-03.yaml"


def test_json_lists_every_deadline_in_the_design_shape() -> None:
    result = notices("schedule", str(EP), "--format", "json")
    assert result.returncode == 0, result.stderr
    deadlines = json.loads(result.stdout)
    keys = {
        "id",
        "hearing",
        "action",
        "channel",
        "earliest",
        "latest",
        "issues",
        "copy_deadline",
        "rule",
        "citation",
        "derivation",
    }
    assert all(keys <= set(d) for d in deadlines)
    paper = next(d for d in deadlines if d["id"] == "newspaper_notice.council")
    assert paper["hearing"] == "council 2027-03-16"
    assert paper["issues"] == ["2027-02-25", "2027-03-04", "2027-03-11"]
    assert paper["copy_deadline"] == "2027-02-20T12:00:00-05:00"
    assert paper["citation"] == "R.I.G.L. § 45-24-53(a); East Providence Code § 19-74(1)"
    assert "Tue 2027-03-16" in paper["derivation"]
    latest = [d["latest"][:10] for d in deadlines if d["latest"]]
    assert latest == sorted(latest)  # in date order


def test_the_table_shows_each_deadline_with_its_law_and_derivation() -> None:
    result = notices("schedule", str(EP))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "judged as of 2026-11-29" in out
    assert "Tue 2027-03-02       —                mail the notice" in out
    assert (
        "issues: Thu 2027-02-25, Thu 2027-03-04, Thu 2027-03-11; copy due Sat 2027-02-20 12:00"
        in out
    )
    assert "hearing Tue 2027-03-16 − 14 days = Tue 2027-03-02" in " ".join(out.split())


def test_ics_parses_back_with_one_event_per_deadline_and_the_citation() -> None:
    result = notices("schedule", str(EP), "--format", "ics")
    assert result.returncode == 0, result.stderr
    cal = Calendar.from_ical(result.stdout)
    events = list(cal.walk("VEVENT"))
    deadlines = json.loads(notices("schedule", str(EP), "--format", "json").stdout)
    dated = [d for d in deadlines if d["latest"] or d["earliest"]]
    assert len(events) == len(dated) + sum(1 for d in deadlines if d["copy_deadline"])
    by_uid = {str(e["uid"]): e for e in events}
    mail = by_uid["ep-2027-za-03.mailed_notice_map_change.council@zoning-notices"]
    assert mail.decoded("dtstart").isoformat() == "2027-03-02"
    assert "R.I.G.L. § 45-24-53(b)" in str(mail["description"])
    copy = by_uid["ep-2027-za-03.newspaper_notice.council.copy@zoning-notices"]
    assert copy.decoded("dtstart").isoformat() == "2027-02-20T12:00:00-05:00"
    assert list(cal.walk("VTIMEZONE"))  # the time zone travels with the file


def test_a_hearing_too_soon_to_notice_is_an_error_naming_the_earliest_lawful_date(
    tmp_path: Path,
) -> None:
    result = notices("schedule", str(EP), "--as-of", "2027-02-22")
    assert result.returncode == 2
    assert (
        "hearings[0].date: the East Providence City Council hearing on Tue 2027-03-16 cannot be noticed in time"
        in result.stderr
    )
    assert (
        "copy for the first insertion (Thu 2027-02-25) was due Sat 2027-02-20 12:00"
        in result.stderr
    )
    assert "the earliest lawful date is Fri 2027-03-19" in result.stderr
    text = EP.read_text().replace("as_of: 2026-11-29", "as_of: 2027-02-22")
    built = notices("build", str(write_case(tmp_path, text)), "--out", str(tmp_path / "out"))
    assert built.returncode == 2 and "earliest lawful date is Fri 2027-03-19" in built.stderr
    assert not (tmp_path / "out" / "case-x").exists()  # nothing written


def test_the_packet_carries_the_schedule_and_the_notice_its_publication_dates(
    tmp_path: Path,
) -> None:
    folder = build(EP, tmp_path).folder
    manifest = json.loads((folder / "manifest.json").read_text())
    schedule = {d["format"] for d in manifest["documents"] if d["kind"] == "schedule"}
    assert schedule == {"json", "ics", "html", "pdf"}
    assert json.loads((folder / "schedule.json").read_text())[0]["id"] == "newspaper_notice.council"
    assert (
        "Publication dates: Thursday, February 25, 2027; Thursday, March 4, 2027; Thursday, March 11, 2027."
        in (folder / "newspaper_notice.txt").read_text()
    )
    page = (folder / "schedule.html").read_text()
    assert "R.I.G.L. § 45-24-53(b)" in page and "mailed_notice_map_change" not in page
    # Every HTML page of the packet keeps margins, printed and on screen.
    pages = sorted(folder.glob("*.html"))
    assert {p.name for p in pages} >= {"schedule.html", "newspaper_notice.html"}
    for html in pages:
        assert_margins(html)


def words_of(pdf: bytes) -> list[list[dict]]:
    """The words of each page of a PDF, with their positions (pdfplumber: points from the top)."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [page.extract_words() for page in doc.pages]


def assert_margins(html: Path) -> None:
    """Rendered for print (WeasyPrint, as a browser prints it), no word comes within 0.5 in of the
    paper's edge; rendered for the screen with no page margin at all, the body still keeps the
    words 0.25 in off the window's edges."""
    from weasyprint import CSS, HTML

    source = html.read_text()
    for media, margin, least in (
        ("print", "", 0.5),
        ("screen", "@page { margin: 0 !important }", 0.25),
    ):
        user = [CSS(string=margin)] if margin else []
        pdf = HTML(string=source, base_url=str(html.parent), media_type=media).write_pdf(
            stylesheets=user
        )
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            for page in doc.pages:
                for w in page.extract_words():
                    assert w["x0"] >= least * 72 - 0.5, (html.name, media, w["text"])
                    assert page.width - w["x1"] >= least * 72 - 0.5, (html.name, media, w["text"])
                    if page.page_number == 1:  # a screen page is one long page
                        assert w["top"] >= least * 72 - 0.5, (html.name, media, w["text"])


@pytest.mark.parametrize("case", sorted(p.stem for p in CASES.glob("*.yaml")))
def test_the_printed_schedule_keeps_rows_whole_with_headers_in_the_clerks_words(case: str) -> None:
    prepared = prepare(CASES / f"{case}.yaml")
    built = {
        o.path: o.data for o in schedule.build(prepared, templates.for_pack(prepared.pack)).outputs
    }
    pages = words_of(built["schedule.pdf"])
    # The header on every page; each row's account of how it was counted on one page, whole.
    counted, clerk = [], []
    for words in pages:
        text = " ".join(w["text"] for w in words)
        assert "Latest Earliest Act Hearing Law How it was counted" in text
        how = next(w for w in words if w["text"] == "How")
        header = next(w for w in words if w["text"] == "Latest")
        rows = [w for w in words if w["top"] > header["bottom"]]
        counted.append("".join(w["text"] for w in rows if w["x0"] >= how["x0"] - 1))
        clerk += [w["text"] for w in rows if w["x1"] < how["x0"]]
    for d in prepared.deadlines:
        # Compared without spaces: a line may break after a hyphen ("US-" / "NC").
        assert any("".join(d.derivation.split()) in column for column in counted), (case, d.id)
    # No rule id on the page or in the HTML; the hearing by name, dates in words, not ISO.
    printed = " ".join(w["text"] for words in pages for w in words)
    html = built["schedule.html"].decode()
    for d in prepared.deadlines:
        # Ids with `_` or `.` (a few, like `protest`, are also plain words of the page).
        for rule_id in (i for i in (d.id, *d.rules) if re.search(r"[_.]", i)):
            assert rule_id not in printed and rule_id not in html, (case, rule_id)
    # (`council 2027-03-16`, the program's label of a hearing, would show an ISO date too.)
    assert not [w for w in clerk if re.fullmatch(r"\d{4}-\d{2}-\d{2}\S*", w)]
    for h in prepared.case.hearings:
        assert h.body_name in printed


def test_several_hearings_each_get_their_deadlines() -> None:
    deadlines = json.loads(
        notices("schedule", str(CASES / "az-2027-map-01.yaml"), "--format", "json").stdout
    )
    hearings = {d["hearing"] for d in deadlines if d["rule"] == "newspaper_notice"}
    assert hearings == {"planning 2027-04-08", "council 2027-05-04"}


def test_a_hearing_set_after_the_petition_deadline_is_a_warning(tmp_path: Path) -> None:
    text = EP.read_text().replace("petition_received: 2027-01-20", "petition_received: 2026-12-01")
    result = build(write_case(tmp_path, text), tmp_path / "out")
    late = [f for f in result.manifest["findings"] if f["code"] == "SCHED001"]
    assert late and late[0]["rule"] == "hearing_within_65_days"
    assert "after the last lawful day Thu 2027-02-04" in late[0]["message"]
