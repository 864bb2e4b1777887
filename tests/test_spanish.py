"""Spanish notices under the same law: Babel's dates, the Spanish recognisers, and the linter
checking each language of a notice against the same clause rules.

The notices linted are the Pecan Grove sample's bilingual newspaper notice as built (its golden
copy, `tests/golden/tx-2027-map-01/`), and that notice with a clause taken out of one language.
"""

from __future__ import annotations

import json
from datetime import date, time
from pathlib import Path

import pytest

from generator.findings import Finding
from generator.inputs import load_case
from generator.lint import checks, language
from generator.lint.extract import extract
from generator.models.languages import Language, Layout
from generator.render import languages
from tests.conftest import CASES, ROOT, notices, write_case

GOLDEN = ROOT / "tests" / "golden" / "tx-2027-map-01" / "newspaper_notice-planning.txt"
CASE = CASES / "tx-2027-map-01.yaml"
BREAK = "\n\n* * *\n\n"
# The hearing's place, in each language, as the planning notice's hearing sentence gives it.
PLACE_EN = (
    ", in Council Chambers, Pecan Grove City Hall, 300 East Live Oak Street, Pecan Grove, TX 76999"
)
PLACE_ES = ", en la Sala del Concejo, Ayuntamiento de Pecan Grove, 300 East Live Oak Street, Pecan Grove, TX 76999"


def test_dates_and_times_are_written_the_spanish_way() -> None:
    assert languages.long_date(date(2027, 3, 18)) == "jueves, 18 de marzo de 2027"
    assert languages.clock(time(18, 0)) == "6:00 p. m."
    assert languages.clock(time(9, 30)) == "9:30 a. m."
    assert (
        languages.when(date(2027, 4, 6), time(13, 0))
        == "martes, 6 de abril de 2027, a la 1:00 p. m."
    )
    # Our own English dates, formatted before rendering (a posting deadline), said again.
    assert languages.spanish_dates("Friday, April 2, 2027") == "viernes, 2 de abril de 2027"
    assert languages.spanish_dates("7:00 p.m. on Friday, April 2, 2027") == (
        "7:00 p. m. del viernes, 2 de abril de 2027"
    )


@pytest.mark.parametrize("topic", sorted(language.topics()))
def test_each_topic_s_spanish_words_recognise_their_examples(topic: str) -> None:
    words = language.topics()[topic]
    assert words.examples, f"{topic}: give the Spanish recogniser an example"
    for example in words.examples:
        assert checks.clause_present(words, example), (topic, example)
    for look_alike in words.not_examples:
        assert not checks.clause_present(words, look_alike), (topic, look_alike)


def test_a_bilingual_notice_is_read_as_two_sections(tmp_path: Path) -> None:
    notice = tmp_path / "newspaper_notice-planning.txt"
    notice.write_text(GOLDEN.read_text(encoding="utf-8"), encoding="utf-8")
    parts = language.sections(extract(notice))
    assert [lang for lang, _ in parts] == [Language.EN, Language.ES]
    assert parts[0][1].text.startswith("NOTICE OF PUBLIC HEARING")
    assert parts[1][1].text.lstrip("* \n").startswith("AVISO DE AUDIENCIA PÚBLICA")


def _lint(tmp_path: Path, text: str) -> list[dict[str, str]]:
    """`notices lint` of `text` as the planning commission's newspaper notice of the case."""
    notice = tmp_path / "newspaper_notice-planning.txt"
    notice.write_text(text, encoding="utf-8")
    run = notices("lint", str(notice), "--case", str(CASE), "--format", "json")
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)["findings"]


def _clause_errors(found: list[dict[str, str]]) -> list[dict[str, str]]:
    return [f for f in found if f["code"] in ("NL001", "NL002")]


@pytest.mark.slow
def test_our_spanish_notice_passes_and_one_missing_its_place_is_caught(tmp_path: Path) -> None:
    spanish = GOLDEN.read_text(encoding="utf-8").split(BREAK, 1)[1]
    assert _clause_errors(_lint(tmp_path, spanish)) == []
    assert PLACE_ES in spanish
    found = _clause_errors(_lint(tmp_path, spanish.replace(PLACE_ES, "")))
    assert [f["rule"] for f in found] == ["hearing_when_where"]
    assert "(in the Spanish text)" in found[0]["message"]


@pytest.mark.slow
def test_a_bilingual_notice_is_checked_in_both_languages(tmp_path: Path) -> None:
    both = GOLDEN.read_text(encoding="utf-8")
    assert _clause_errors(_lint(tmp_path, both)) == []
    english, spanish = both.split(BREAK, 1)
    # One part without its places: the other language's does not make up for them.
    for text, said in (
        (english.replace(PLACE_EN, "").replace(PLACE_EN[5:], "") + BREAK + spanish, "English"),
        (english + BREAK + spanish.replace(PLACE_ES, ""), "Spanish"),
    ):
        found = _clause_errors(_lint(tmp_path, text))
        assert [(f["rule"], f"(in the {said} text)" in f["message"]) for f in found] == [
            ("hearing_when_where", True)
        ], said


def test_the_case_s_words_left_in_english_are_named(tmp_path: Path) -> None:
    text = CASE.read_text(encoding="utf-8")
    summary_es = "      es: >-\n        El propietario solicita"
    assert summary_es in text
    # Drop the Spanish of the summary: the build must say it printed the summary in English.
    start = text.index("    - en: >-\n        The owner asks")
    end = text.index("    - en: >-\n        Neighborhood retail")
    case = load_case(write_case(tmp_path, text[:start] + text[end:])).case
    from generator.rules.loader import resolve

    said = languages.speech(resolve(case.jurisdiction), case)
    assert said.layout == Layout.BILINGUAL_SEQUENTIAL
    found = languages.left_in_english(case, [("pg_rule", "A wording the pack gives.")], said)
    assert [f.code for f in found] == ["LANG001", "LANG001"]
    assert found[0].message.endswith(": amendment.summary")
    assert found[1].message.endswith(": pg_rule")
    assert isinstance(found[0], Finding)


def test_a_pack_asks_for_spanish_and_a_case_s_layout_wins(tmp_path: Path) -> None:
    from generator.rules.loader import resolve

    pack = (ROOT / "jurisdictions" / "us-tx-pecan-grove.yaml").read_text(encoding="utf-8")
    head, rules = pack.split("\nrules:\n", 1)
    languages_yaml = (
        "languages:\n  layout: spanish_only\n  spanish:\n"
        "    - {en: public hearing, es: audiencia pública de zonificación}\n"
    )
    (tmp_path / "us-tx-pecan-grove.yaml").write_text(
        f"{head}\n{languages_yaml}rules:\n{rules}", encoding="utf-8"
    )
    resolved = resolve("us-tx-pecan-grove", packs=tmp_path)
    text = CASE.read_text(encoding="utf-8")
    case = load_case(write_case(tmp_path, text)).case
    plain = load_case(
        write_case(tmp_path, text.replace("  layout: bilingual_sequential\n", ""), "plain.yaml")
    ).case
    assert languages.speech(resolved, plain).layout == Layout.SPANISH_ONLY
    assert languages.speech(resolved, case).layout == Layout.BILINGUAL_SEQUENTIAL
    # The pack's own Spanish for its term, over the built-in one.
    assert languages.speech(resolved, case).spanish["public hearing"] == (
        "audiencia pública de zonificación"
    )
