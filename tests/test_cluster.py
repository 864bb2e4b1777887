"""Many-case work (generator/batch.py): the local pool and a Dask cluster give the same results."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.errors import UserError

from .conftest import CASES, ROOT, notices

LINT = ROOT / "tests" / "lint"
RI = ["--jurisdiction", "us-ri-east-providence", "--kind", "newspaper_notice"]


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_corpus_lint_writes_a_line_per_file_and_a_summary(tmp_path: Path) -> None:
    """Each path is its own unit: a missing one is a line with its problem, not a stop (exit 2)."""
    for name in ("ep-reworded.txt", "ep-missing-clause.txt"):
        shutil.copy(LINT / name, tmp_path / name)
    out = tmp_path / "results.jsonl"
    files = [str(tmp_path / n) for n in ("ep-reworded.txt", "ep-missing-clause.txt", "gone.txt")]
    done = notices("lint", *files, *RI, "--results", str(out))
    assert done.returncode == 2, done.stderr
    lines = _lines(out)
    assert [Path(line["path"]).name for line in lines] == [
        "ep-reworded.txt",
        "ep-missing-clause.txt",
        "gone.txt",
    ]
    assert lines[2] == {"path": files[2], "problem": "no such file or folder"}
    assert (lines[0]["errors"], lines[1]["errors"]) == (0, 1)
    assert [f["code"] for f in lines[1]["findings"] if f["severity"] == "error"] == ["NL001"]
    assert lines[1]["clause_rules"]["failed"] == 1
    assert "2 documents linted: 1 with errors" in done.stdout
    assert "not linted: " in done.stdout and "NL001    error" in done.stdout
    # Without the missing file: exit 1 for the error finding; JSON lines on stdout with --format json.
    again = tmp_path / "again.jsonl"
    done = notices("lint", *files[:2], *RI, "--format", "json", "--results", str(again))
    assert done.returncode == 1
    assert [json.loads(x) for x in done.stdout.splitlines()] == lines[:2] == _lines(again)


def test_without_cluster_dask_is_not_imported(tmp_path: Path) -> None:
    """The default is the local pool, with nothing to start and Dask never imported."""
    shutil.copy(LINT / "ep-reworded.txt", tmp_path / "a.txt")
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from generator.cli import app\n"
        f"r = CliRunner().invoke(app, ['lint', {str(tmp_path / 'a.txt')!r}, *{RI!r},"
        f" '--results', {str(tmp_path / 'r.jsonl')!r}])\n"
        "assert r.exit_code == 0, r.output\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


@pytest.mark.slow
def test_a_dask_cluster_builds_and_lints_as_the_local_pool_does(tmp_path: Path) -> None:
    """Two cases built and their packets linted, locally and on a LocalCluster of two workers."""
    from distributed import LocalCluster

    cases = [str(CASES / "ep-2027-za-03.yaml"), str(CASES / "az-2027-text-01.yaml")]
    ids = [Path(c).stem for c in cases]

    def both(where: Path, *cluster: str) -> tuple[subprocess.CompletedProcess[str], ...]:
        built = notices("build", *cases, "--out", str(where), "--format", "json", *cluster)
        packets = [str(where / i) for i in ids]
        linted = notices("lint", *packets, "--results", str(where / "lint.jsonl"), *cluster)
        return built, linted

    local = both(tmp_path / "local")
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = both(tmp_path / "dask", "--cluster", cluster.scheduler_address)
    for here, there in zip(local, remote, strict=True):
        assert here.returncode == there.returncode, there.stderr[-3000:]
    assert local[0].returncode in (0, 1)
    assert json.loads(local[0].stdout) == json.loads(remote[0].stdout)
    for i in ids:
        here = (tmp_path / "local" / i / "manifest.json").read_bytes()
        assert here == (tmp_path / "dask" / i / "manifest.json").read_bytes()
    here, there = (
        _lines(tmp_path / "local" / "lint.jsonl"),
        _lines(tmp_path / "dask" / "lint.jsonl"),
    )
    strip = (tmp_path / "local").as_posix(), (tmp_path / "dask").as_posix()
    assert [json.loads(json.dumps(x).replace(*strip)) for x in here] == there
    assert local[1].stdout == remote[1].stdout


def test_an_unreachable_cluster_is_a_usage_error(tmp_path: Path) -> None:
    """No scheduler at the address: exit 2 naming it, before any work."""
    pytest.importorskip("distributed")
    shutil.copy(LINT / "ep-reworded.txt", tmp_path / "a.txt")
    done = notices(
        "lint",
        str(tmp_path / "a.txt"),
        *RI,
        "--cluster",
        "tcp://127.0.0.1:9",
        env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"},
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in done.stderr


def _where(item: str, *, capture: bool) -> tuple[str, str, str | None, bool]:
    return item, str(Path.cwd()), os.environ.get("NOTICES_JURISDICTIONS"), capture


def test_a_task_runs_in_the_commands_folder_with_its_variables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a worker runs: the command's folder and NOTICES_* variables, then its own again."""
    from generator import batch

    packs = tmp_path / "packs"
    packs.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NOTICES_JURISDICTIONS", str(packs))
    task = batch._Task.of(_where)
    elsewhere = tmp_path / "worker"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("NOTICES_JURISDICTIONS")
    assert task(["a", "b"]) == [(x, str(tmp_path), str(packs), True) for x in "ab"]
    assert Path.cwd() == elsewhere and "NOTICES_JURISDICTIONS" not in os.environ
    gone = batch._Task(_where, str(tmp_path / "not-here"), (), task.version)
    with pytest.raises(UserError, match="does not see the folder"):
        gone(["a"])
    with pytest.raises(UserError, match="install the same version on every worker"):
        batch._Task(_where, str(tmp_path), (), "0.0.0-other")(["a"])


def test_items_go_out_in_a_few_chunks_a_worker_in_order() -> None:
    from generator import batch

    assert batch._chunks(list(range(5)), 2) == [[0], [1], [2], [3], [4]]
    chunks = batch._chunks(list(range(2000)), 2)
    assert len(chunks) == 2 * batch.TASKS_PER_THREAD and [x for c in chunks for x in c] == list(
        range(2000)
    )
    assert batch._chunks([], 2) == []
