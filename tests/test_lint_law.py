"""Which law judges a notice: the date it is read on, the rules it cannot decide, and local rules
merged with the state rules they supplement, with a case and without one.

The three causes of issue 15 this file pins (each test fails on the code before the fix):
a conditional rule silently dropped without a case; a 2019 North Carolina notice judged by the
law of 2021 and flagged for not saying "legislative hearing"; a Shelby notice whose hearing time
changed, not caught because the local rule supplementing the state rule had no checks of its own.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from generator.errors import UserError
from generator.lint.engine import lint
from generator.models.base import validate
from generator.models.case import Case
from generator.rules.loader import resolve, snapshot
from generator.yamlio import load

from .conftest import CASES, ROOT, notices, write_case

DATA = ROOT / "tests" / "lint"
# A real notice, verbatim: Granville County's notice of its Board of Commissioners' hearing of
# May 6, 2019 on rezoning petition Z-1-2019, as the county posted it
# (https://granvillecounty.org/?p=16597). Before Chapter 160D, and it says "public hearing".
GRANVILLE_2019 = DATA / "nc-granville-2019-hearing.txt"
# The newspaper notice `notices build` writes for cases/shelby-2027-map-01.yaml, moved to a
# hearing on Monday, April 6, 2020 and worded as a notice under G.S. 160A-364 was ("public
# hearing"): our own document, not a published one.
SHELBY_2020 = DATA / "shelby-2020-notice.txt"


def codes(result, code: str) -> list:
    return [f for f in result.findings if f.code == code]


# ------------------------------------------------------- 1. say what could not be checked ----


def test_a_conditional_rule_without_a_case_is_reported_once_as_undecided() -> None:
    """East Providence requires a map only for a specific map change: without the case, that is
    said (NL016, info, with the condition), once, citing the state and the local rule."""
    result = lint(
        [DATA / "ep-reworded.txt"], jurisdiction="us-ri-east-providence", kind="newspaper_notice"
    )
    undecided = [f for f in codes(result, "NL016") if f.rule == "map_in_notice"]
    assert len(undecided) == 1, [f.as_dict() for f in result.findings]
    (found,) = undecided
    assert found.severity == "info"
    assert "needs the case to decide: applies only when specific_map_change" in found.message
    assert found.citation == "R.I.G.L. § 45-24-53(b); East Providence Code § 19-74(1)(f)"
    assert not [f for f in result.findings if f.rule in ("map_in_notice", "ep_map_in_notice")][1:]
    assert not codes(result, "NL008")  # a map is not required of a notice that may need none
    judged = result.judged[str(DATA / "ep-reworded.txt")]
    assert judged.undecided == result.undecided == len(codes(result, "NL016")) >= 1
    assert judged.checked >= 5 and judged.failed == 0


def test_with_the_case_the_condition_is_decided() -> None:
    result = lint(
        [DATA / "ep-reworded.txt"], case_path=CASES / "ep-2027-za-03.yaml", kind="newspaper_notice"
    )
    assert not codes(result, "NL016") and result.undecided == 0


def test_the_report_counts_rules_checked_failed_and_undecided_in_every_format() -> None:
    args = ("lint", str(DATA / "ep-missing-clause.txt"), "--jurisdiction")
    args += ("us-ri-east-providence", "--kind", "newspaper_notice")
    text = notices(*args)
    assert text.returncode == 1, text.stderr
    last = text.stdout.strip().splitlines()[-1]
    assert last.startswith("1 document checked: 1 errors, 0 warnings; clause rules: ")
    assert " 1 failed, " in last and " undecided" in last
    data = json.loads(notices(*args, "--format", "json").stdout)
    counts = data["clause_rules"]
    assert counts["failed"] == 1 and counts["checked"] > 1 and counts["undecided"] >= 1
    assert data["judged"][0]["document"].endswith("ep-missing-clause.txt")
    sarif = json.loads(notices(*args, "--format", "sarif").stdout)
    assert sarif["runs"][0]["properties"]["clauseRules"] == counts
    rules = {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert "NL016" in rules


# ------------------------------------------------ 2. the law in force on the notice's date ----


def test_a_2019_north_carolina_notice_is_judged_by_the_law_of_2019() -> None:
    """No "legislative hearing" before Chapter 160D: the notice's own hearing date picks the
    G.S. 160A-364 rules, and the report says which day and why."""
    result = lint([GRANVILLE_2019], jurisdiction="us-nc", kind="newspaper_notice")
    assert not [f for f in result.findings if f.severity == "error"], [
        f.as_dict() for f in result.findings
    ]
    judged = result.judged[str(GRANVILLE_2019)]
    why = "the day before the hearing the notice states (2019-05-06)"
    assert (judged.on, judged.why) == (date(2019, 5, 5), why)
    assert judged.describe().startswith(f"law as of 2019-05-05, {why}")
    # Judged by the law of 2027, Chapter 160D's clauses bind it as well (its "public hearing"
    # is the hearing G.S. 160D-601(a) asks for, which prescribes no words for it).
    later = lint(
        [GRANVILLE_2019], jurisdiction="us-nc", kind="newspaper_notice", on=date(2027, 3, 1)
    )
    assert not codes(later, "NL001")
    assert later.judged[str(GRANVILLE_2019)].why == "the date given with --on"
    assert later.judged[str(GRANVILLE_2019)].checked > judged.checked


def test_chapter_160d_binds_from_july_1_2021() -> None:
    pack = resolve("us-nc")
    before = {b.rule.citation for b in snapshot(pack, None, date(2021, 6, 30)).bindings}
    after = {b.rule.citation for b in snapshot(pack, None, date(2021, 7, 1)).bindings}
    assert "G.S. 160A-364(a)" in before and "G.S. 160D-601(a)" not in before
    assert "G.S. 160D-601(a)" in after and "G.S. 160A-364(a)" not in after


@pytest.mark.parametrize(
    ("text", "on", "why"),
    [
        (
            "A public hearing will be held on May 6, 2019 at 7:00 p.m. at Town Hall.\n"
            "Publish: April 20, 27, 2019",
            date(2019, 4, 20),
            "the publication date the notice states",
        ),
        (
            # City of Moore, Okla., as the Norman Transcript's feed carries its legal notices.
            "(Published in The Norman Transcript July 21, 2015, 1t) NOTICE IS HEREBY GIVEN that"
            " a PUBLIC HEARING will be held on August 11, 2015 at 7:00 p.m.",
            date(2015, 7, 21),
            "the publication date the notice states",
        ),
        (
            "Published: 4/20/19 and 4/27/19\nHearing: Monday, May 6, 2019 at 7:00 p.m.",
            date(2019, 4, 20),
            "the publication date the notice states",
        ),
        (
            "This notice shall be published not less than 10 days before May 6, 2019.\n"
            "The hearing is set for May 6, 2019 at 6:00 p.m. in the Council Chamber.",
            date(2019, 5, 5),
            "the day before the hearing the notice states (2019-05-06)",
        ),
        (
            "The planning board recommended the rezoning on February 3, 2014.",
            date(2014, 2, 3),
            "the first date the notice states (no publication or hearing date read)",
        ),
    ],
)
def test_the_notice_s_own_date_picks_the_law(tmp_path: Path, text: str, on: date, why: str) -> None:
    """Publication date first ("Published: …", "Publish: April 20, 27, 2019"), else the hearing's,
    else any date written with its year; a date merely near "published" is not a publication date."""
    path = tmp_path / "notice.txt"
    path.write_text(text + "\n")
    result = lint([path], jurisdiction="us-nc", kind="newspaper_notice")
    judged = result.judged[str(path)]
    assert (judged.on, judged.why) == (on, why)


def test_a_notice_without_dates_is_judged_by_today_s_law_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "notice.txt"
    path.write_text("Notice of a public hearing on a rezoning. Date to be announced.\n")
    judged = lint([path], jurisdiction="us-nc", kind="newspaper_notice").judged[str(path)]
    assert judged.on == date.today()
    assert judged.why == "today: the notice states no date"


# ----------------------------------------- 3. supplementing rules keep the state's checks ----


def test_a_changed_hearing_time_in_a_shelby_notice_is_caught(tmp_path: Path) -> None:
    """Shelby § 8-5(E)(1) restates the state's date-time-place clause and has no checks of its
    own. For a 2020 hearing it binds with G.S. 160A-364's version of the state rule, whose checks
    and facts it keeps: a time changed in the notice is caught."""
    case = write_case(
        tmp_path,
        (CASES / "shelby-2027-map-01.yaml")
        .read_text()
        .replace("date: 2027-04-05", "date: 2020-04-06"),
    )
    wrong = tmp_path / "newspaper_notice.txt"
    wrong.write_text(SHELBY_2020.read_text().replace("at 6:00 p.m., in", "at 7:00 p.m., in"))
    result = lint([wrong], case_path=case, kind="newspaper_notice")
    (found,) = codes(result, "NL002")
    assert "the hearing time 6:00 p.m. is not stated" in found.message
    assert found.rule == "hearing_when_where"
    assert found.citation == "G.S. 160A-364(a); G.S. 160A-384(a); Shelby UDO § 8-5(E)(1)"
    right = lint([SHELBY_2020], case_path=case, kind="newspaper_notice")
    assert not [f for f in right.findings if f.severity == "error"], [
        f.as_dict() for f in right.findings
    ]


def test_without_a_case_the_shelby_clause_still_checks_the_date_and_time(tmp_path: Path) -> None:
    missing = tmp_path / "newspaper_notice.txt"
    text = SHELBY_2020.read_text().replace(", at 6:00 p.m., in", ", in")
    # The office hours too: this linter does not yet tell them from the hearing's time.
    missing.write_text(text.replace(", Monday through Friday, 8:00 a.m. to 5:00 p.m.", ""))
    result = lint(
        [missing], jurisdiction="us-nc-shelby", kind="newspaper_notice", on=date(2020, 3, 25)
    )
    (found,) = [f for f in codes(result, "NL001") if f.rule == "hearing_when_where"]
    assert "Shelby UDO § 8-5(E)(1)" in (found.citation or "")
    assert not [f for f in result.findings if f.rule == "shelby_hearing_when_where"]
    # The notice as written (2020, "public hearing") passes under the law of its own date.
    whole = lint([SHELBY_2020], jurisdiction="us-nc-shelby", kind="newspaper_notice")
    assert not [f for f in whole.findings if f.severity == "error"]
    assert whole.judged[str(SHELBY_2020)].on == date(2020, 3, 25)


STATE = """\
schema_version: 1
id: us-xx
name: State X
level: state
state: RI
version: "1"
last_verified_on: 2026-11-01
timezone: America/New_York
time_counting: {citation: "X Stat. § 0", text: The day of the act is not counted; the last day is.}
calendar: {country: US, subdiv: RI, categories: [public], observed: library, citation: "X Stat. § 00"}
sources: [{citation: "X Stat. § 1", title: Notice}]
rules:
  - id: when_where
    title: Date and time of the hearing
    citation: X Stat. § 1(a)
    text: The notice states the date and time of the hearing.
    kind: clause
    params: {documents: [newspaper_notice], topic: hearing_when_where, checks: {all_patterns: ['<date>', '<time>']}}
  - id: comment
    title: The public may be heard
    citation: X Stat. § 1(b)
    text: The notice says that the public may be heard.
    kind: clause
    params: {documents: [newspaper_notice], topic: right_to_be_heard, checks: {any_pattern: ['\\bbe\\s+heard\\b']}}
  - id: examine
    title: Where the proposal may be examined
    citation: X Stat. § 1(c)
    text: The letters say where the proposal may be examined.
    kind: clause
    params: {documents: [letters], topic: where_to_examine, checks: {any_pattern: ['\\bexamined\\b']}}
  - id: map
    title: A map of the change
    citation: X Stat. § 1(d)
    text: A notice of a map change shows the map.
    when: {map_change: true}
    kind: clause
    params: {documents: [newspaper_notice], topic: map, checks: {any_pattern: ['\\bmap\\b']}}
