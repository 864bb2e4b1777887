"""The hearing's date, time and place are the ones the text ties to the hearing (issue 15).

Office hours are not the hearing's time, the clerk's office is not its place, a deadline or the
day the notice ran is not its date, and a video-conference link alone is not a place (NL017)
unless the law then allowed a hearing held only remotely. Every notice here is a real published
one, quoted verbatim (trimmed to the lines that matter) with the address it was read at.
"""

from __future__ import annotations

from datetime import date, time
from pathlib import Path

import pytest

from generator.lint import checks, hearing
from generator.lint.engine import lint
from generator.lint.extract import extract
from generator.models.pack import ClauseChecks, RemoteOnly
from generator.rules.loader import Binding, resolve

# https://orovalleyaz.new.swagit.com/imported/orovalley/agenda-1327.html (posted 2011-09-27): the
# agenda gives the day and the room but no hour; "11:00 PM" is when it was posted, "8:00 a.m. –
# 5:00 p.m." the clerk's hours.
ORO_VALLEY = """AGENDA
ORO VALLEY PLANNING AND ZONING COMMISSION
REGULAR SESSION
October 4, 2011
ORO VALLEY COUNCIL CHAMBERS
11000 N. LA CANADA DRIVE

CALL TO ORDER

2.

Public Hearing:  Amendment to the Rancho Vistoso Planned Area Development (PAD) zoning standards.  The amendment is to clarify that multi-family residential uses (apartments) are permitted on Parcel 7-I, generally located at the northwest corner of Rancho Vistoso Blvd. and Tangerine Road, (OV 911-06). 

 POSTED: 9/27/2011  11:00 PM  tlg                                                                             

When possible, a packet of agenda materials as listed above is available for public inspection at least 24 hours prior to the Commission meeting in the Town Clerk's Office between the hours of 8:00 a.m. – 5:00 p.m.
"""  # noqa: W291

# https://www.hico-tx.com/notice-of-public-hearing/ (2021): days and hours, the properties'
# addresses and City Hall's telephone, but no place of any hearing.
HICO = """Notice of Public Hearing

The Planning and Zoning Commission will hold a public hearing to consider the request of a zone change for applicant (Four Z Family Ltd. Partnership) regarding the following adjoining properties, 403 N. Cedar St (SW70X190 OF 1 BLK 01 (2) COX-WEAVER), 405 N. Cedar St (77×179.13×105.13×180.39 OF 1 BLK 01 (2) COX-WEAVER), and 305 Old Iredell Rd (E1/2 OF 1 BLK 01 (2) COX-WEAVER; 120X219.03X120X200.06). The representative for these properties is requesting a change from residential to commercial.

  • Public Hearing – Planning and Zoning – Thursday, January 21st 5:00 pm
  • Public Hearing – Planning and Zoning – Thursday, February 4th 5:00 pm
  • Public Hearing – City Council – February 8th 5:30 pm

Should you have any questions or concerns, or plan to attend the public hearing, please call City Hall at 254-796-4620
"""

# https://www.townofmaynard-ma.gov/2020/05/14/zbl-amendments-hearing/: "via Remote Meeting" says
# how, not where; the only places are the offices where the amendment is on file.
MAYNARD = """Pursuant to Massachusetts General Laws, Chapter 40A s.5, the Maynard Planning Board will hold a public hearing on Tuesday, May 26, 2020 at 7:00 p.m. via Remote Meeting to consider recommending approval of amendments to the Maynard Protective Zoning By- laws to the June 13, 2020 Town Meeting.

The Planning Board is the sponsor of this article. A copy of the proposed Zoning By-law amendment is on file with the Office of Municipal Services Office, Planning Division and the Town Clerk’s Office, and can be found on the Town website, or by contacting 978-897-1302.
"""

# https://www.middletonma.gov/557/Zoning-Amendments: a hearing held only on Zoom.
MIDDLETON = """Zoning Amendments

The public hearing for this zoning amendment will be conducted by the Planning Board via a virtual meeting room format on March 10, 2021 at 7:00 PM at: https://zoom.us/j/94878518219
"""

