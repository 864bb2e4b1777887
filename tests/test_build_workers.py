"""Documents built in the sign worker are the bytes this process would make, whoever builds them.

`registry.make` lays the signs out in a forked worker, which then takes the other documents set
aside from the front of their list while this process builds the rest and then takes them from
the end; where no worker can run, or the worker fails, every document is built here.
"""

from __future__ import annotations

import threading
from concurrent.futures.process import BrokenProcessPool

import pytest

from generator import processes
from generator.documents import registry
from generator.documents.base import Built
from generator.prepare import Prepared, prepare

from .conftest import CASES


@pytest.fixture(scope="module")
def prepared() -> Prepared:
    return prepare(CASES / "tx-2027-map-01.yaml")  # two hearings' signs, letters, a map


def _files(made: Built) -> list[tuple[str, bytes]]:
    return [(o.path, o.data) for o in made.outputs]


def _alone(prepared: Prepared, monkeypatch: pytest.MonkeyPatch) -> Built:
    with monkeypatch.context() as m:
        m.setattr(processes, "pool", lambda *args, **kwargs: None)
        return registry.make(prepared)


@pytest.mark.skipif(threading.active_count() > 1, reason="a worker is forked only from one thread")
def test_documents_from_the_worker_are_those_made_here(
    prepared: Prepared, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, alone = registry.make(prepared), _alone(prepared, monkeypatch)
    assert _files(made) == _files(alone)
    assert made.findings == alone.findings


def _broken() -> dict[int, Built]:
    raise BrokenProcessPool("the worker died")


@pytest.mark.skipif(threading.active_count() > 1, reason="a worker is forked only from one thread")
def test_what_a_failed_worker_was_to_build_is_built_here(
    prepared: Prepared, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as m:
        m.setattr(registry, "_build_aside", _broken)  # the forked worker inherits the patch
        made = registry.make(prepared)
    assert _files(made) == _files(_alone(prepared, monkeypatch))
    assert any(path.startswith("sign-") for path, _ in _files(made))