"""

TOWN = """\
schema_version: 1
id: us-xx-town
name: Town of X
level: municipality
extends: us-xx
version: "1"
last_verified_on: 2026-11-01
sources: [{citation: "Town Code § 9", title: Notice}]
rules:
  - id: town_when_where
    title: Date and time of the hearing
    citation: Town Code § 9(a)
    text: The notice states the date and time of the hearing.
    supplements: when_where
    kind: clause
    params: {documents: [newspaper_notice], topic: hearing_when_where}
  - id: town_comment
    title: Written comments are received
    citation: Town Code § 9(b)
    text: The notice says that written comments are received.
    supplements: comment
    kind: clause
    params: {documents: [newspaper_notice], topic: right_to_be_heard, checks: {all_patterns: ['\\bwritten\\s+comments?\\b']}}
  - id: town_examine
    title: Where the proposal may be examined, in the newspaper too
    citation: Town Code § 9(c)
    text: The newspaper notice, too, says where the proposal may be examined.
    supplements: examine
    kind: clause
    params: {documents: [newspaper_notice], topic: where_to_examine}
  - id: town_map
    title: A sketch of the change in every notice
    citation: Town Code § 9(d), as X Stat. § 2 allows
    text: The notice shows a sketch of the change in place of the map.
    replaces: map
    kind: clause
    params: {documents: [newspaper_notice], topic: map, checks: {any_pattern: ['\\bsketch\\b']}}
