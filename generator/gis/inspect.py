"""What a county's parcel layer holds, and which field-map preset fits it.

A clerk pointing a case at a county's layer must learn the layer's field names and what they
hold before writing `gis.parcels.fields`. `inspect_layer` reads the field list and the first
`SAMPLE_ROWS` features (never the geometry), counts the non-empty values of each field, keeps
three sample values, and matches the field names against every preset in
`data/parcel_schemas/` (case-insensitively: exports change the case of names).
"""

from __future__ import annotations

import textwrap
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import UserError
from generator.models.layers import (
    ADDRESS_SHAPES,
    LAYERS,
    FieldMap,
    address_shape,
    columns_of,
    preset,
    preset_names,
)

# Enough rows to see what a field holds; a county layer of a million parcels is not read whole.
SAMPLE_ROWS = 10_000
SAMPLES = 3
SHOWN_CHARS = 40


@dataclass(frozen=True)
class FieldSummary:
    """One field of a layer: its type, how many read values are non-empty, sample values."""

    name: str
    type: str
    non_empty: int
    samples: tuple[str, ...]


@dataclass(frozen=True)
class Fit:
    """How one preset matches a layer: the fields it found (the layer's spelling) and lacks."""

    preset: str
    fields: FieldMap
    missing_required: tuple[str, ...]
    missing_optional: tuple[str, ...]

    @property
    def fits(self) -> bool:
        """Every field the preset needs to name owners and their addresses is in the layer."""
        return not self.missing_required


@dataclass(frozen=True)
class Inspection:
    """What `inspect_layer` found."""

    path: Path
    layer: str | None
    layers: tuple[str, ...]
    features: int
    read: int
    fields: tuple[FieldSummary, ...]
    fits: tuple[Fit, ...]  # best first

    @property
    def best(self) -> Fit | None:
        """The preset that fits with the most of its fields present, if one fits."""
        return next((f for f in self.fits if f.fits), None)


def inspect_layer(path: Path, layer: str | None = None) -> Inspection:
    """Summarise the fields of `layer` in `path` and match them against the presets.

    Raises `UserError` (exit 2) when the file cannot be read or has no such layer.
    """
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    try:
        layers, frame, features, kinds = _read(path, layer)
    except UserError:
        raise
    except Exception as exc:  # GDAL and Arrow raise many kinds; all mean "unreadable"
        raise UserError(f"{path}: cannot read it as a GIS layer: {exc}") from None
    chosen = layer or (layers[0] if layers else None)
    summaries = tuple(
        _summary(name, kinds.get(name, "text"), list(frame[name])) for name in frame.columns
    )
    names = [s.name for s in summaries]
    fits = sorted(
        (_fit(p, names) for p in preset_names()),
        key=lambda f: (len(f.missing_required), len(f.missing_optional), f.preset),
    )
    return Inspection(path, chosen, tuple(layers), features, len(frame), summaries, tuple(fits))


def _read(path: Path, layer: str | None) -> tuple[list[str], Any, int, dict[str, str]]:
    """The file's layer names, the first rows of the layer (no geometry), its size, its types."""
    if path.suffix.lower() in (".parquet", ".geoparquet"):
        import pyarrow.parquet as pq

        if layer:
            raise UserError(f"{path}: a GeoParquet file has one layer; leave out --layer")
        pf = pq.ParquetFile(path)
        columns = [c for c in pf.schema_arrow.names if c != "geometry"]
        batch = next(pf.iter_batches(batch_size=SAMPLE_ROWS, columns=columns), None)
        frame = (
            batch.to_pandas() if batch is not None else pf.schema_arrow.empty_table().to_pandas()
        )
        kinds = {f.name: _kind(str(f.type)) for f in pf.schema_arrow if f.name in columns}
        return [], frame[columns], pf.metadata.num_rows, kinds
    import pyogrio

    layers = [str(row[0]) for row in pyogrio.list_layers(path)]
    if layer is not None and layer not in layers:
        raise UserError(f"{path}: no layer {layer!r} (layers: {', '.join(layers)})")
    info = pyogrio.read_info(path, layer=layer)
    frame = pyogrio.read_dataframe(path, layer=layer, read_geometry=False, max_features=SAMPLE_ROWS)
    kinds = {
        str(name): _kind(str(dtype))
        for name, dtype in zip(info["fields"], info["dtypes"], strict=True)
    }
    return layers, frame[list(info["fields"])], int(info["features"]), kinds


def _kind(dtype: str) -> str:
    dtype = dtype.lower()
    for needle, kind in (("int", "integer"), ("float", "real"), ("double", "real"),
                         ("bool", "boolean"), ("datetime", "date-time"), ("timestamp", "date-time"),
                         ("date", "date")):  # fmt: skip
        if needle in dtype:
            return kind
    return "text"


