"""How work over many cases or files is run: here, in a pool of local processes, or on a cluster.

`notices build CASES...` and a corpus `notices lint` hand every case or file to `run`, which
yields the job's results in the order of the items, wherever the work ran:

- without a cluster, one item runs in this process (its output goes straight to the terminal)
  and several run in the local process pool (generator/processes.py), nothing to start;
- with `cluster=ADDRESS`, each item is a task on that Dask distributed scheduler. Dask is
  imported only then (`pip install 'zoning-notices[cluster]'`).

Items go out in chunks, a few tasks per worker thread (see `_chunks`). A job is a picklable
callable `job(item, *, capture: bool)`: `capture=True` where it runs away
from the terminal, so that what it prints comes back with its result and is shown in order.
Items and outputs are named by path on storage every worker sees; a task runs in the folder
the command was started in and with its NOTICES_* variables, so relative paths and data
folders mean the same on a worker as here; a worker of another version of the product refuses.
"""

from __future__ import annotations

import functools
import os
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator import __version__
from generator.errors import UserError
from generator.processes import cpus, pool


def run(job: Callable[..., Any], items: list[Any], *, cluster: str | None = None) -> Iterator[Any]:
    """Yield `job`'s result for each of `items`, in order; on a Dask cluster if `cluster` is given.

    Raises `UserError` when the cluster cannot be used (Dask missing, scheduler unreachable, a
    worker that does not see the folder the command runs in).
    """
    if cluster is not None:
        yield from _on_cluster(job, items, cluster)
        return
    workers = pool(min(cpus(), len(items))) if sys.platform != "win32" else None
    if workers is None:
        yield from (job(item, capture=False) for item in items)
        return
    # Forked workers share the imports already made; each prints into a buffer shown in order.
    with workers:
        yield from workers.map(functools.partial(job, capture=True), items)


def _on_cluster(job: Callable[..., Any], items: list[Any], address: str) -> Iterator[Any]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UserError(
            "--cluster needs Dask: pip install 'zoning-notices[cluster]' (here and on every worker)"
        ) from None
    try:
        # How long to wait for the scheduler: Dask's setting (distributed.comm.timeouts.connect).
        client = Client(address, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UserError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        chunks = _chunks(items, _threads(client))
        # pure=False: the same case built twice is two builds (its inputs may have changed).
        futures = client.map(_Task.of(job), chunks, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        waiting: dict[int, list[Any]] = {}  # chunks come back as they finish; shown in order
        shown = 0
        try:
            for future, results in as_completed(futures, loop=client.loop, with_results=True):
                waiting[index[future.key]] = results
                futures[index[future.key]] = None  # released on the cluster once here
                while shown in waiting:
                    yield from waiting.pop(shown)
                    shown += 1
        finally:
            client.cancel([f for f in futures if f is not None])


# Tasks per worker thread: enough that a slow item does not leave a worker idle at the end,
# few enough that a short item (a one-page notice: ~20 ms) does not pay a task's overhead
# (~10 ms of the scheduler's, the worker's and this command's time) alone.
TASKS_PER_THREAD = 8


def _threads(client: Any) -> int:
    """The worker threads of the cluster (at least one: tasks wait for a worker to join)."""
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(w.get("nthreads", 1) for w in workers.values()))


def _chunks(items: list[Any], threads: int) -> list[list[Any]]:
    """`items` in order, in at most `TASKS_PER_THREAD` chunks a thread."""
    size = -(-len(items) // (threads * TASKS_PER_THREAD)) or 1
    return [items[i : i + size] for i in range(0, len(items), size)]


# A worker process runs its tasks one at a time: a task redirects this process's output into
# its buffer, runs in the command's folder and with its NOTICES_* variables (the data folders
# and templates it names), none of which threads could share.
_ONE_AT_A_TIME = threading.Lock()
_OURS = "NOTICES_"


@dataclass(frozen=True)
class _Task:
    """A job as a cluster task: run as the command would run it here, its output captured."""

    job: Callable[..., Any]
    cwd: str
    env: tuple[tuple[str, str], ...]  # the command's NOTICES_* environment variables
    version: str

    @classmethod
    def of(cls, job: Callable[..., Any]) -> _Task:
        """The task of `job`, with this command's folder, variables and version."""
        env = tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith(_OURS)))
        return cls(job, str(Path.cwd()), env, __version__)

    def __call__(self, chunk: list[Any]) -> list[Any]:
        """Run the job on each item of `chunk` on this worker, in order."""
        host = socket.gethostname()
        if self.version != __version__:
            raise UserError(
                f"the Dask worker on {host} runs zoning-notices {__version__}, this command"
                f" {self.version}: install the same version on every worker"
            )
        with _ONE_AT_A_TIME:
            here, saved = Path.cwd(), {k: v for k, v in os.environ.items() if k.startswith(_OURS)}
            try:
                os.chdir(self.cwd)
            except OSError:
                raise UserError(
                    f"the Dask worker on {host} does not see the folder {self.cwd}: run the"
                    " command, and the workers, on storage every worker sees"
                ) from None
            _set_ours(dict(self.env))
            try:
                return [self.job(item, capture=True) for item in chunk]
            finally:
                _set_ours(saved)
                os.chdir(here)


def _set_ours(env: dict[str, str]) -> None:
    """Make this process's NOTICES_* variables exactly `env`."""
    for key in [k for k in os.environ if k.startswith(_OURS) and k not in env]:
        del os.environ[key]
    os.environ.update(env)