"""

NOTICE = "The council will hold a hearing on Monday, May 6, 2019 at 7:00 p.m. at Town Hall.\n"


def town_packs(tmp_path: Path, town: str = TOWN) -> Path:
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "us-xx.yaml").write_text(STATE)
    (packs / "us-xx-town.yaml").write_text(town)
    return packs


def merged(snap) -> dict[str, object]:
    return {b.rule.id: b for b in snap.bindings}


@pytest.mark.parametrize("with_case", [True, False], ids=["case", "no-case"])
def test_every_kind_of_merge_binds_the_same_with_a_case_and_without(
    tmp_path: Path, with_case: bool
) -> None:
    """Supplement (the state's checks kept, the town's added), stricter (the town's wider list of
    documents binds), replace (the town's rule in place of the state's): one merge, `snapshot`."""
    pack = resolve("us-xx-town", packs=town_packs(tmp_path))
    case = None
    if with_case:
        doc = load(CASES / "ep-2027-za-03.yaml")
        doc.data["jurisdiction"] = "us-xx-town"
        case = validate(Case, doc)
    by_id = merged(snapshot(pack, case, date(2019, 5, 6)))
    assert by_id["when_where"].ids == ["when_where", "town_when_where"]
    assert by_id["when_where"].params.checks.all_patterns == ["<date>", "<time>"]  # supplement
    assert by_id["comment"].params.checks.any_pattern == ["\\bbe\\s+heard\\b"]
    assert by_id["comment"].params.checks.all_patterns == ["\\bwritten\\s+comments?\\b"]
    assert by_id["examine"].params.documents == ["letters", "newspaper_notice"]  # stricter
    assert "map" not in by_id and "town_map" in by_id  # replace
    assert not {"town_when_where", "town_comment", "town_examine"} & set(by_id)


def test_the_merged_rules_bind_a_notice_linted_without_a_case(tmp_path: Path) -> None:
    path = tmp_path / "newspaper_notice.txt"
    path.write_text(NOTICE)
    result = lint(
        [path], jurisdiction="us-xx-town", kind="newspaper_notice", packs=town_packs(tmp_path)
    )
    failing = {f.rule: f.citation for f in codes(result, "NL001")}
    assert failing == {
        "comment": "X Stat. § 1(b); Town Code § 9(b)",  # the state's words and the town's
        "examine": "X Stat. § 1(c); Town Code § 9(c)",  # the town asks it of the newspaper
        "town_map": "Town Code § 9(d), as X Stat. § 2 allows",  # the town's rule, not the state's
    }
    assert not codes(result, "NL016")  # the replaced map rule was the only conditional one
    bare = tmp_path / "bare.txt"
    bare.write_text("The council will hold a hearing at Town Hall. All may be heard.\n")
    again = lint(
        [bare], jurisdiction="us-xx-town", kind="newspaper_notice", packs=tmp_path / "packs"
    )
    assert "when_where" in {f.rule for f in codes(again, "NL001")}


def test_local_law_cannot_disable_a_state_rule(tmp_path: Path) -> None:
    """A city's ordinance cannot waive a duty state law imposes on it, so a pack has no way to
    drop a parent rule: `disables:` is refused. Where state law itself lets the city do otherwise,
    the city's rule `replaces` the state's and cites that law (`town_map` above)."""
    town = TOWN.replace("    replaces: map\n", "    disables: map\n")
    with pytest.raises(UserError) as exc:
        resolve("us-xx-town", packs=town_packs(tmp_path, town))
    assert "rules[3].disables: unknown field" in str(exc.value.problems[0])


def test_a_supplementing_clause_whose_parent_is_not_in_force_is_said_not_passed(
    tmp_path: Path,
) -> None:
    """Before the state rule's first day, the town's rule binds alone, with no checks of its
    own: NL016 says it cannot be checked, instead of passing any notice."""
    state = STATE.replace(
        "    citation: X Stat. § 1(a)\n",
        "    citation: X Stat. § 1(a)\n    effective: {from: 2021-07-01}\n",
    )
    packs = town_packs(tmp_path)
    (packs / "us-xx.yaml").write_text(state)
    path = tmp_path / "newspaper_notice.txt"
    path.write_text(NOTICE)
    result = lint([path], jurisdiction="us-xx-town", kind="newspaper_notice", packs=packs)
    (found,) = [f for f in codes(result, "NL016") if f.rule == "town_when_where"]
    assert "cannot be checked: the pack gives no way to recognise it" in found.message


def test_versions_of_one_rule_may_not_be_in_force_together(tmp_path: Path) -> None:
    twice = STATE + (
        "  - id: when_where\n    title: Date and time\n    citation: X Stat. § 1(a) (old)\n"
        "    text: Old.\n    effective: {to: 2021-06-30}\n    kind: clause\n"
        "    params: {documents: [newspaper_notice], topic: hearing_when_where}\n"
    )
    packs = town_packs(tmp_path)
    (packs / "us-xx.yaml").write_text(twice)
    with pytest.raises(UserError) as exc:
        resolve("us-xx", packs=packs)
    assert "rule id 'when_where' is used twice: the versions of one rule have" in str(
        exc.value.problems[0]
    )
    dated = twice.replace(
        "    citation: X Stat. § 1(a)\n",
        "    citation: X Stat. § 1(a)\n    effective: {from: 2021-07-01}\n",
    )
    (packs / "us-xx.yaml").write_text(dated)
    pack = resolve("us-xx", packs=packs)
    assert pack.rule("when_where", date(2020, 1, 1)).citation == "X Stat. § 1(a) (old)"
    assert pack.rule("when_where", date(2022, 1, 1)).citation == "X Stat. § 1(a)"


# ----------------------------------------------------------------------- 4. --packs DIR ----


NC_TOWN = """\
schema_version: 1
id: us-nc-town
name: Town of Y, North Carolina
level: municipality
extends: us-nc
version: "1"
last_verified_on: 2026-11-01
sources: [{citation: "Town Code § 9", title: Notice}]
rules:
  - id: town_when_where
    title: Date, time and place of the hearing
    citation: Town Code § 9(a)
    text: The notice states the date, time and place of the hearing.
    supplements: hearing_when_where
    kind: clause
    params: {documents: [newspaper_notice], topic: hearing_when_where}
  - id: town_sketch
    title: A sketch of the change
    citation: Town Code § 9(d)
    text: The notice shows a sketch of the change.
    kind: clause
    params: {documents: [newspaper_notice], topic: map, checks: {any_pattern: ['\\bsketch\\b']}}
