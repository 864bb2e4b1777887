"""Bad case files: one clear message per problem with file:line:column and field, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import CASES, ROOT, notices, write_case

GOOD = (CASES / "ep-2027-za-03.yaml").read_text()


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def build_fails(tmp_path: Path, text: str) -> str:
    path = write_case(tmp_path, text, "bad-case.yaml")
    result = notices("build", str(path), "--out", str(tmp_path / "out"))
    assert result.returncode == 2, result.stdout + result.stderr
    assert not (tmp_path / "out").exists(), "nothing may be written for bad input"
    assert "Traceback" not in result.stderr
    return result.stderr


def test_yaml_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    text = GOOD.replace("  kind: map\n", "  kind: [map\n")
    err = build_fails(tmp_path, text)
    assert "bad-case.yaml:" in err and "YAML syntax error" in err


def test_unknown_field_points_at_the_key(tmp_path: Path) -> None:
    text = GOOD.replace("  initiated_by: owner\n", "  initiated_by: owner\n  initated_by: owner\n")
    err = build_fails(tmp_path, text)
    line = line_of(text, "initated_by")
    assert f"bad-case.yaml:{line}:3: amendment.initated_by: unknown field" in err


def test_missing_field_names_the_field_at_its_parent(tmp_path: Path) -> None:
    text = GOOD.replace("  hours: Monday through Friday, 8:00 a.m. to 4:00 p.m.\n", "")
    err = build_fails(tmp_path, text)
    assert (
        f"bad-case.yaml:{line_of(text, '  place: Office of the City Clerk')}:3: examination.hours: required field is missing"
        in err
    )


def test_wrong_type(tmp_path: Path) -> None:
    text = GOOD.replace("council_size: 5", "council_size: five")
    err = build_fails(tmp_path, text)
    assert f"bad-case.yaml:{line_of(text, 'council_size')}:15: council_size:" in err
    assert "integer" in err


def test_impossible_date(tmp_path: Path) -> None:
    text = GOOD.replace("date: 2027-03-16", "date: 2027-02-30")
    err = build_fails(tmp_path, text)
    assert f":{line_of(text, '2027-02-30')}:" in err
    assert "hearings[0].date: 2027-02-30 is not a real calendar date" in err


def test_ambiguous_time(tmp_path: Path) -> None:
    text = GOOD.replace("start_time: 7:00 p.m.", "start_time: '7:00'")
    err = build_fails(tmp_path, text)
    assert "hearings[0].start_time: '7:00' is ambiguous: write 7:00 a.m. or 7:00 p.m." in err


def test_an_unquoted_zip_code_says_why_its_leading_zero_is_gone(tmp_path: Path) -> None:
    quoted = next(line for line in GOOD.splitlines() if 'zip: "02' in line)
    text = GOOD.replace(quoted, quoted.replace('zip: "02', "zip: 02").replace('"}', "}"), 1)
    err = build_fails(tmp_path, text)
    assert (
        f"bad-case.yaml:{line_of(text, quoted.split(':')[0] + ':')}:"  # its line
        in err
    )
    assert (
        "the ZIP code is read as the number" in err and 'write it in quotes, e.g. zip: "02' in err
    )
    assert "should match pattern" not in err


def test_unknown_jurisdiction(tmp_path: Path) -> None:
    text = GOOD.replace("jurisdiction: us-ri-east-providence", "jurisdiction: us-ri-east-providenc")
    err = build_fails(tmp_path, text)
    assert (
        f"bad-case.yaml:{line_of(text, 'jurisdiction:')}:15: jurisdiction: unknown jurisdiction 'us-ri-east-providenc'"
        in err
    )


def test_duplicate_key(tmp_path: Path) -> None:
    text = GOOD.replace("council_size: 5", "council_size: 5\ncouncil_size: 7")
    err = build_fails(tmp_path, text)
    assert (
        f"bad-case.yaml:{line_of(text, 'council_size: 7')}:1: council_size: duplicate key (first on line {line_of(text, 'council_size: 5')})"
        in err
    )


def test_missing_map_file(tmp_path: Path) -> None:
    text = GOOD + "map: {image: maps/nowhere.png}\n"
    err = build_fails(tmp_path, text)
    assert "map.image: no such file" in err


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = (
        GOOD.replace("date: 2027-03-16", "date: 2027-13-01")
        .replace("start_time: 7:00 p.m.", "start_time: '7'")
        .replace("council_size: 5", "council_size: -1")
        .replace("  kind: map\n", "  kind: mpa\n")
    )
    err = build_fails(tmp_path, text)
    problems = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(problems) == 4, err
    for field in ("hearings[0].date", "hearings[0].start_time", "council_size", "amendment.kind"):
        assert f" {field}:" in err


def test_case_id_must_match_file_name(tmp_path: Path) -> None:
    err = build_fails(tmp_path, "id: another-case\n" + GOOD)
    assert "bad-case.yaml:1:5: id: must be 'bad-case', the name of the case file" in err


def test_missing_case_file(tmp_path: Path) -> None:
    result = notices("build", str(tmp_path / "nowhere.yaml"), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "nowhere.yaml: file not found" in result.stderr


@pytest.mark.parametrize("value", ["19:00", "07:30", "7:00 p.m.", "7 PM", "noon", "12:00 noon"])
def test_unambiguous_times_are_accepted(value: str) -> None:
    from generator.models.base import _clock_time

    assert _clock_time(value)


def test_help_names_both_commands() -> None:
    result = notices("--help")
    assert result.returncode == 0
    assert "build" in result.stdout and "explain" in result.stdout


def test_a_newspaper_profile_fills_what_the_case_leaves_unsaid() -> None:
    from generator.inputs import load_case

    cf = load_case(CASES / "newport-2027-map-01.yaml")
    assert cf.case.newspaper.name == "The Newport Daily News"
    assert cf.case.newspaper.copy_deadline.days_before == 3
    assert cf.newspaper_profile.page.columns == 6


def test_unknown_newspaper_profile(tmp_path: Path) -> None:
    text = GOOD.replace("  profile: east-providence-post\n", "  profile: east-providence-pots\n")
    err = build_fails(tmp_path, text)
    assert (
        f"bad-case.yaml:{line_of(text, 'east-providence-pots')}:12: newspaper.profile: no newspaper profile 'east-providence-pots'"
        in err
    )


def test_a_newspaper_profile_is_an_id_not_a_path(tmp_path: Path) -> None:
    (tmp_path / "secret.yaml").write_text("id: secret\napi_key: hunter2\n")
    wanted = f"../../../../../../../../..{tmp_path}/secret"
    text = GOOD.replace("  profile: east-providence-post\n", f"  profile: {wanted}\n")
    err = build_fails(tmp_path, text)
    assert "newspaper.profile: " in err and "is not a profile id" in err
    assert "api_key" not in err and "hunter2" not in err


@pytest.mark.parametrize("name", ["...yaml", "..yaml", ".yaml", ".hidden.yaml"])
def test_a_case_file_name_that_is_no_folder_name_is_refused(tmp_path: Path, name: str) -> None:
    """The case id names the packet's folder: `...yaml` gave the id `..`, a folder above --out."""
    out = tmp_path / "deep" / "out"
    path = (
        write_case(tmp_path / "deep", GOOD, name) if (tmp_path / "deep").mkdir() is None else None
    )
    result = notices("build", str(path), "--out", str(out))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "the case id" in result.stderr and "rename the file" in result.stderr
    assert sorted(p.name for p in (tmp_path / "deep").iterdir()) == [name]  # nothing written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep"]


