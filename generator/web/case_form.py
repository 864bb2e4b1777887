"""The case form: a new case, or a case file edited, checked as `notices build` checks it.

The form is generated from the case schema (`generator.web.form`). What the clerk sends is
checked by the command line's own loader on the YAML that would be written, so the messages are
the CLI's (`cases/x.yaml:12:11: hearings[0].date: ...`), shown at their field and in a summary.
Only a case that loads is saved: an invalid one stays in the form, as typed, until it does (a
case file that does not load would stop `notices build` and the cases list alike).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import NoMatchFound, Route

from generator.errors import Problem, UserError, display_path
from generator.paths import SAFE_NAME_RULE, newspapers, safe_name
from generator.web import security
from generator.web.render import page
from generator.web.workspace import NotFoundError, Workspace
from generator.yamlio import load

if TYPE_CHECKING:
    from pydantic import BaseModel

    from generator.web import form as schema_form

# The schema, the loader and the form are imported by the handlers that use them: the server
# starts in well under a second without them.

CASE_ID = "_case_id"  # the new case's file name: not a field of the case itself


async def case_new(request: Request) -> Response:
    """GET, POST /cases/new: an empty form; saved as a new case file once it loads."""
    from generator.web import form as schema_form

    workspace: Workspace = request.app.state.workspace
    if request.method == "GET":
        return _form_page(request, None, {"hearings": [{}]}, [])
    answers = schema_form.answers_of(await _read_form(request))
    case_id = answers.get(CASE_ID).strip()
    data = schema_form.case_data(_schema(), answers, {})
    if edited := _add_or_remove(answers, data):
        return _form_page(request, None, edited, [], typed_id=case_id, answers=answers)
    try:
        path = workspace.case_path(case_id)
    except NotFoundError:
        path = None
    if path is None or not safe_name(case_id):
        why = f"the case id is the case file's name and must be {SAFE_NAME_RULE}"
        return _form_page(request, None, data, [], typed_id=case_id, id_error=why)
    if path.exists():
        why = (
            f"a case {case_id!r} already exists: open it from the cases list, or choose another id"
        )
        return _form_page(request, None, data, [], typed_id=case_id, id_error=why)
    text = schema_form.updated_text("", {}, data)
    problems = _answer_problems(path, answers) + _check(path, text)
    if problems:
        return _form_page(request, None, data, problems, typed_id=case_id, status=422)
    try:
        schema_form.write_atomic(path, text, exclusive=True)
    except FileExistsError:
        why = f"a case {case_id!r} was saved meanwhile: choose another id"
        return _form_page(request, None, data, [], typed_id=case_id, id_error=why)
    return _saved(request, case_id)


async def case_edit(request: Request) -> Response:
    """GET, POST /cases/{case_id}/edit: the case file in the form; saved when it loads."""
    from generator.web import form as schema_form

    workspace: Workspace = request.app.state.workspace
    case_id = request.path_params["case_id"]
    try:
        path = workspace.case_path(case_id)
    except NotFoundError:
        raise HTTPException(404) from None
    if not path.is_file():
        raise HTTPException(404)
    try:
        before = load(path).data
        unreadable: list[Problem] = []
    except UserError as exc:  # not YAML at all: shown, and nothing is saved over it
        before, unreadable = {}, exc.problems
    if request.method == "GET":
        problems = unreadable or _check(path, None)
        saved = request.query_params.get("saved") == "1" and not problems
        return _form_page(request, case_id, before, problems, saved=saved, loads=not problems)
    answers = schema_form.answers_of(await _read_form(request))
    data = schema_form.case_data(_schema(), answers, before)
    if edited := _add_or_remove(answers, data):
        return _form_page(request, case_id, edited, [], answers=answers)
    if unreadable:
        return _form_page(request, case_id, data, unreadable, status=422)
    text = _text(path)
    new_text = schema_form.updated_text(text, before, data)
    problems = _answer_problems(path, answers) + _check(path, new_text)
    if problems:
        return _form_page(request, case_id, data, problems, status=422)
    if new_text != text:
        schema_form.write_atomic(path, new_text)
    return _saved(request, case_id)


def _schema() -> type[BaseModel]:
    """The case schema the form is generated from."""
    from generator.models.case import Case

    return Case


async def _read_form(request: Request) -> FormData:
    """The posted form (the security guard has refused one larger than any case's, unread)."""
    return await request.form(max_files=0, max_fields=security.MAX_FORM_FIELDS)


def _add_or_remove(answers: schema_form.Answers, data: dict[str, Any]) -> dict[str, Any] | None:
    """The data after an "Add ..." or "Remove" button; None for "Save"."""
    from generator.web import form as schema_form

    action = answers.get("_action")
    verb, _, where = action.partition(":")
    if verb == "add" and where:
        return schema_form.add_item(data, where)
    if verb == "remove" and where:
        return schema_form.remove_item(data, where)
    return None


def _focus(answers: schema_form.Answers, nodes: list[schema_form.Node]) -> str:
    """The input a keyboard user goes on with after "Add ..." (its first field) or "Remove"."""
    verb, _, where = answers.get("_action").partition(":")
    if verb == "remove":
        where = where.rpartition(".")[0]
    found = next((n for top in nodes for n in top.walk() if n.path == where), None)
    if found is None:
        return ""
    if verb == "add" and found.children:
        item = found.children[-1]
        first = next((n for n in item.walk() if n.kind not in ("group", "list")), None)
        return first.id if first else ""
    return f"add-{found.id}"


def _text(path: Path) -> str:
    """The case file's text (read after `load` has checked its size and kind)."""
    return path.read_bytes().decode("utf-8-sig")


def _check(path: Path, text: str | None) -> list[Problem]:
    """What `notices build` would say of the case file `path` holding `text`.

    The file is named as `notices build` run in the working folder names it (`cases/x.yaml`).
    """
    from generator.inputs import load_case

    try:
        load_case(path, text)
    except UserError as exc:
        root = path.parent.parent
        return [_named_from(root, problem) for problem in exc.problems]
    return []


def _named_from(root: Path, problem: Problem) -> Problem:
    """`problem` with its file named relative to the working folder `root`, where it lies inside."""
    try:
        name = Path(problem.file).resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return problem
    return replace(problem, file=str(name))


def _answer_problems(path: Path, answers: schema_form.Answers) -> list[Problem]:
    """Answers that could not be read at all (YAML text of a field that is not YAML)."""
    return [
        _named_from(path.parent.parent, Problem(display_path(path), None, None, field, message))
        for field, message in answers.problems
    ]


def _saved(request: Request, case_id: str) -> Response:
    url = request.url_for("case_edit", case_id=case_id).include_query_params(saved="1")
    return RedirectResponse(str(url), status_code=303)


def _build_url(request: Request, case_id: str) -> str:
    """Where the Build button posts (the build's own page module may not be mounted)."""
    try:
        return str(request.url_for("case_build", case_id=case_id))
    except NoMatchFound:
        return f"/cases/{case_id}/build"


def _form_page(
    request: Request,
    case_id: str | None,
    data: dict[str, Any],
    problems: list[Problem],
    *,
    typed_id: str = "",
    status: int = 200,
    saved: bool = False,
    loads: bool = False,
    id_error: str | None = None,
    answers: schema_form.Answers | None = None,
) -> Response:
    """The form holding `data`, each problem at its field and all of them in the summary."""
    from generator.web import form as schema_form

    nodes = schema_form.build(_schema(), data)
    placed = schema_form.place_errors(nodes, problems)
    if id_error:
        placed.insert(0, (Problem("", None, None, "", id_error), "_case_id"))
    new = case_id is None
    return page(
        request,
        "case_form.html",
        status_code=422 if id_error else status,
        title="New case" if new else f"Case {case_id}",
        new=new,
        case_id=case_id or "",
        typed_id=typed_id,
        id_error=id_error,
        action=str(
            request.url_for("case_new")
            if new
            else request.url_for("case_edit", case_id=case_id or "")
        ),
        build_url=_build_url(request, case_id) if case_id else "",
        nodes=nodes,
        problems=placed,
        saved=saved,
        loads=loads,
        id_rule=SAFE_NAME_RULE,
        suggest=_suggestions(),
        focus=_focus(answers, nodes) if answers else "",
    )


def _suggestions() -> dict[str, list[str]]:
    """Values the clerk picks from rather than remembers: the packs and newspaper profiles."""
    from generator.rules.loader import available

    return {
        "jurisdiction": available(),
        "newspaper.profile": sorted(p.stem for p in newspapers().glob("*.yaml")),
    }


routes = [
    Route("/cases/new", case_new, methods=["GET", "POST"], name="case_new"),
    Route("/cases/{case_id}/edit", case_edit, methods=["GET", "POST"], name="case_edit"),
]
