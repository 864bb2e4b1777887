"""The case form (`notices serve`): generated from the schema, checked as the CLI checks, saved in place."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from generator.inputs import load_case
from generator.models.case import Case
from generator.web import form as schema_form
from generator.web.app import create_app
from generator.yamlio import load

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "cases").glob("*.yaml"))
NEWPORT = "newport-2027-map-01"


class FormReader(HTMLParser):
    """What a browser sends for `<form id="case-form">`, and the attributes of each element by id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.fields: list[tuple[str, str]] = []
        self.by_id: dict[str, dict[str, str | None]] = {}
        self.text_by_id: dict[str, str] = {}
        self._in_form = False
        self._select: tuple[str, list[tuple[str, bool]]] | None = None
        self._option: tuple[str | None, bool, list[str]] | None = None
        self._textarea: tuple[str, list[str]] | None = None
        self._texts: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.by_id[str(a["id"])] = a | {"_tag": tag}
            self._texts.append((str(a["id"]), []))
        if tag == "form" and a.get("id") == "case-form":
            self._in_form = True
        if not self._in_form:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((name, a.get("value") or "on"))
            else:
                self.fields.append((name, a.get("value") or ""))
        elif tag == "textarea" and name:
            self._textarea = (name, [])
        elif tag == "select" and name:
            self._select = (name, [])
        elif tag == "option" and self._select is not None:
            self._option = (a.get("value"), "selected" in a, [])

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea[1].append(data)
        if self._option is not None:
            self._option[2].append(data)
        for _, texts in self._texts:
            texts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea" and self._textarea is not None:
            text = "".join(self._textarea[1])
            # a browser drops the one newline that follows <textarea>
            self.fields.append((self._textarea[0], text.removeprefix("\n")))
            self._textarea = None
        elif tag == "option" and self._option is not None and self._select is not None:
            value, selected, text = self._option
            self._select[1].append((value if value is not None else "".join(text), selected))
            self._option = None
        elif tag == "select" and self._select is not None:
            name, options = self._select
            chosen = [v for v, s in options if s] or [v for v, _ in options[:1]]
            self.fields += [(name, v) for v in chosen]
            self._select = None
        elif tag == "form":
            self._in_form = False
        if self._texts and self.by_id.get(self._texts[-1][0], {}).get("_tag") == tag:
            ident, texts = self._texts.pop()
            self.text_by_id[ident] = "".join(texts)
            if self._texts:
                self._texts[-1][1].extend(texts)


def read(html: str) -> FormReader:
    reader = FormReader()
    reader.feed(html)
    return reader


def submit(
    client: TestClient,
    url: str,
    html: str,
    changes: dict[str, str] | None = None,
    action: str = "save",
    drop: tuple[str, ...] = (),
) -> Any:
    """Post the form as a browser would, with some fields changed and one button pressed."""
    fields = [(k, v) for k, v in read(html).fields if k not in drop]
    changes = dict(changes or {})
    fields = [(k, changes.pop(k)) if k in changes else (k, v) for k, v in fields]
    fields += [*changes.items(), ("_action", action)]
    body = "&".join(f"{_quote(k)}={_quote(v)}" for k, v in fields)
    return client.post(
        url,
        content=body,
        headers={"content-type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A working folder with the sample cases, their GIS data beside them as in the repository."""
    (tmp_path / "cases").mkdir()
    for case in SAMPLES:
        shutil.copy(case, tmp_path / "cases" / case.name)
    (tmp_path / "data").symlink_to(ROOT / "data")
    return tmp_path


@pytest.fixture
def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder))


def every_path(model: type, prefix: str = "") -> list[str]:
    """The dotted path of every field of the schema the form shows at the top of each list."""
    out = []
    for key, _, sh in schema_form._fields(model):
        path = f"{prefix}{key}"
        out.append(path)
        if sh.kind == "group" and sh.model:
            out += every_path(sh.model, f"{path}.")
    return out


def test_the_form_shows_every_field_of_the_schema_with_a_label_and_its_help(
    client: TestClient,
) -> None:
    html = client.get(f"/cases/{NEWPORT}/edit").text
    page = read(html)
    for path in every_path(Case):
        ident = path.replace(".", "-")
        assert ident in page.by_id, f"{path} is not on the form"
        if page.by_id[ident]["_tag"] in ("input", "textarea", "select"):
            assert f'<label for="{ident}"' in html, f"{path} has no label"
    # help text from the schema's descriptions
    assert "The municipality&#39;s case number." in html
    assert page.by_id["hearings-0-date"]["type"] == "date"
    assert page.by_id["hearings-0-body"]["_tag"] == "select"
    assert page.by_id["amendment-summary"]["_tag"] == "textarea"
    assert page.by_id["amendment-print_full_text"]["type"] == "checkbox"
    assert page.by_id["council_size"]["type"] == "number"
    assert "add-hearings" in page.by_id and "remove-hearings-0" in page.by_id
    assert page.by_id["case-form"]["method"] == "post"
    assert page.by_id["save"]["_tag"] == "button"
    assert html.count("<h1>") == 1
    # the packs to choose the jurisdiction from
    assert page.by_id["jurisdiction"]["list"] == "jurisdiction-known"
    assert '<option value="us-ri-newport">' in html