# https://glastonburyct.gov/Home/Components/Calendar/Event/27221/18?curm=1&cury=2022: labels
# scope the date and the "place", a video conference.
GLASTONBURY = """Town Council Regular Meeting (Virtual)

  • Date: 01/11/2022 7:00 PM - 9:30 PM  
  • Location: Zoom Video Conference

PLEASE NOTE THIS MEETING IS BEING HELD BY ZOOM VIDEO CONFERENCE ONLY. 
"""  # noqa: W291

# https://townofstanley.org/notice-of-hearing-regular-council-meeting-date-change/ (2020).
STANLEY = """Notice of Hearing; Regular Council Meeting Date Change

Due to the holiday, The Town Council will hold the September Regular Council Meeting on Tuesday, September 8, 2020 at 6:00 p.m. via Zoom Webinar – Livestream on Facebook. At this meeting, the Council will hold a Public Hearing regarding the following matters:
"""

# https://www.townofbristolnh.org/zoning-board-adjustment/events/17856: in the meeting room and
# on Zoom (a hybrid meeting).
BRISTOL = """Zoning Board Meeting

Event Date: 
Tuesday, September 7, 2021 - 6:00pm

The Zoning Board of Adjustment meets the first Tuesday of each month at 6:00pm. The meetings are held at the Town Offices located at 5 School Street in Meeting Room A.

The Zoning Board meeting can be attended in-person or digitally. Anyone attending the meeting, who has not been vaccinated, must wear a mask. If you are not feeling well, you are encouraged to access the meeting via the Zoom platform and access information is located on the agenda for the meeting.
"""  # noqa: W291

# https://parkcity.ky.gov/2019/05/24/: the hearing at 5:45 P.M.; the budget may be seen at City
# Hall until 4:30 P.M.; comments by Friday, May 24; the commission's agenda under its heading.
PARK_CITY = """PUBLIC NOTICE
CITY OF PARK CITY
MUNICIPAL ROAD AID HEARING

The City of Park City will hold a public hearing at City Hall on Tuesday, May 28, 2019 at 5:45 P.M. for the purpose of obtaining oral and written comments from citizens regarding the use of Municipal Road Aid Funds as contained in the 2019-2020 Budget. A detailed copy of the budget may be seen at City Hall during normal business hours, Monday thru Friday, 8:00 A.M. to 4:30 P.M.

Any person or persons, especially senior citizens and handicapped individuals, who cannot submit written comments or attend the public hearing, but wish to make comments, should contact City Hall by Friday, May 24, 2019 so arrangements may be made to obtain their comments.

Park City – City Commission
Special Called Meeting
Agenda
May 28, 2019
6:00 P.M.

1) Call to order
"""

# https://www.iowa-city.org/WebLink/DocView.aspx?dbid=0&id=4453&repo=CityofIowaCity: an
# agenda's heading gives the meeting's day, hour and place, as OCR read it.
IOWA_CITY = """AGENDA ' a '
CITY COUNCIL MEETING
July 7, 1998 - 7:00 p.m.
Civic Center
STEM NO. 2.~DE8 ADOPTION OF THE CONSENT CALENDAS~NTED OR
AMENDED.
"""

# http://www.littlecomptonri.org/news_detail_T6_R78.php (2019), cut after "TIME:" where the page
# was stored: the labelled date is the hearing's; the 48 hours are a request's lead.
LITTLE_COMPTON = """   Individuals requesting interpreter services for the hearing impaired must notify the Town Clerk’s Office at (401) 635-4400, 48 hours in advance of the hearing date.

   HEARING DATE:              December 5, 2019                

  TIME:             
"""  # noqa: W291

