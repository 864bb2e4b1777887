"""Legal logic lives in the rule packs: no statute citation and no pack id in the package's code.

Every `.py` file under `generator/` is read token by token; comments and docstrings may cite the
law (they explain why), but no other string literal and no identifier may name a statute or a
pack (`jurisdictions/` is read for the pack ids). A citation in a string is law the code knows.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from generator.rules.loader import available

from .conftest import ROOT

PACKAGE = ROOT / "generator"
CITATION = re.compile(
    r"§|\bG\.S\.|\bO\.S\.|\bA\.R\.S\.|\bR\.I\.G\.L\.|\bR\.I\. Gen\. Laws|\b160D-|\b45-24-|\b9-462|\b43-10"
)


def pack_ids() -> list[str]:
    """Every pack id of `jurisdictions/`."""
    return available(ROOT / "jurisdictions")


def _patterns(ids: list[str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """How a pack id shows in a string (`us-ri`) and in an identifier (`us_ri`)."""
    text = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    name = "|".join(re.escape(i.replace("-", "_")) for i in sorted(ids, key=len, reverse=True))
    return (
        re.compile(rf"(?<![\w-])(?:{text})(?![\w])"),
        re.compile(rf"(?<![A-Za-z0-9])(?:{name})(?![A-Za-z0-9])"),
    )


def _docstrings(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where the module, class and function docstrings start and end (line, column)."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                end = (first.end_lineno or first.lineno, first.end_col_offset or 0)
                spans.append(((first.lineno, first.col_offset), end))
    return spans


def violations(source: str, ids: list[str]) -> list[tuple[int, str]]:
    """(line, text) of every string literal or identifier that cites a statute or names a pack."""
    in_string, in_name = _patterns(ids)
    docs = _docstrings(source)
    strings = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1)}
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in strings:
            if any(start <= tok.start and tok.end <= end for start, end in docs):
                continue  # a docstring explains the law; it does not apply it
            if CITATION.search(tok.string) or in_string.search(tok.string):
                found.append((tok.start[0], tok.string))
        elif tok.type == tokenize.NAME and (
            CITATION.search(tok.string) or in_name.search(tok.string)
        ):
            found.append((tok.start[0], tok.string))
    return found


def test_the_package_holds_no_citation_and_no_pack_id() -> None:
    ids = pack_ids()
    assert {"us-ri", "us-ri-east-providence", "us-nc"} <= set(ids)
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for line, text in violations(path.read_text(encoding="utf-8"), ids):
            problems.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert not problems, "law in the code (move it to a pack):\n" + "\n".join(problems)


def test_the_checker_finds_what_is_planted_and_spares_comments_and_docstrings() -> None:
    source = '''"""Module docstring: R.I.G.L. § 45-24-53 may be cited here."""

# G.S. 160D-602(b) in a comment is fine.


class Notice:
    """A class docstring citing A.R.S. § 9-462.04."""

    def send(self) -> str:
        """A function docstring citing 11 O.S. § 43-106."""
        kind = "plain words"
        return f"as G.S. 160D-602(b) requires, {kind}"


HOME = "us-nc"
us_ri_newport = "Newport"
LABEL = "R.I. Gen. Laws"
'''
    found = violations(source, ["us-nc", "us-ri", "us-ri-newport"])
    assert [line for line, _ in found] == [12, 15, 16, 17]
    assert "160D-602(b)" in found[0][1] and found[1][1] == '"us-nc"'
    assert found[2][1] == "us_ri_newport"


def test_a_pack_id_counts_only_as_a_whole_word() -> None:
    source = 'focus_ring = "focus-ring bus-ride"\npack = "us-nc-2"\n'
    assert violations(source, ["us-ri", "us-nc"]) == [(2, '"us-nc-2"')]