def _empty(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and value != value:  # NaN
        return True
    try:
        import pandas as pd

        if value is pd.NA or value is pd.NaT:
            return True
    except ImportError:  # pragma: no cover - pandas comes with geopandas
        pass
    return isinstance(value, str) and not value.strip()


def _summary(name: str, kind: str, values: list[Any]) -> FieldSummary:
    present = [v for v in values if not _empty(v)]
    samples: list[str] = []
    for value in present:
        if kind == "integer" and isinstance(value, float) and value.is_integer():
            value = int(value)  # pandas reads an integer field with a null as floats
        text = shown(value)
        if text not in samples:
            samples.append(text)
        if len(samples) == SAMPLES:
            break
    return FieldSummary(name, kind, len(present), tuple(samples))


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """A value as it can be printed safely: quoted, control characters escaped, long ones cut."""
    text = str(value)
    cut = len(text) > limit
    text = text[:limit]
    out = []
    for ch in text:
        if ch in '\\"':
            out.append("\\" + ch)
        elif ch in "\t\n\r":
            out.append({"\t": "\\t", "\n": "\\n", "\r": "\\r"}[ch])
        elif unicodedata.category(ch)[0] in ("C", "Z") and ch != " ":
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"' + ("…" if cut else "")


def _fit(name: str, layer_fields: list[str]) -> Fit:
    """Which of the preset's fields the layer has (matched regardless of case)."""
    by_lower = {f.lower(): f for f in layer_fields}
    required = set(LAYERS["parcels"][0])
    shape = address_shape(preset(name).fields)
    needed = required | set(ADDRESS_SHAPES.get(shape or "", ()))
    found: FieldMap = {}
    missing_required, missing_optional = [], []
    for ours, theirs in preset(name).fields.items():
        actual = [by_lower.get(c.lower()) for c in columns_of(theirs)]
        if all(actual):
            found[ours] = [a for a in actual if a] if isinstance(theirs, list) else str(actual[0])
        else:
            lacking = [c for c, a in zip(columns_of(theirs), actual, strict=True) if not a]
            (missing_required if ours in needed else missing_optional).extend(lacking)
    return Fit(name, found, tuple(missing_required), tuple(missing_optional))


def paste_block(ins: Inspection) -> str | None:
    """The `gis.parcels:` YAML to paste into a case for the best preset, or None if none fits."""
    best = ins.best
    if best is None:
        return None
    lines = ["gis:", "  parcels:", f"    path: {ins.path.name}"]
    if ins.layer and len(ins.layers) > 1:
        lines.append(f"    layer: {_yaml_scalar(ins.layer)}")
    if best.fields == preset(best.preset).fields:
        lines.append(f"    schema: {best.preset}")
    else:
        # The layer spells names its own way or lacks an optional field: the whole map, spelled out.
        lines.append(f"    fields:  # preset {best.preset}, as this layer spells its fields")
        for ours, theirs in best.fields.items():
            value = (
                "[" + ", ".join(_yaml_scalar(t) for t in theirs) + "]"
                if isinstance(theirs, list)
                else _yaml_scalar(theirs)
            )
            lines.append(f"      {ours}: {value}")
    lines.append("    as_of: YYYY-MM-DD  # the date the county's data is current to")
    return "\n".join(lines) + "\n"


def _yaml_scalar(text: str) -> str:
    plain = text and all(ch.isalnum() or ch in "_-." for ch in text) and not text[0].isdigit()
    return text if plain else '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def report(ins: Inspection) -> str:
    """The text `notices recipients --inspect` prints."""
    out = [f"{ins.path}" + (f", layer {ins.layer}" if ins.layer else "")]
    if len(ins.layers) > 1:
        out.append(f"  layers in the file: {', '.join(ins.layers)} (choose one with --layer)")
    scope = (
        f"all {ins.features}"
        if ins.read >= ins.features
        else f"the first {ins.read} of {ins.features}"
    )
    out.append(f"  {len(ins.fields)} fields; non-empty values counted in {scope} features")
    width = max((len(f.name) for f in ins.fields), default=5)
    for f in ins.fields:
        samples = ", ".join(f.samples) if f.samples else "(all empty)"
        out.append(f"  {f.name:<{width}}  {f.type:<9} {f.non_empty:>7} non-empty  {samples}")
    best = ins.best
    if best is not None:
        out.append(f"Preset that fits: {best.preset}")
        out.extend(
            textwrap.wrap(
                preset(best.preset).description, 96, initial_indent="  ", subsequent_indent="  "
            )
        )
        if best.missing_optional:
            out.append(
                f"  (the layer lacks its optional field(s) {', '.join(best.missing_optional)})"
            )
        out.append("Paste into the case:")
        out.append(paste_block(ins) or "")
    else:
        out.append("No preset fits: map the fields in the case (`gis.parcels.fields`). Closest:")
        for fit in ins.fits:
            out.append(f"  {fit.preset}: lacks {', '.join(fit.missing_required)}")
    return "\n".join(out).rstrip("\n") + "\n"