# http://publicnotices.pmgnews.com/2016/07/public-notice-669: the ordinance is inspected at the
# commissioners' office; "Publish: June 29, 2016" is when the notice ran.
JEFFERSON = """PUBLIC NOTICE
The Jefferson County Board of Commissioners will hold a public hearing to consider the adoption of an ordinance IN THE MATTER OF ADOPTING A POST ACKNOWLEDGEMENT PLAN AMENDMENT TO THE ZONING ORDINANCE AND AN AMENDMENT TO THE COMPREHENSIVE PLAN AND ZONING MAP (MIXED USE EMPLOYMENT ZONE; FILE NO. 15-PA-04) AND DECLARING AN EMERGENCY. The ordinance will be considered in the regular meeting of the Board of Commissioners held on Wednesday, July 6 at 10:00AM, in the Commissioners Meeting Room. This will be the time and place for all interested persons to appear and present testimony on the proposed ordinance. A copy of the proposed ordinance is available for inspection at the Jefferson County Board of Commissioners Office located at 66 SE “D” Street, Madras, Oregon.
JEFFERSON COUNTY BOARD OF COMMISSIONERS
Publish: June 29, 2016
"""

# http://www.douglasma.org/phpBB2/viewtopic.php?t=1098&p=1124 (2009): the office's hours come
# first, the hearing's place before its day.
DOUGLAS = """The proposed Zoning Amendment may be viewed in the Community Development Department office during regular Town Hall Business Hours (Monday thru Thursday 8:30 AM – 1:00 PM and 1:30 PM – 4:00 PM as well as Friday 8:30 AM – 12:00 PM).

The Public Hearing will be held at the Douglas Municipal Center, 29 Depot Street, Douglas, MA on Tuesday, March 10, 2009 at 7:00 PM.
"""

# http://classifieds.telegram.com/ma/legal-notices/legal-town-of-westborough-offi/C0A801BF140c52EA1Eul1ZC01A9A
WESTBOROUGH = """LEGAL TOWN OF WESTBOROUGH OFFICE OF THE PLANNING BOARD NOTICE OF PUBLIC HEARING The Town of Westborough Planning Board will hold a public hearing on Tuesday, the 12th of September, 2017 at 7:00 P.M. in the Westborough Fire Department Conference Room, 42 Milk Street, Westborough, Massachusetts, on the following Article to appear on the Warrant for the October 16, 2017 Westborough Fall Town Meeting: To see if the Town will vote to amend its Zoning Bylaws, Article 2 District Regulations, Section 2300 Use Regulation Schedule by deleting Section 2300 in its entirety and by replacing it with a new Section 2300, as shown on file at the Town Clerk and Planning Board Offices."""

# http://www.hartford.gov/images/TownClerk/PublicHearings-5-18-09.htm: the place, then the hour,
# then the day.
HARTFORD = """Councilpersons Calixto Torres, rJo Winch, Veronica Airey-Wilson, James M. Boucher and Luis E. Cotto will represent the Council at a Public Hearing to be held in the Council Chambers of the Municipal Building at 7:00 P.M., Monday, May 18, 2009."""

# https://douglascountyherald.com/2020/08/legal-zoning-change-for-fred-hanson-jr-edith-hanson/:
# the hour before the place and the day.
AVA = """NOTICE OF PUBLIC HEARING

Application for Zoning Change to City of Ava, Missouri

A public hearing will be held by the City of Ava Planning and Zoning Commission at 6:00 P.M. at Ava City Hall on Tuesday, August 18, 2020, for the purpose of hearing a request for a zoning change submitted by Fred Hanson, JR. & Edith Hanson.

Present Zoning: B-2 Central Business

Proposed Zoning: R-1 Single Family Residential

City Code Section 110-45: Protests may be filed in the office of the city clerk at least five (5) days prior to hearing.
"""

# The issue's example of an ordinal date with the place after the hour.
ISSUE_EXAMPLE = (
    "The City Council will hold a public hearing on Monday, the 6th day of May, 2019 at 7:00 P.M."
    " in the Council Chambers of City Hall, 300 Main Street."
)

AZ = resolve("us-az").rule("hearing_when_where")  # no hearing held only remotely
RI = resolve("us-ri").rule("hearing_when_where")  # remotely, from March 2020 to July 2021


