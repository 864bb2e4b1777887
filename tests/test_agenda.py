"""Agenda notices (issue 19, item 1): the cases one body hears on one date, in one legal notice.

A three-case agenda of the Shelby City Council (a conditional district rezoning, a map
amendment and a text amendment, whose laws require different clauses) is built once, as
`notices build --agenda` builds it; the tests read what it wrote, lint edited copies of its
notice, and refuse agendas that are not one meeting.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.agenda import common_issues, prepare_agenda
from generator.cli import app
from generator.lint.agenda import divide, lint_agenda
from generator.lint.extract import extract
from generator.render.docx import text_of
from generator.schedule import Deadline

from .conftest import CASES, ROOT

SAMPLE = ROOT / "agendas" / "shelby-council-2027-06-07.yaml"
HEARD = "The hearing will be held by the Shelby City Council on Monday, June 7, 2027"
NUMBERS = ("CD-2027-02", "RZ-2027-03", "TA-2027-01")  # in agenda order


def _copy(folder: Path, name: str, old: str, new: str) -> Path:
    """A sample case with one value changed, its data paths made absolute."""
    text = (CASES / f"{name}.yaml").read_text()
    assert text.count(old) == 1, f"{name}: {old!r}"
    path = folder / f"{name}.yaml"
    path.write_text(text.replace(old, new).replace("../data/", f"{ROOT / 'data'}/"))
    return path


def _agenda(folder: Path, name: str, cases: list[Path], **fields: str) -> Path:
    lines = ["schema_version: 1", "body: council", "date: 2027-06-07"]
    lines += [f"{k}: {v}" for k, v in fields.items()]
    lines += ["cases:", *(f"  - {c}" for c in cases)]
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three-case agenda's file; its packet built into `<its folder>/out/agenda-three/`."""
    folder = tmp_path_factory.mktemp("agenda")
    moved = _copy(folder, "shelby-2027-map-01", "date: 2027-04-05", "date: 2027-06-07")
    cases = [CASES / "shelby-2027-cd-01.yaml", moved, CASES / "shelby-2027-text-01.yaml"]
    path = _agenda(folder, "three", cases)
    result = CliRunner().invoke(app, ["build", "--agenda", str(path), "--out", str(folder / "out")])
    assert result.exit_code == 0, result.output
    return path


def _packet(agenda: Path) -> Path:
    return agenda.parent / "out" / "agenda-three"


def _sections(html: str) -> dict[str, str]:
    """Each case's section of the HTML, by case number."""
    found = re.findall(
        r'<section class="agenda-item" data-case="([^"]+)">(.*?)</section>\n', html, re.S
    )
    return dict(found)


@pytest.mark.slow
def test_one_notice_with_a_section_per_case_in_agenda_order(three: Path) -> None:
    packet = _packet(three)
    text = (packet / "agenda_notice.txt").read_text()
    headings = re.findall(r"^ITEM (\d) — CASE NO\. (\S+)$", text, re.M)
    assert headings == [(str(i), n) for i, n in enumerate(NUMBERS, 1)]
    manifest = json.loads((packet / "manifest.json").read_text())
    assert manifest["ready"], manifest["findings"]
    assert [c["case_number"] for c in manifest["cases"]] == list(NUMBERS)
    made = {d["path"] for d in manifest["documents"]}
    assert {f"agenda_notice.{x}" for x in ("txt", "html", "pdf", "docx")} <= made
    # Linted in every format, printed or not, each case in its own section: nothing missing.
    assert json.loads((packet / "lint_report.json").read_text())["findings"] == []
    word = text_of((packet / "agenda_notice.docx").read_bytes())
    assert all(f"Case No. {n}" in word for n in NUMBERS)