def test_a_field_added_to_the_schema_appears_with_no_template_change(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pydantic import Field, create_model

    from generator.models.case import Hearing

    grown = create_model(
        "GrownHearing",
        __base__=Hearing,
        livestream_room=(str | None, Field(None, description="Where the overflow room is.")),
    )
    fields = dict(Case.model_fields)
    grown_case = create_model(
        "GrownCase",
        __base__=Case,
        hearings=(list[grown], fields["hearings"]),  # type: ignore[valid-type]
    )
    monkeypatch.setattr("generator.web.case_form._schema", lambda: grown_case)
    page = read(client.get(f"/cases/{NEWPORT}/edit").text)
    assert page.by_id["hearings-0-livestream_room"]["_tag"] == "input"
    assert page.text_by_id["help-hearings-0-livestream_room"] == "Where the overflow room is."


@pytest.mark.parametrize("case", SAMPLES, ids=lambda p: p.stem)
def test_a_sample_opened_and_saved_unchanged_is_byte_identical(
    client: TestClient, folder: Path, case: Path
) -> None:
    url = f"/cases/{case.stem}/edit"
    answer = submit(client, url, client.get(url).text)
    assert answer.status_code == 303, read(answer.text).text_by_id.get("form-errors")
    assert (folder / "cases" / case.name).read_bytes() == case.read_bytes()


def test_the_form_gives_back_the_data_it_shows_for_every_sample() -> None:
    # No file is touched above when nothing changed; here the answers themselves must be the case.
    for case in SAMPLES:
        data = load(case).data
        nodes = schema_form.build(Case, data)
        html = _render_fields(nodes)
        answers = schema_form.Answers(read(html).fields)
        assert schema_form.case_data(Case, answers, data) == data, case.name
        # typed into an empty form: the same case (a value equal to its default is left out)
        typed = schema_form.case_data(Case, answers, {})
        assert Case.model_validate(typed) == Case.model_validate(data), case.name


def _render_fields(nodes: list[schema_form.Node]) -> str:
    from generator.web.render import _ENV

    macros = _ENV.get_template("case_form_fields.html").make_module({"suggest": {}, "focus": ""})
    inner = "".join(str(macros.field(node)) for node in nodes)  # type: ignore[attr-defined]
    return f'<form id="case-form">{inner}</form>'


def test_a_bad_date_shows_the_clis_message_at_the_field_and_fixing_it_saves(
    client: TestClient, folder: Path
) -> None:
    url = f"/cases/{NEWPORT}/edit"
    path = folder / "cases" / f"{NEWPORT}.yaml"
    original = path.read_text()
    answer = submit(client, url, client.get(url).text, {"hearings.0.date": "2027-02-30"})
    assert answer.status_code == 422
    page = read(answer.text)
    message = page.text_by_id["err-hearings-0-date"]
    # the CLI's message, file:line:column: field: message
    line = next(i for i, t in enumerate(original.splitlines(), 1) if "date:" in t)
    column = original.splitlines()[line - 1].index("2027") + 1
    assert message == (
        f"cases/{NEWPORT}.yaml:{line}:{column}: hearings[0].date: 2027-02-30 is not a real"
        " calendar date"
    )
    # the very message `notices build` gives for that file, run in the working folder
    date_line = original.splitlines()[line - 1]
    path.write_text(original.replace(date_line, date_line[: column - 1] + "2027-02-30", 1))
    cli = subprocess.run(
        [sys.executable, "-m", "generator", "build", f"cases/{NEWPORT}.yaml", "--out", "out"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert cli.returncode == 2 and message in cli.stderr, cli.stderr
    path.write_text(original)
    assert page.by_id["hearings-0-date"]["aria-invalid"] == "true"
    assert page.by_id["hearings-0-date"]["aria-describedby"] == "err-hearings-0-date"
    assert page.by_id["hearings-0-date"]["value"] == "2027-02-30"  # the clerk's typing is kept
    assert "not a real calendar date" in page.text_by_id["form-errors"]
    assert page.by_id["form-errors"]["role"] == "alert"
    assert path.read_text() == original  # nothing saved while the case does not load

    fixed = submit(client, url, answer.text, {"hearings.0.date": "2027-03-09"})
    assert fixed.status_code == 303
    assert fixed.headers["location"].endswith(f"/cases/{NEWPORT}/edit?saved=1")
    text = path.read_text()
    assert load_case(path).case.hearings[0].date.isoformat() == "2027-03-09"
    # only the date's line changed: comments and every other line are as they were
    changed = [
        (a, b) for a, b in zip(original.splitlines(), text.splitlines(), strict=True) if a != b
    ]
    assert len(changed) == 1 and "2027-03-09" in changed[0][1]
    assert len(text.splitlines()) == len(original.splitlines())
    saved = client.get(fixed.headers["location"]).text
    page = read(saved)
    assert "Saved" in page.text_by_id["saved"]
    assert page.by_id["build"]["_tag"] == "button"


def test_saving_keeps_the_comments(client: TestClient, folder: Path) -> None:
    path = folder / "cases" / f"{NEWPORT}.yaml"
    comments = [line.strip() for line in path.read_text().splitlines() if "#" in line]
    assert comments
    url = f"/cases/{NEWPORT}/edit"
    answer = submit(client, url, client.get(url).text, {"municipality": "City of Newport, R.I."})
    assert answer.status_code == 303
    text = path.read_text()
    assert "municipality: City of Newport, R.I." in text
    for comment in comments:
        assert comment in [line.strip() for line in text.splitlines()], comment


def test_add_and_remove_a_hearing(client: TestClient, folder: Path) -> None:
    url = f"/cases/{NEWPORT}/edit"
    path = folder / "cases" / f"{NEWPORT}.yaml"
    before = load_case(path).case
    added = submit(client, url, client.get(url).text, action="add:hearings")
    assert added.status_code == 200
    page = read(added.text)
    n = len(before.hearings)
    assert f"hearings-{n}-date" in page.by_id and f"remove-hearings-{n}" in page.by_id
    assert "autofocus" in page.by_id[f"hearings-{n}-body"]  # the keyboard goes on there
    assert load_case(path).case == before  # adding is not saving
    first = before.hearings[0]
    fill = {
        f"hearings.{n}.body": "council",
        f"hearings.{n}.body_name": "City Council",
        f"hearings.{n}.date": "2027-12-01",
        f"hearings.{n}.start_time": "19:00",
        f"hearings.{n}.place": "Council Chambers",
        f"hearings.{n}.address.lines": "43 Broadway",
        f"hearings.{n}.address.city": first.address.city,
        f"hearings.{n}.address.state": first.address.state,
        f"hearings.{n}.address.zip": first.address.zip,
    }
    saved = submit(client, url, added.text, fill)
    assert saved.status_code == 303, read(saved.text).text_by_id.get("form-errors")
    after = load_case(path).case
    assert len(after.hearings) == n + 1 and after.hearings[n].address.lines == ["43 Broadway"]
    assert "zip: '02840'" in path.read_text() or 'zip: "02840"' in path.read_text()

    html = client.get(url).text
    removed = submit(client, url, html, action=f"remove:hearings.{n}")
    assert f"hearings-{n}-date" not in read(removed.text).by_id
    assert "autofocus" in read(removed.text).by_id["add-hearings"]
    assert submit(client, url, removed.text).status_code == 303
    assert load_case(path).case == before


HOSTILE = {
    "municipality": "<script>alert(1)</script>",
    "case_number": "{{ 7*7 }}",
    "applicant.name": "!!python/object/apply:os.system ['echo pwned']",
    "contact.phone": "!!binary aGk=",
}


def test_hostile_values_are_stored_as_plain_text_and_escaped(
    client: TestClient, folder: Path
) -> None:
    url = f"/cases/{NEWPORT}/edit"
    path = folder / "cases" / f"{NEWPORT}.yaml"
    answer = submit(client, url, client.get(url).text, HOSTILE)
    assert answer.status_code == 303, read(answer.text).text_by_id.get("form-errors")
    case = load_case(path).case
    assert case.municipality == HOSTILE["municipality"]
    assert case.case_number == "{{ 7*7 }}"
    assert case.applicant.name == HOSTILE["applicant.name"]
    assert case.contact.phone == HOSTILE["contact.phone"]
    html = client.get(url).text
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html
    assert "49" not in read(html).by_id["case_number"]["value"]  # type: ignore[operator]
    assert read(html).by_id["case_number"]["value"] == "{{ 7*7 }}"


def test_a_new_case_is_refused_until_it_loads_then_saved(client: TestClient, folder: Path) -> None:
    source = load(folder / "cases" / f"{NEWPORT}.yaml").data
    empty = client.get("/cases/new")
    assert empty.status_code == 200
    page = read(empty.text)
    assert "hearings-0-date" in page.by_id and "_case_id" in page.by_id
    # a whole case typed in: the sample's answers, under a new id
    nodes = schema_form.build(Case, source)
    answers = read(_render_fields(nodes)).fields
    typed = dict(answers)
    typed["hearings.0.date"] = "16 March 2027"
    bad = submit(client, "/cases/new", empty.text, typed | {"_case_id": "newport-2027-map-09"})
    assert bad.status_code == 422
    page = read(bad.text)
    assert "must be a date written YYYY-MM-DD" in page.text_by_id["err-hearings-0-date"]
    assert "cases/newport-2027-map-09.yaml:" in page.text_by_id["err-hearings-0-date"]
    assert not (folder / "cases" / "newport-2027-map-09.yaml").exists()
    good = submit(
        client, "/cases/new", bad.text, {"hearings.0.date": source["hearings"][0]["date"]}
    )
    assert good.status_code == 303
    saved = folder / "cases" / "newport-2027-map-09.yaml"
    assert load_case(saved).case == load_case(folder / "cases" / f"{NEWPORT}.yaml").case


@pytest.mark.parametrize("case_id", ["../x", "a/b", "..", ".hidden", "x y", "a" * 101, ""])
def test_a_new_case_id_must_be_a_safe_file_name(
    client: TestClient, folder: Path, case_id: str
) -> None:
    before = sorted(p.name for p in folder.rglob("*"))
    empty = client.get("/cases/new").text
    answer = submit(client, "/cases/new", empty, {"_case_id": case_id})
    assert answer.status_code == 422
    page = read(answer.text)
    assert "err-_case_id" in page.by_id
    assert page.by_id["_case_id"]["aria-invalid"] == "true"
    assert sorted(p.name for p in folder.rglob("*")) == before


def test_an_existing_case_id_is_refused(client: TestClient, folder: Path) -> None:
    original = (folder / "cases" / f"{NEWPORT}.yaml").read_bytes()
    empty = client.get("/cases/new").text
    answer = submit(client, "/cases/new", empty, {"_case_id": NEWPORT})
    assert answer.status_code == 422
    assert "already exists" in read(answer.text).text_by_id["err-_case_id"]
    assert (folder / "cases" / f"{NEWPORT}.yaml").read_bytes() == original


@pytest.mark.parametrize("case_id", ["..%2F..%2Fetc%2Fpasswd", "%2E%2E", "nope"])
def test_editing_a_case_outside_the_folder_or_unknown_is_not_found(
    client: TestClient, case_id: str
) -> None:
    assert client.get(f"/cases/{case_id}/edit").status_code == 404


def test_a_problem_without_a_field_on_the_form_shows_in_the_summary(
    client: TestClient, folder: Path
) -> None:
    path = folder / "cases" / f"{NEWPORT}.yaml"
    path.write_text(path.read_text() + "surprise: 1\n")
    page = read(client.get(f"/cases/{NEWPORT}/edit").text)
    assert "surprise: unknown field" in page.text_by_id["form-errors"]
    assert "build" not in page.by_id  # a case that does not load is not offered to build


def test_a_form_larger_than_any_case_is_refused_unread(client: TestClient, folder: Path) -> None:
    from generator.web.security import MAX_BODY

    before = (folder / "cases" / f"{NEWPORT}.yaml").read_bytes()
    answer = client.post(
        f"/cases/{NEWPORT}/edit",
        content=b"municipality=" + b"x" * (MAX_BODY + 1),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert answer.status_code == 413
    assert (folder / "cases" / f"{NEWPORT}.yaml").read_bytes() == before


def test_a_yaml_answer_that_is_not_yaml_is_shown_at_its_field(
    client: TestClient, folder: Path
) -> None:
    url = "/cases/az-2027-text-01/edit"
    path = folder / "cases" / "az-2027-text-01.yaml"
    before = path.read_bytes()
    answer = submit(client, url, client.get(url).text, {"options.__more": "a: [unclosed"})
    assert answer.status_code == 422
    assert "YAML syntax error" in read(answer.text).text_by_id["err-options-__more"]
    assert path.read_bytes() == before


def test_a_case_file_that_is_not_yaml_is_shown_and_never_saved_over(
    client: TestClient, folder: Path
) -> None:
    path = folder / "cases" / f"{NEWPORT}.yaml"
    path.write_text("case_number: [unclosed\n# the clerk's notes\n")
    url = f"/cases/{NEWPORT}/edit"
    shown = client.get(url)
    assert "YAML syntax error" in read(shown.text).text_by_id["form-errors"]
    answer = submit(client, url, shown.text, {"case_number": "ZA 2027-01"})
    assert answer.status_code == 422
    assert path.read_text() == "case_number: [unclosed\n# the clerk's notes\n"
