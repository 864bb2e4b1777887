"""The cores this process may use, and the one way the product starts worker processes.

Builds of several cases, the linter's documents and the pages of a long PDF are independent
work; they run in a pool of processes. Forked workers share what is already imported and
inherit objects that need not pickle, but fork is only safe while this process runs a single
thread; otherwise a pool spawns fresh interpreters, where the caller allows it.

A worker dies with the process that started it: killed with `kill -9`, a build leaves no worker
reading documents behind it (Linux: the kernel ends it; elsewhere it watches for its parent).
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import current_process, get_all_start_methods, get_context
from typing import Any

# What a pool raises where worker processes cannot run (a sandbox, no /dev/shm): do it serially.
NO_WORKERS = (BrokenProcessPool, OSError)


def cpus() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def pool(
    workers: int,
    *,
    spawn: bool = False,
    initializer: Callable[..., Any] | None = None,
    initargs: tuple[Any, ...] = (),
    beside: bool = False,
) -> ProcessPoolExecutor | None:
    """A pool of `workers` processes, or None when the work is better done in this process.

    None when there are fewer than two workers (one, where the caller works `beside` it), in a
    daemonic process, or when forking is unsafe and the caller's work cannot be spawned
    (`spawn=False`: it relies on state the workers inherit).
    """
    # A daemonic process (a Dask worker under its nanny) may not start children: its task runs
    # here, and the cluster supplies the parallelism.
    if workers < (1 if beside else 2) or current_process().daemon:
        return None
    if "fork" in get_all_start_methods() and threading.active_count() == 1:
        method = "fork"
    elif spawn:
        method = "spawn"
    else:
        return None
    # The pool starts its workers from this thread (not its manager thread), which the kernel's
    # parent-death signal is bound to.
    return ProcessPoolExecutor(
        workers,
        mp_context=get_context(method),
        initializer=_die_with_parent,
        initargs=(os.getpid(), initializer, initargs),
    )


_PR_SET_PDEATHSIG = 1


def _die_with_parent(
    parent: int, initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]
) -> None:
    """Worker initializer: end this worker when `parent` ends, then run the caller's initializer."""
    # A forked worker shares its parent's objects until it writes to them, and a collection
    # writes to every one it walks: kept out of the collector, they stay shared (~80 MB a
    # worker for the linter's, whose parent has the case's GIS libraries loaded).
    gc.freeze()
    if not _kernel_ends_orphan():
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if initializer is not None:
        initializer(*initargs)


def _kernel_ends_orphan() -> bool:
    """Ask Linux to SIGKILL this process when its parent ends (prctl PR_SET_PDEATHSIG)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    return prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0


def _watch(parent: int) -> None:
    """Elsewhere: a thread that ends the worker once its parent is gone (it is re-parented)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)