"""


def test_packs_folder_is_searched_before_the_project_s(tmp_path: Path) -> None:
    """A pack author's town extends the project's us-nc; the CLI takes the folder."""
    packs = tmp_path / "mine"
    packs.mkdir()
    (packs / "us-nc-town.yaml").write_text(NC_TOWN)
    done = notices(
        "lint", str(GRANVILLE_2019), "--packs", str(packs), "--jurisdiction", "us-nc-town",
        "--kind", "newspaper_notice", "--format", "json",
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert {f["rule"] for f in data["findings"] if f["code"] == "NL001"} == {"town_sketch"}
    assert data["judged"][0]["law_on"] == "2019-05-05"  # the day before the hearing
    assert notices("lint", str(GRANVILLE_2019), "--jurisdiction", "us-nc-town").returncode == 2


def test_packs_is_refused_with_a_case(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="--packs is for --jurisdiction"):
        lint(
            [DATA / "ep-reworded.txt"],
            case_path=CASES / "ep-2027-za-03.yaml",
            kind="newspaper_notice",
            packs=tmp_path,
        )


# ---------------------------------- 6. a notice the law did not yet require on the notice's day ----


def test_a_web_page_before_the_law_required_one_is_bound_only_by_every_meeting_notices_rules(
    tmp_path: Path,
) -> None:
    """Rhode Island required a website notice from 2024-01-01 only (R.I.G.L. § 45-24-53(a) as
    amended in 2023): a town's web page of a 2019 hearing is judged by the accommodation rule
    that binds every meeting notice, not by the clauses the law later required of the page.
    A real page: Little Compton, 2019 (source in the corpus file)."""
    corpus = load(ROOT / "tests" / "corpus" / "ri-little-compton-2019-lighting-amendments.yaml")
    page = tmp_path / "website_notice.txt"
    page.write_text(corpus.data["text"], encoding="utf-8")
    result = lint([page], jurisdiction="us-ri", kind="website_notice")
    judged = result.judged[str(page)]
    assert judged.on is not None and judged.on.year == 2019
    assert not codes(result, "NL001"), [f.message for f in result.findings]
    assert judged.checked == 1  # the accommodation clause alone
    # The same page judged by the law of 2024 is bound by the clauses of § 45-24-53(a).
    later = lint([page], jurisdiction="us-ri", kind="website_notice", on=date(2024, 3, 1))
    assert later.judged[str(page)].checked > 1 and codes(later, "NL001")


# --------------------------------------- 7. what a notice's own words settle about its case ----


def _corpus_notice(tmp_path: Path, name: str) -> Path:
    corpus = load(ROOT / "tests" / "corpus" / f"{name}.yaml")
    path = tmp_path / "newspaper_notice.txt"
    path.write_text(corpus.data["text"], encoding="utf-8")
    return path


def test_a_rezoning_from_one_district_to_another_needs_its_map_without_the_case(
    tmp_path: Path,
) -> None:
    """11 O.S. § 43-104 asks a map of a map change. Moore's 2015 ad says "REZONING FROM: R-1 …
    REZONING TO: … C3" and prints no map: the words settle the fact the map rule turns on
    (`text_facts` of the pack), so the map is missing, not "needs the case"."""
    moore = _corpus_notice(tmp_path, "ok-moore-2015-rz-928-rezoning-ad")
    result = lint([moore], jurisdiction="us-ok", kind="newspaper_notice")
    (found,) = [f for f in codes(result, "NL001") if f.rule == "map_in_notice"]
    assert "the notice shows: map change" in found.message
    assert not [f for f in codes(result, "NL016") if f.rule == "map_in_notice"]


def test_a_text_amendment_still_needs_the_case_to_decide_its_map(tmp_path: Path) -> None:
    """Tulsa's 2023 notice amends chapters of its zoning code: no words of a rezoning, so the
    map rule stays undecided (NL016), never dropped as if the fact were false."""
    tulsa = _corpus_notice(tmp_path, "ok-tulsa-2023-zca-27-historic-preservation-notice")
    result = lint([tulsa], jurisdiction="us-ok", kind="newspaper_notice")
    assert [f.rule for f in codes(result, "NL016")] == ["map_in_notice"]
    assert not [f for f in codes(result, "NL001") if f.rule == "map_in_notice"]


@pytest.mark.parametrize(
    ("cond", "known", "decided"),
    [
        ({"map_change": True}, {"map_change": True}, True),
        ({"map_change": True}, {}, None),
        ({"map_change": False}, {"map_change": True}, False),
        ({"all": [{"map_change": True}, {"option.post_sign": True}]}, {"map_change": True}, None),
        ({"any": [{"map_change": True}, {"option.post_sign": True}]}, {"map_change": True}, True),
        ({"not": {"map_change": True}}, {"map_change": True}, False),
    ],
)
def test_a_condition_on_the_facts_a_notice_settles(cond, known, decided) -> None:
    from generator.models.conditions import decide

    assert decide(cond, known) is decided
