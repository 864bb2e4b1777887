"""sha256 of files and bytes: how manifests name inputs, outputs, packs and templates."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def sha256_bytes(data: bytes) -> str:
    """The sha256 of `data`, in hex."""
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    """A file's sha256, read in blocks (a county layer can be hundreds of megabytes)."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def sha256_files(paths: Iterable[Path]) -> str:
    """One sha256 over several files' bytes, in the order given (a pack of several files)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()
