"""The sample towns written as GeoPackages, one a town, from Python or the command line."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.sample_town.layers import build_town
from tools.sample_town.town import DEFAULT_OUT, load_spec


def write_town(layers: dict[str, Any], path: Path) -> None:
    """Write a town's layers to one GeoPackage, replacing the file at once (readers never see half)."""
    partial = path.with_name(f".{path.stem}.{os.getpid()}.gpkg")
    partial.unlink(missing_ok=True)
    for name, frame in layers.items():
        frame.to_file(partial, layer=name, driver="GPKG", engine="pyogrio")
    partial.replace(path)


def generate(out_dir: Path, *, echo: Callable[[str], None] | None = None) -> dict[str, Path]:
    """Write every sample town to `out_dir` as `<town-id>.gpkg`; return town id → path."""
    spec = load_spec()
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for town_id in spec["towns"]:
        start = time.perf_counter()
        layers = build_town(town_id, spec)
        path = out_dir / f"{town_id}.gpkg"
        write_town(layers, path)
        paths[town_id] = path
        if echo:
            counts = ", ".join(f"{name} {len(frame)}" for name, frame in layers.items())
            echo(f"{path}: {counts} ({time.perf_counter() - start:.1f} s)")
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command line: `python -m tools.sample_town [OUT_DIR]`."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or (args and args[0].startswith("-")):
        print("usage: python -m tools.sample_town [OUT_DIR]", file=sys.stderr)
        return 2
    generate(Path(args[0]) if args else DEFAULT_OUT, echo=print)
    return 0