@pytest.mark.slow
def test_the_linter_finds_each_case_in_every_format_as_printed(three: Path) -> None:
    packet, items = _packet(three), prepare_agenda(three).items
    for fmt in ("txt", "html", "pdf", "docx"):
        parts = divide(extract(packet / f"agenda_notice.{fmt}"), items)
        assert sorted(parts) == [1, 2, 3], fmt
        for item in items:  # each case's part holds its own section and no other case's
            said = " ".join(b.text for b in parts[item.number])
            assert all((n == item.case_number) == (n in said) for n in NUMBERS), (fmt, item)


@pytest.mark.slow
def test_the_schedule_is_the_strictest_and_names_each_case(three: Path) -> None:
    manifest = json.loads((_packet(three) / "manifest.json").read_text())
    schedule = manifest["schedule"]
    rows = schedule["deadlines"]
    assert {r["case_number"] for r in rows} == set(NUMBERS)
    assert all(r["rule"] and r["citation"] for r in rows)
    strictest = [r for r in rows if r["strictest"]]
    assert len(strictest) == 1
    assert strictest[0]["latest"] == min(r["latest"] for r in rows)
    # The notice runs in every issue any case's law needs, its copy due by the earliest deadline.
    assert set(schedule["insertions"]) == {d for r in rows for d in r["issues"]}
    assert schedule["copy_deadline"] == min(r["copy_deadline"] for r in rows)
    text = (_packet(three) / "agenda_notice.txt").read_text()
    assert "Publication dates: Wednesday, May 26, 2027; Saturday, June 5, 2027." in text


@pytest.mark.slow
def test_a_shared_clause_is_printed_once_and_marked_for_every_case(three: Path) -> None:
    packet = _packet(three)
    text = (packet / "agenda_notice.txt").read_text()
    assert text.count(HEARD) == 1
    assert text.index(HEARD) < text.index("ITEM 1")
    html = (packet / "agenda_notice.html").read_text()
    head = html[: html.index('<section class="agenda-item"')]
    agenda = prepare_agenda(three)
    for item in agenda.items:
        ids = item.doc.topics()["hearing_when_where"]
        assert all(f'data-clause="{i}"' in head for i in ids), item.case_number
    # What each case says of itself stays in its section: three notices of consideration.
    assert text.count("Notice is hereby given that the Shelby City Council") == 3


@pytest.mark.slow
def test_each_case_carries_the_clauses_of_its_own_law(three: Path) -> None:
    """The map cases' law asks for the property and its districts; the text amendment's does not."""
    html = (_packet(three) / "agenda_notice.html").read_text()
    sections = _sections(html)
    assert list(sections) == list(NUMBERS)
    for item in prepare_agenda(three).items:
        section = sections[item.case_number]
        topics = item.doc.topics()
        for topic in ("property_identification", "district_change"):
            wanted = topic in topics
            assert wanted == (item.case_number != "TA-2027-01"), (item.case_number, topic)
            for rule in topics.get(topic, []):
                assert f'data-clause="{rule}"' in section, (item.case_number, rule)
        if "district_change" not in topics:
            assert "The present zoning classification" not in section


@pytest.mark.slow
def test_one_affidavit_of_publication_lists_every_case(three: Path) -> None:
    packet = _packet(three)
    affidavits = sorted(p.name for p in packet.glob("affidavit_of_publication*"))
    assert affidavits == ["affidavit_of_publication.docx", "affidavit_of_publication.pdf"]
    word = text_of((packet / "affidavit_of_publication.docx").read_bytes())
    assert all(n in word for n in NUMBERS)
    assert "Wednesday, May 26, 2027" in word and "Saturday, June 5, 2027" in word


