"""The cores this process may use, and the one way the product starts worker processes.

Builds of several cases, the linter's documents and the pages of a long PDF are independent
work; they run in a pool of processes. Forked workers share what is already imported and
inherit objects that need not pickle, but fork is only safe while this process runs a single
thread; otherwise a pool spawns fresh interpreters, where the caller allows it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_all_start_methods, get_context
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
) -> ProcessPoolExecutor | None:
    """A pool of `workers` processes, or None when the work is better done in this process.

    None when there are fewer than two workers, or when forking is unsafe and the caller's work
    cannot be spawned (`spawn=False`: it relies on state the workers inherit).
    """
    if workers < 2:
        return None
    if "fork" in get_all_start_methods() and threading.active_count() == 1:
        method = "fork"
    elif spawn:
        method = "spawn"
    else:
        return None
    return ProcessPoolExecutor(
        workers, mp_context=get_context(method), initializer=initializer, initargs=initargs
    )
