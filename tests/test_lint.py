"""The notice linter: every rule passes and fails on data, built packets lint clean, and a
lawyer's edits in Word (plain or tracked) are caught with the right code and citation."""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from datetime import date
from pathlib import Path

import pytest
import yaml

from generator.findings import FINDINGS, reference
from generator.lint.engine import lint
from tests.conftest import CASES, ROOT, notices

DATA = Path(__file__).resolve().parent / "lint"
EXAMPLES = yaml.safe_load((DATA / "examples.yaml").read_text(encoding="utf-8"))
# The linter's own codes (NL001, NL002, …): the findings the registry says the lint stage reports.
LINT_CODES = [code for code, d in FINDINGS.items() if d.stage == "lint"]


def example_id(example: dict) -> str:
    how = "case" if "case" in example else "pack"
    return f"{example['code']}-{example['expect']}-{example['file']}-{how}"


@pytest.mark.parametrize("example", EXAMPLES, ids=example_id)
def test_rule_examples(example: dict, tmp_path: Path) -> None:
    path = DATA / example["file"]
    if example.get("print"):
        from generator.render import pdf

        html = path.read_text(encoding="utf-8")
        path = tmp_path / (path.stem + ".pdf")
        path.write_bytes(pdf.write_pdf(html, {}, [DATA]))
    on = example.get("on")
    result = lint(
        [path],
        case_path=ROOT / example["case"] if "case" in example else None,
        jurisdiction=example.get("jurisdiction"),
        kind=example["kind"],
        on=date.fromisoformat(str(on)) if on else None,
    )
    found = [f for f in result.findings if f.code == example["code"]]
    if example["expect"] == "pass":
        assert not found, [f.as_dict() for f in found]
        return
    assert found, [f.as_dict() for f in result.findings]
    if "rule" in example:
        assert any(f.rule == example["rule"] for f in found), [f.as_dict() for f in found]
        assert any(example["citation"] in (f.citation or "") for f in found)


def track_delete(xml: str, words: str, author: str) -> str:
    """Wrap every run of the paragraph holding `words` in <w:del>, its text in <w:delText>."""
    from lxml import etree

    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    root = etree.fromstring(xml.encode())
    para = next(p for p in root.iter(f"{w}p") if words in "".join(p.itertext()))
    for run in list(para.iter(f"{w}r")):
        for t in run.findall(f"{w}t"):
            t.tag = f"{w}delText"
        wrapper = etree.SubElement(para, f"{w}del")
        wrapper.set(f"{w}id", "901")
        wrapper.set(f"{w}author", author)
        wrapper.set(f"{w}date", "2027-01-05T10:00:00Z")
        run.addprevious(wrapper)
        wrapper.append(run)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True).decode()


def comment_on(path: Path, words: str, author: str, text: str) -> None:
    """A reviewer's comment on the paragraph holding `words`, as Word saves it."""
    import docx

    document = docx.Document(path)
    paragraph = next(p for p in document.paragraphs if words in p.text)
    document.add_comment(paragraph.runs[0], text=text, author=author)
    document.save(path)