def lint_text(tmp_path: Path, text: str, pack: str, on: str) -> list:
    """The findings of `notices lint` on `text` as a newspaper notice under `pack`."""
    path = tmp_path / "notice.txt"
    path.write_text(text, encoding="utf-8")
    return lint(
        [path], jurisdiction=pack, kind="newspaper_notice", on=date.fromisoformat(on)
    ).findings


def of_hearing(findings: list, code: str) -> list:
    return [f for f in findings if f.code == code and f.rule == "hearing_when_where"]


# --- what is not the hearing's (each failed before the facts were bound to the hearing) -------


@pytest.mark.parametrize(
    ("text", "year", "gap"),
    [
        (ORO_VALLEY, 2011, "time to the"),
        (HICO, 2021, "place to the"),
        (MAYNARD, 2020, "place to the"),
    ],
    ids=["office-hours-are-not-its-time", "city-hall-to-call-is-not-its-place", "clerks-office"],
)
def test_what_is_not_the_hearings_does_not_state_it(
    text: str, year: int, gap: str, tmp_path: Path
) -> None:
    assert not checks.clause_present(AZ.params.checks, text)
    found = of_hearing(lint_text(tmp_path, text, "us-az", f"{year}-01-01"), "NL001")
    assert found and gap in found[0].message, [f.message for f in found]


def test_office_hours_a_posting_time_and_a_deadline_are_not_the_hearings() -> None:
    oro = hearing.read(ORO_VALLEY, 2011)
    assert oro.times == []  # not 11:00 PM (posted) nor 8:00 a.m. – 5:00 p.m. (the clerk's hours)
    assert [d.day for d in oro.dates][:1] == [date(2011, 10, 4)]
    assert [p.text for p in oro.places] == [
        "ORO VALLEY COUNCIL CHAMBERS",
        "11000 N. LA CANADA DRIVE",
    ]
    park = hearing.read(PARK_CITY, 2019)
    assert {t.at for t in park.times} == {time(17, 45), time(18, 0)}  # not 8:00 A.M. or 4:30 P.M.
    assert date(2019, 5, 24) not in {d.day for d in park.dates}  # "by Friday, May 24, 2019"
    douglas = hearing.read(DOUGLAS, 2009)
    assert [t.at for t in douglas.times] == [time(19, 0)]
    jefferson = hearing.read(JEFFERSON, 2016)
    assert [d.day for d in jefferson.dates] == [date(2016, 7, 6)]  # not "Publish: June 29, 2016"
    assert [p.text for p in jefferson.places] == ["Commissioners Meeting Room"]  # not the office
    ava = hearing.read(AVA, 2020)
    assert [p.text for p in ava.places] == ["Ava City Hall"]  # not the city clerk's office


def test_a_wrong_hearing_time_beside_the_right_office_hours_is_caught(tmp_path: Path) -> None:
    # A case giving the hearing at 4:30 P.M.: the notice says 5:45 P.M.; 4:30 P.M. is when City
    # Hall closes.
    path = tmp_path / "notice.txt"
    path.write_text(PARK_CITY, encoding="utf-8")
    reading = checks.Reading.of(extract(path), 2019)
    rule = Binding(AZ, AZ.params)
    expect = checks.Expect(date(2019, 5, 28), time(16, 30))
    found = [
        f
        for f in checks.clause_findings(reading, "notice.txt", [rule], expect)
        if f.code == "NL002"
    ]
    assert found and "4:30 p.m. is not stated" in found[0].message, found
    assert "5:45 P.M." in found[0].message and "4:30 P.M." not in found[0].message
    right = checks.Expect(date(2019, 5, 28), time(17, 45))
    assert not [
        f for f in checks.clause_findings(reading, "notice.txt", [rule], right) if f.code == "NL002"
    ]


def test_the_case_place_is_compared_with_the_hearings_place(tmp_path: Path) -> None:
    path = tmp_path / "notice.txt"
    path.write_text(JEFFERSON, encoding="utf-8")
    reading = checks.Reading.of(extract(path), 2016)
    rule = Binding(AZ, AZ.params)
    office = checks.Expect(
        values={"hearing.place": ["Jefferson County Board of Commissioners Office"]}
    )
    room = checks.Expect(values={"hearing.place": ["Commissioners Meeting Room"]})
    assert [f.code for f in checks.clause_findings(reading, "n.txt", [rule], office)] == ["NL002"]
    assert checks.clause_findings(reading, "n.txt", [rule], room) == []