def test_a_bad_newspaper_profile_is_located_in_its_own_file(tmp_path: Path) -> None:
    from generator.errors import UserError
    from generator.models.base import validate
    from generator.models.newspaper import NewspaperProfile
    from generator.yamlio import loads

    text = (
        (ROOT / "data" / "newspapers" / "newport-daily-news.yaml")
        .read_text()
        .replace("columns: 6", "columns: 5")
    )
    with pytest.raises(UserError) as exc:
        validate(NewspaperProfile, loads(text, "data/newspapers/x.yaml"))
    problem = exc.value.problems[0]
    assert problem.field == "page" and "5 columns of 1.875 in" in problem.message
    assert problem.line == line_of(text, "page:") + 1


def test_an_option_no_pack_of_the_jurisdiction_declares_is_refused(tmp_path: Path) -> None:
    # The Oklahoma sign option means nothing in Rhode Island: its packs do not declare it.
    text = GOOD.replace("council_size: 5", "options:\n  post_sign: true\ncouncil_size: 5")
    err = build_fails(tmp_path, text)
    line = line_of(text, "post_sign")
    assert (
        f"bad-case.yaml:{line}:3: options.post_sign: unknown option; the packs of"
        " us-ri-east-providence declare: none" in err
    )


def test_an_option_with_a_wrong_value_is_refused(tmp_path: Path) -> None:
    text = (CASES / "shelby-2027-map-01.yaml").read_text()
    text = text.replace("large_scale_alternative: false", "large_scale_alternative: sometimes")
    err = build_fails(tmp_path, text)
    line = line_of(text, "large_scale_alternative")
    assert (
        f"bad-case.yaml:{line}:28: options.large_scale_alternative: must be true or false,"
        " not 'sometimes'" in err
    )