PACKET_EXAMPLES = yaml.safe_load((DATA / "packet_examples.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "example", PACKET_EXAMPLES, ids=lambda e: f"{e['code']}-{e['expect']}-{e['case']}"
)
def test_packet_rule_examples(example: dict, packets: Path, tmp_path: Path) -> None:
    folder = copy_packet(packets, example["case"], tmp_path)
    for edit in example["edits"]:
        (op, args), *_ = edit.items()
        target = folder / args["file"] if isinstance(args, dict) else folder
        if op == "append":
            target.write_text(target.read_text().rstrip("\n") + "\n" + args["line"] + "\n")
        elif op == "replace":
            old = target.read_text()
            assert args["old"] in old
            target.write_text(old.replace(args["old"], args["new"]))
        elif op == "track_delete":
            rewrite_docx(target, lambda xml, a=args: track_delete(xml, a["words"], a["author"]))
        elif op == "comment":
            comment_on(target, args["words"], args["author"], args["text"])
        elif op == "delete":
            for path in folder.glob(args):
                path.unlink()
        elif op == "set_json":
            data = json.loads(target.read_text())
            *parents, last = args["key"].split(".")
            inner = data
            for key in parents:
                inner = inner[key]
            inner[last] = args["value"]
            target.write_text(json.dumps(data))
        elif op == "cut":
            (folder / args["as"]).write_bytes(target.read_bytes()[: args["bytes"]])
        else:
            raise AssertionError(f"unknown edit {op}")
    found = [f for f in lint([folder]).findings if f.code == example["code"]]
    if example["expect"] == "pass":
        assert not found, [f.as_dict() for f in found]
    else:
        assert found and {f.document for f in found} == {example["document"]}
        for words in example.get("message", []):
            assert any(words in f.message for f in found), (words, [f.message for f in found])


def test_every_rule_has_a_passing_and_a_failing_example() -> None:
    in_data = {(e["code"], e["expect"]) for e in EXAMPLES + PACKET_EXAMPLES}
    assert all(re.fullmatch(r"NL\d{3}", code) for code in LINT_CODES), LINT_CODES
    for code in LINT_CODES:
        assert {(code, "pass"), (code, "fail")} <= in_data, code


@pytest.fixture(scope="module")
def packets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lint-packets")
    cases = ("ep-2027-za-03", "az-2027-posting-01", "az-2027-text-01", "shelby-2027-map-01")
    done = notices("build", *(str(CASES / f"{c}.yaml") for c in cases), "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize(
    "case", ["ep-2027-za-03", "az-2027-posting-01", "az-2027-text-01", "shelby-2027-map-01"]
)
def test_built_packets_lint_clean(packets: Path, case: str) -> None:
    """Our own packets pass every check, the sign's letters and the ad's size included."""
    done = notices("lint", str(packets / case), "--format", "json")
    report = json.loads(done.stdout)
    assert done.returncode == 0, report["findings"]
    assert report["errors"] == 0 and report["warnings"] == 0
    kinds = {Path(p).name.split(".")[0].split("-")[0] for p in report["documents"]}
    assert "newspaper_notice" in kinds or "sign" in kinds


def copy_packet(packets: Path, case: str, tmp_path: Path) -> Path:
    folder = tmp_path / case
    shutil.copytree(packets / case, folder)
    return folder


def rewrite_docx(path: Path, change: callable) -> None:
    """Rewrite word/document.xml of a DOCX in place, as Word would save it."""
    with zipfile.ZipFile(path) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    parts["word/document.xml"] = change(parts["word/document.xml"].decode()).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def amended_paragraph(xml: str) -> re.Match[str]:
    """The <w:p> of the "may be altered or amended" clause in our newspaper notice."""
    for m in re.finditer(r"<w:p[ >].*?</w:p>", xml, re.S):
        if "without further advertising" in m.group(0):
            return m
    raise AssertionError("no such paragraph")


def test_clause_deleted_in_word_is_caught(packets: Path, tmp_path: Path) -> None:
    """A lawyer deletes the clause outright and saves: NL001 with the rule and its citation."""
    folder = copy_packet(packets, "ep-2027-za-03", tmp_path)
    draft = folder / "newspaper_notice.edited-1.docx"
    shutil.copy(folder / "newspaper_notice.docx", draft)
    rewrite_docx(draft, lambda xml: xml.replace(amended_paragraph(xml).group(0), ""))
    done = notices(
        "lint", str(draft), "--case", str(CASES / "ep-2027-za-03.yaml"), "--format", "json"
    )
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)["findings"]
    missing = [f for f in findings if f["code"] == "NL001"]
    assert [f["rule"] for f in missing] == ["may_be_amended"]
    assert "R.I.G.L. § 45-24-53(a)(5)" in missing[0]["citation"]
    # The packet folder lints the edited draft too, and the untouched one passes.
    result = lint([folder])
    assert {f.document for f in result.findings if f.code == "NL001"} == {draft.name}


def test_clause_deleted_as_a_tracked_change_is_caught_and_the_change_reported(
    packets: Path, tmp_path: Path
) -> None:
    """The same deletion with Track Changes on: read as accepted, and the pending change warned."""
    folder = copy_packet(packets, "ep-2027-za-03", tmp_path)
    draft = folder / "newspaper_notice.docx"

    rewrite_docx(draft, lambda xml: track_delete(xml, "without further advertising", "A. Lawyer"))
    result = lint([draft], case_path=CASES / "ep-2027-za-03.yaml")
    codes = {(f.code, f.rule) for f in result.findings}
    assert ("NL001", "may_be_amended") in codes
    tracked = [f for f in result.findings if f.code == "NL010"]
    assert tracked and "A. Lawyer" in tracked[0].message and tracked[0].paragraph
    assert "may be altered or amended" in (tracked[0].quote or "")
    assert all(f.severity == "warning" for f in tracked)


def test_comment_is_a_warning_and_strict_fails_on_it(packets: Path, tmp_path: Path) -> None:
    folder = copy_packet(packets, "ep-2027-za-03", tmp_path)
    draft = folder / "newspaper_notice.docx"
    comment_on(draft, "without further advertising", "B. Clerk", "Check with the solicitor.")
    case = str(CASES / "ep-2027-za-03.yaml")
    plain = notices("lint", str(draft), "--case", case)
    assert plain.returncode == 0, plain.stdout
    assert "NL011 [warning] comment by B. Clerk" in plain.stdout
    strict = notices("lint", str(draft), "--case", case, "--strict")
    assert strict.returncode == 1


def test_weekday_wrong_in_a_built_notice(packets: Path, tmp_path: Path) -> None:
    folder = copy_packet(packets, "ep-2027-za-03", tmp_path)
    text = folder / "newspaper_notice.txt"
    text.write_text(
        text.read_text().replace("Tuesday, March 16, 2027", "Wednesday, March 16, 2027")
    )
    result = lint([text], case_path=CASES / "ep-2027-za-03.yaml")
    wrong = [f for f in result.findings if f.code == "NL003"]
    assert len(wrong) == 1 and "is a Tuesday, not a Wednesday" in wrong[0].message
    assert wrong[0].paragraph == 4 and "Wednesday, March 16, 2027" in wrong[0].quote