# --- a link alone ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "on"),
    [(MIDDLETON, "2021-03-01"), (GLASTONBURY, "2022-01-01"), (STANLEY, "2020-09-01")],
    ids=["zoom-link", "location-label-zoom", "zoom-webinar-and-facebook"],
)
def test_a_link_alone_is_no_place_where_the_law_asks_for_one(
    text: str, on: str, tmp_path: Path
) -> None:
    findings = lint_text(tmp_path, text, "us-az", on)
    found = of_hearing(findings, "NL017")
    assert found and found[0].severity == "error", [f.as_dict() for f in findings]
    assert "only a link" in found[0].message and found[0].citation == "A.R.S. § 9-462.04(A)"
    assert not of_hearing(findings, "NL001")


def test_a_link_is_the_place_while_the_law_allowed_remote_hearings(tmp_path: Path) -> None:
    # Rhode Island let public bodies meet only remotely from March 16, 2020 to July 23, 2021.
    assert RI.params.checks.remote_only
    findings = lint_text(tmp_path, MIDDLETON, "us-ri", "2021-03-01")
    assert not of_hearing(findings, "NL017") and not of_hearing(findings, "NL001")
    # The same window read from the data: a hearing on a day it does not cover is NL017.
    window = RemoteOnly.model_validate({"citation": "c", "from": "2020-03-16", "to": "2021-02-28"})
    closed = ClauseChecks(all_patterns=list(hearing.TOKENS), remote_only=[window])
    assert not checks.clause_present(closed, MIDDLETON)
    opened = closed.model_copy(update={"remote_only": [window.model_copy(update={"to": None})]})
    assert checks.clause_present(opened, MIDDLETON)


def test_remotely_without_a_way_to_attend_is_no_place_even_where_allowed() -> None:
    assert not checks.clause_present(RI.params.checks, MAYNARD)  # "via Remote Meeting", 2020


def test_a_hybrid_hearing_has_its_room() -> None:
    heard = hearing.read(BRISTOL, 2021)
    assert [p.text for p in heard.places][:2] == ["Town Offices", "5 School Street"]
    assert [p.text for p in heard.remote] == ["Zoom"]
    assert checks.clause_present(AZ.params.checks, BRISTOL)


# --- what is the hearing's -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "year", "moment", "place"),
    [
        (ISSUE_EXAMPLE, 2019, (date(2019, 5, 6), time(19)), "Council Chambers"),
        (WESTBOROUGH, 2017, (date(2017, 9, 12), time(19)), "Westborough Fire Department Conference Room"),
        (HARTFORD, 2009, (date(2009, 5, 18), time(19)), "Council Chambers"),
        (AVA, 2020, (date(2020, 8, 18), time(18)), "Ava City Hall"),
        (DOUGLAS, 2009, (date(2009, 3, 10), time(19)), "Douglas Municipal Center"),
        (IOWA_CITY, 1998, (date(1998, 7, 7), time(19)), "Civic Center"),
        (PARK_CITY, 2019, (date(2019, 5, 28), time(17, 45)), "City Hall"),
    ],
    ids=["ordinal-date", "ordinal-of", "place-hour-day", "hour-place-day", "after-office-hours",
         "agenda-heading", "notice-and-agenda"],
)  # fmt: skip
def test_the_hearings_own_date_time_and_place(
    text: str, year: int, moment: tuple[date, time], place: str
) -> None:
    heard = hearing.read(text, year)
    assert heard.moment() == moment
    assert heard.places[0].text == place
    assert checks.clause_present(AZ.params.checks, text)