def test_one_insertion_order_sends_the_paper_the_combined_notice(three: Path) -> None:
    """Issue 19's "one command": the agenda's packet has the paper's order for its one notice."""
    import email
    import email.policy
    from decimal import Decimal

    import pdfplumber

    packet = _packet(three)
    with pdfplumber.open(packet / "insertion_order.pdf") as pdf:
        order = " ".join((page.extract_text() or "") for page in pdf.pages)
    order = " ".join(order.split())
    assert "Case Nos. " + ", ".join(NUMBERS) in order
    assert "Wednesday, May 26, 2027" in order and "Saturday, June 5, 2027" in order
    # The Shelby Star's sample card: $15.00 a column inch first, $13.00 later, $10.00 affidavit.
    inches = Decimal(re.search(r"([\d.]+) column inches", order).group(1))
    total = inches * Decimal("15.00") + inches * Decimal("13.00") + Decimal("10.00")
    assert f"Estimated total ${total:,.2f}" in order
    message = email.message_from_bytes(
        (packet / "insertion_order.eml").read_bytes(), policy=email.policy.default
    )
    attached = [part.get_filename() for part in message.iter_attachments()]
    assert attached[:3] == ["agenda_notice.txt", "agenda_notice.docx", "insertion_order.pdf"]
    copy = next(p for p in message.iter_attachments() if p.get_filename() == "agenda_notice.txt")
    assert copy.get_content() == (packet / "agenda_notice.txt").read_text()


@pytest.mark.slow
def test_a_clause_missing_for_one_case_is_caught_with_the_case_named(
    three: Path, tmp_path: Path
) -> None:
    text = (_packet(three) / "agenda_notice.txt").read_text()
    statement = "Because this request involves a conditional district rezoning"
    assert text.count(statement) == 1
    edited = tmp_path / "agenda_notice.txt"
    edited.write_text("\n".join(x for x in text.splitlines() if not x.startswith(statement)))
    found = lint_agenda([edited], prepare_agenda(three))
    assert [f.code for f in found] == ["NL001"]
    assert found[0].message.startswith("Case No. CD-2027-02: required clause not found")
    assert found[0].rule and found[0].citation


@pytest.mark.slow
def test_a_shared_clause_missing_is_missing_for_every_case(three: Path, tmp_path: Path) -> None:
    text = (_packet(three) / "agenda_notice.txt").read_text()
    edited = tmp_path / "agenda_notice.txt"
    edited.write_text("\n".join(x for x in text.splitlines() if not x.startswith(HEARD)))
    found = lint_agenda([edited], prepare_agenda(three))
    named = {f.message.split(":", 1)[0] for f in found if f.code == "NL001"}
    assert named == {f"Case No. {n}" for n in NUMBERS}


@pytest.mark.slow
def test_a_case_whose_section_is_gone_fails_its_clauses(three: Path, tmp_path: Path) -> None:
    text = (_packet(three) / "agenda_notice.txt").read_text()
    start, end = text.index("ITEM 3 — CASE NO. TA-2027-01"), text.index("FOR EVERY MATTER ABOVE")
    edited = tmp_path / "agenda_notice.txt"
    edited.write_text(text[:start] + text[end:])
    found = lint_agenda([edited], prepare_agenda(three))
    assert found and all(f.message.startswith("Case No. TA-2027-01: its section") for f in found)