def test_output_formats_keep_code_severity_message_and_citation(tmp_path: Path) -> None:
    args = [str(DATA / "ep-missing-clause.txt"), "--case", str(CASES / "ep-2027-za-03.yaml")]
    args += ["--kind", "newspaper_notice"]
    text = notices("lint", *args)
    assert text.returncode == 1
    assert re.search(
        r"NL001 \[error\] required clause not found: .*R\.I\.G\.L\. § 45-24-53\(a\)\(5\)",
        text.stdout,
    )
    sarif = json.loads(notices("lint", *args, "--format", "sarif").stdout)
    run = sarif["runs"][0]
    (result,) = [r for r in run["results"] if r["ruleId"] == "NL001"]
    assert result["level"] == "error"
    assert result["properties"]["packRule"] == "may_be_amended"
    assert "R.I.G.L. § 45-24-53(a)(5)" in result["properties"]["citation"]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} == set(LINT_CODES)


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    odd = tmp_path / "notice.rtf"
    odd.write_text("{\\rtf1 hello}")
    assert (
        notices(
            "lint", str(odd), "--jurisdiction", "us-ri", "--kind", "newspaper_notice"
        ).returncode
        == 2
    )
    assert notices("lint", str(tmp_path / "absent.txt")).returncode == 2
    plain = tmp_path / "newspaper_notice.txt"
    plain.write_text("Notice")
    done = notices("lint", str(plain))  # no case, no jurisdiction
    assert done.returncode == 2 and "--jurisdiction" in done.stderr
    unknown = notices("lint", "--explain", "NL999")
    assert unknown.returncode == 2 and "no finding 'NL999'" in unknown.stderr
    assert notices("lint", "--explain", "PLAN001").returncode == 0  # any code, not only lint's


def test_explain_and_the_generated_reference() -> None:
    done = notices("lint", "--explain", "nl003")
    assert done.returncode == 0 and done.stdout.startswith("NL003 wrong-weekday (error;")
    assert FINDINGS["NL003"].explanation in done.stdout
    written = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    assert written == reference(), "docs/findings.md is stale: run `make docs`"


def test_build_lints_its_packet_and_an_edited_draft_missing_a_clause_makes_it_not_ready(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    case = str(CASES / "ep-2027-za-03.yaml")
    first = notices("build", case, "--out", str(out))
    assert first.returncode == 0, first.stderr
    folder = out / "ep-2027-za-03"
    manifest = json.loads((folder / "manifest.json").read_text())
    report = next(d for d in manifest["documents"] if d["path"] == "lint_report.json")
    assert report["kind"] == "lint_report"
    assert json.loads((folder / "lint_report.json").read_text())["errors"] == 0
    # A lawyer deletes the clause in Word; the next build keeps the draft and lints it too.
    rewrite_docx(
        folder / "newspaper_notice.docx",
        lambda xml: xml.replace(amended_paragraph(xml).group(0), ""),
    )
    second = notices("build", case, "--out", str(out))
    assert second.returncode == 1, second.stdout + second.stderr
    manifest = json.loads((folder / "manifest.json").read_text())
    assert not manifest["ready"]
    (missing,) = [f for f in manifest["findings"] if f["code"] == "NL001"]
    assert missing["document"] == "newspaper_notice.edited-1.docx"
    assert missing["rule"] == "may_be_amended" and "45-24-53(a)(5)" in missing["citation"]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("newspaper_notice-council.edited-1.docx", "newspaper_notice"),
        ("posting_notice.pdf", "posting_notice"),
        ("posting_notice-poster.pdf", "sign"),
        ("posting_notice-council-poster.edited-2.pdf", "sign"),
        ("letters-planning.pdf", "letters"),
        ("transmittal.docx", "transmittal"),
        ("labels.pdf", None),
        ("certificate_of_posting-sign.pdf", None),
    ],
)
def test_the_registry_says_how_each_packet_file_is_linted(name: str, kind: str | None) -> None:
    """A poster is measured as a sign; lists and proofs are not read as notices."""
    from generator.documents.registry import lint_kind

    found = lint_kind(Path(name))
    assert (found.value if found else None) == kind


def test_several_packets_are_each_judged_by_their_own_case(packets: Path) -> None:
    """`notices lint A B` judges B by B's case, not A's: the findings are those of each alone."""
    first, second = packets / "ep-2027-za-03", packets / "shelby-2027-map-01"
    together = json.loads(notices("lint", str(first), str(second), "--format", "json").stdout)
    alone = [
        json.loads(notices("lint", str(p), "--format", "json").stdout) for p in (first, second)
    ]
    assert together["documents"] == alone[0]["documents"] + alone[1]["documents"]
    assert together["findings"] == alone[0]["findings"] + alone[1]["findings"]