def test_labels_scope_the_hearings_facts() -> None:
    little = hearing.read(LITTLE_COMPTON)
    assert [d.day for d in little.dates] == [date(2019, 12, 5)]  # "HEARING DATE:"
    gap = hearing.gap(hearing.TOKENS, little)
    assert gap and gap.message == "the text ties no time or place to the hearing" and not gap.remote
    glastonbury = hearing.read(GLASTONBURY)
    assert [d.day for d in glastonbury.dates] == [date(2022, 1, 11)]
    assert [t.at for t in glastonbury.times] == [time(19)]  # 9:30 PM ends the range
    assert [p.text for p in glastonbury.remote] == ["Zoom"]  # "Location: Zoom Video Conference"
    ava = hearing.read(AVA, 2020)  # "Present Zoning:" and "Proposed Zoning:" scope nothing
    assert [p.text for p in ava.places] == ["Ava City Hall"]


def test_the_packet_compares_the_moments_the_notices_give_their_hearing(tmp_path: Path) -> None:
    # Ava's notice gives the hour before the day, which the first-date-then-time reading missed:
    # a draft edited to 7:00 P.M. is now told from the notice's 6:00 P.M.
    folder = tmp_path / "packet"
    folder.mkdir()
    (folder / "newspaper_notice.txt").write_text(AVA, encoding="utf-8")
    edited = AVA.replace("6:00 P.M.", "7:00 P.M.")
    (folder / "newspaper_notice.edited-1.txt").write_text(edited, encoding="utf-8")
    found = [
        f
        for f in lint([folder], jurisdiction="us-az", on=date(2020, 8, 1)).findings
        if f.code == "NL009"
    ]
    assert found and "7:00 p.m." in found[0].message and "6:00 p.m." in found[0].message


# https://glendaleaz.new.swagit.com/videos/136414/agenda (2021): the agenda's header block gives
# the meeting's day, hour and place under the heading, after the list of commissioners; the
# public hearing items follow. Trimmed after the first items.
GLENDALE = """City of Glendale

PLANNING COMMISSION
Agenda


Vern Crow, Chairperson (Cactus District)
Edwin Nyberg, Vice Chairperson (Cholla District)
Martin Nowakowski, Commissioner (Yucca District)
Warren Wilfong, Commissioner (Ocotillo District)
Tom Cole, Commissioner (Barrel District)
John Crow, Commissioner (Mayoral District)
Daniel Heath, Commissioner (Sahuaro District)

5850 West Glendale Avenue
Glendale, AZ 85301

September 2, 2021 6:00 PM City Hall, Council Chambers
5850 W. Glendale Ave.
Glendale, AZ 85301

1. CALL TO ORDER
2. ROLL CALL
3. CITIZEN COMMENTS
If citizens wish to speak on a matter concerning the Glendale Planning Commission that is not on
the printed agenda, please complete a Citizen Comments Card and provide it to the designated
staff person prior to the beginning of the meeting.
4. APPROVAL OF THE MINUTES
a. Planning Commission Minutes of the August 5, 2021 Regular Meeting. Click to View
"""


def test_an_agendas_header_block_after_its_members_is_the_hearings(tmp_path: Path) -> None:
    path = tmp_path / "glendale.txt"
    path.write_text(GLENDALE, encoding="utf-8")
    heard = hearing.read(extract(path).text)  # as the linter reads it: a paragraph a line
    assert date(2021, 9, 2) in [d.day for d in heard.dates]
    assert [t.at for t in heard.times] == [time(18)]
    assert {"City Hall", "Council Chambers", "5850 W. Glendale Ave."} <= {
        p.text for p in heard.places
    }
    # Without the heading that names the meeting the members' list scopes nothing.
    alone = GLENDALE.replace("PLANNING COMMISSION\nAgenda", "PLANNING COMMISSION")
    path.write_text(alone, encoding="utf-8")
    assert not hearing.read(extract(path).text).times


# https://granicus_production_attachments.s3.amazonaws.com/narragansettri/5e94586a700c18bdaa55c1fd83fd91db0.html
# (posted April 11, 2024): the room follows the hour; the stream and the town's site are not
# the hearing's place ("There will be no remote participation").
NARRAGANSETT = """NARRAGANSETT TOWN COUNCIL
REGULAR MEETING AGENDA MONDAY, APRIL 15, 2024 7:00 PM ASSEMBLY ROOM
www.narragansettri.gov
Town Manager James R. Tierney
Town Clerk Janet Tarro
This meeting is streamed live on YouTube on the Narragansett Town Council channel https://www.youtube.com/@narragansetttowncouncil. There will be no remote participation. Posted: April 11, 2024
"""