@pytest.mark.slow
def test_a_map_amendment_and_a_text_amendment_each_under_their_own_rules(tmp_path: Path) -> None:
    """Newport's law puts a map in a map amendment's notice and the full text in a text one's."""
    moved = _copy(tmp_path, "newport-2027-text-01", "date: 2027-06-09", "date: 2027-04-28")
    path = _agenda(tmp_path, "newport", [CASES / "newport-2027-map-01.yaml", moved])
    path.write_text(path.read_text().replace("2027-06-07", "2027-04-28"))
    result = CliRunner().invoke(app, ["build", "--agenda", str(path), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    packet = tmp_path / "agenda-newport"
    assert json.loads((packet / "lint_report.json").read_text())["findings"] == []
    sections = _sections((packet / "agenda_notice.html").read_text())
    mapped, text = sections["ZA 2027-01"], sections["ZTA 2027-02"]
    assert '<img src="map-newport-2027-map-01.svg"' in mapped and "<img" not in text
    assert (packet / "map-newport-2027-map-01.svg").is_file()
    assert "TEXT OF THE PROPOSED AMENDMENT" not in mapped
    assert "Text of the proposed amendment" in text
    for item in prepare_agenda(path).items:
        ids = item.doc.topics().get("map", [])
        assert bool(ids) == (item.case_number == "ZA 2027-01")
        assert all(f'data-clause="{i}"' in mapped for i in ids)
    assert b"word/media/" in (packet / "agenda_notice.docx").read_bytes()  # the map, for Word
    html = (packet / "agenda_notice.html").read_text()
    edited = tmp_path / "agenda_notice.html"
    edited.write_text(re.sub(r'<figure class="map">.*?</figure>', "", html, flags=re.S))
    found = lint_agenda([edited], prepare_agenda(path))
    assert {(f.code, f.message.split(":")[0]) for f in found} == {("NL008", "Case No. ZA 2027-01")}


def test_the_sample_agenda_is_one_meeting() -> None:
    agenda = prepare_agenda(SAMPLE)
    assert [i.case_number for i in agenda.items] == ["CD-2027-02", "TA-2027-01"]
    assert agenda.hearing.date.isoformat() == "2027-06-07"


def _refused(path: Path) -> str:
    result = CliRunner().invoke(app, ["build", "--agenda", str(path), "--out", str(path.parent)])
    assert result.exit_code == 2, result.output
    return result.output


def test_an_agenda_mixing_dates_is_refused(tmp_path: Path) -> None:
    cases = [CASES / "shelby-2027-text-01.yaml", CASES / "shelby-2027-map-01.yaml"]
    out = _refused(_agenda(tmp_path, "mixed", cases))
    assert "mixed.yaml:6" in out and "cases[1]" in out
    assert "RZ-2027-03 lists no council hearing on 2027-06-07" in out


def test_an_agenda_mixing_cities_is_refused(tmp_path: Path) -> None:
    elsewhere = _copy(tmp_path, "az-2027-text-01", "date: 2027-04-06", "date: 2027-06-07")
    out = _refused(_agenda(tmp_path, "cities", [CASES / "shelby-2027-text-01.yaml", elsewhere]))
    assert "cases[1]" in out and "gives the municipality as Town of Saguaro Wells" in out


def test_an_agenda_of_a_bad_shape_says_where(tmp_path: Path) -> None:
    path = _agenda(tmp_path, "bad", [CASES / "shelby-2027-text-01.yaml"], title="x")
    path.write_text(path.read_text().replace("date: 2027-06-07", "date: June 7"))
    out = _refused(path)
    assert "bad.yaml:3" in out and "date" in out


def test_build_takes_cases_or_an_agenda_not_both(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["build", str(CASES / "shelby-2027-text-01.yaml"), "--agenda", str(SAMPLE)]
    )
    assert result.exit_code == 2
    assert "not both" in result.output


def _deadline(issues: list[str], earliest: str, latest: str) -> Deadline:
    return Deadline(
        "published_notice.council", "council 2027-06-07", "publish the notice", "newspaper",
        date.fromisoformat(earliest), date.fromisoformat(latest), "published_notice", "G.S. x",
        "", issues=[date.fromisoformat(d) for d in issues],
    )  # fmt: skip


def test_the_notice_runs_in_issues_every_case_accepts() -> None:
    """One case's two insertions serve another whose one insertion may come later: not the union."""
    two = _deadline(["2027-05-19", "2027-05-26"], "2027-05-13", "2027-05-19")
    one = _deadline(["2027-05-22"], "2027-05-13", "2027-05-28")
    chosen = [tuple(two.issues), tuple(one.issues)]
    assert common_issues([[two], [one]], chosen) == tuple(two.issues)
    # No case's run serves both (one insertion must come after the other's last day): all run,
    # and the linter names the case whose window an issue misses.
    late = _deadline(["2027-05-29"], "2027-05-27", "2027-05-29")
    chosen = [tuple(two.issues), tuple(late.issues)]
    assert common_issues([[two], [late]], chosen) == (*two.issues, *late.issues)