def test_a_room_right_after_the_hour_in_capitals_is_the_place() -> None:
    heard = hearing.read(NARRAGANSETT)
    assert [p.text for p in heard.places] == ["ASSEMBLY ROOM"]  # not "PM ASSEMBLY ROOM"
    assert [t.at for t in heard.times] == [time(19)]
    assert hearing.gap(hearing.TOKENS, heard) is None


# https://boonvillenc.com/news/public-hearing-notice-202412261526 (December 2024): "at 7:00 on
# January 7, 2025", an hour without a.m. or p.m. Trimmed after the first sentence.
BOONVILLE = """Public Hearing Notice
Pursuant to North Carolina General Statutes 160A-31 and 160D-601 the Boonville Town Council will hold a public hearing at the Harvey E. Smith Municipal Building located at 108 N Carolina Ave, Boonville, NC 27011 at 7:00 on January 7, 2025, to hear the comments of all persons on the petition by Derrick Hill for the voluntary annexation of the following described real property.
"""


def test_an_hour_without_meridiem_at_the_hearings_date() -> None:
    heard = hearing.read(BOONVILLE)
    assert [(t.text, t.at) for t in heard.times] == [("7:00", time(7))]  # read as written
    assert hearing.gap(hearing.TOKENS, heard) is None
    # Only "at" a date: a section number or an hour alone stays no time.
    for text in (
        "The Council will hold a public hearing under Chapter 7:00 on January 7, 2025.",
        "The Council will hold a public hearing at 7:00 in the Town Hall.",
        "The Council will hold a public hearing on January 7, 2025 with 7:00 minutes each.",
    ):
        assert not hearing.read(text).times, text


# As a PDF gives them, line by line: a break after "6:15 p.m." or OCR's "on the ??" reads as a
# sentence's end, and the place (or the date) on the next line must still be the hearing's.
# https://www.midtownphx.org/news/2018/8/12/rezoning-case-no-z-41-18-northeast-corner-of-7th-st-and-thomas-rd
PHOENIX_PDF = """The meeting and hearing dates are:
Encanto Village Planning Committee Meeting: September 10, 2018 at 6:15 p.m.
Phoenix College, Willo Room 3310 N. 10th Avenue, Phoenix, AZ
Planning Commission Hearing: October 4, 2018 at 6:00 p.m. City of Phoenix
Council Chambers 200 W. Jefferson Street, Phoenix, AZ
"""
# https://johnstown573.rssing.com/chan-42125881/article3156.html
NORMAN_PDF = """(Published in The Norman Transcript December 23, 2015, 1t) REQUEST FOR
PUD AMENDMENT NOTICE is hereby given that a proposed Ordinance will be
considered at a Public Hearing at the Planning Commission meeting on the ??
14th day of January, 2016, at 6:30 p.m. in the Council Chambers of the Norman
Municipal Building, 201 West Gray Street, Norman, Oklahoma. At that meeting,
any and all persons may appear and protest or support the passage of said
Ordinance. Any protest must be in writing and filed with the City Clerk prior to
5:00 p.m. on Monday, January 11, 2016, in order to be reported to the Planning
Commission.
"""


def test_a_pdfs_line_breaks_do_not_part_the_hearing_from_its_facts() -> None:
    phoenix = hearing.read(PHOENIX_PDF)
    assert {"Willo Room", "3310 N. 10th Avenue", "200 W. Jefferson Street"} <= {
        p.text for p in phoenix.places
    }
    norman = hearing.read(NORMAN_PDF)
    assert [d.day for d in norman.dates] == [date(2016, 1, 14)]  # not the protest deadline
    assert [t.at for t in norman.times] == [time(18, 30)]
    assert "201 West Gray Street" in [p.text for p in norman.places]
