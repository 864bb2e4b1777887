"""Reading county layers: only the features near the subject, renamed to our fields, in feet.

A county parcel layer can hold millions of features; a case needs the few hundred around the
subject. Subjects are found by id, then only the bounding box around them (plus the largest
distance a rule measures) is read through the file's spatial index, and reprojected into the
measuring CRS. GeoPackage, Shapefile, GeoJSON, GeoParquet and PostGIS tables
(generator/gis/postgis.py) are read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import UserError
from generator.gis.cache import gpkg_fids, parquet_box, sha256_of_layer
from generator.gis.postgis import PostgisTable, TableSource
from generator.inputs import CaseFile
from generator.models.case import GisLayer, is_database
from generator.models.layers import LAYERS, UNIT_NAMES, columns_of, lines_of


@dataclass(frozen=True)
class Source:
    """Where a layer came from, for the record: file, hash, as-of date, CRS, layer name."""

    name: str
    path: Path
    layer: str | None
    crs: str
    sha256: str
    as_of: str | None

    def as_json(self) -> dict[str, Any]:
        """The provenance block of the manifest."""
        return {
            "layer": self.name,
            "path": str(self.path),
            "layer_name": self.layer,
            "crs": self.crs,
            "sha256": self.sha256,
            "as_of": self.as_of,
        }


def measuring_crs(name: str, where: str, unit: str | None = None) -> Any:
    """The projected CRS in feet that distances are measured in; anything else is refused.

    `unit` is the foot the pack or case states (`measure_unit`); a statement the CRS's own
    definition contradicts is refused too, so a wrong statement cannot stand in the record.
    """
    from pyproj import CRS  # heavy: imported only for GIS work

    crs = CRS.from_user_input(name)
    units = {axis.unit_name.lower() for axis in crs.axis_info}
    if not crs.is_projected or not any("foot" in u or "feet" in u for u in units):
        raise UserError(
            f"{where}: {name} is not a projected coordinate system in feet; distances in the law are in feet"
        )
    if unit is not None and units != {UNIT_NAMES[unit].lower()}:
        raise UserError(
            f"{where}: {name} is in {', '.join(sorted(units))}, not {UNIT_NAMES[unit]} as `measure_unit` says"
        )
    return crs


class LayerReader:
    """One layer of a case, read in pieces near the subject."""

    def __init__(self, cf: CaseFile, name: str, spec: GisLayer, crs: Any) -> None:
        self.cf, self.name, self.spec, self.crs = cf, name, spec, crs
        # The store: a PostGIS table (`postgresql://...`) or a file; `path.name` names either.
        self.table: PostgisTable | None = None
        if is_database(spec.path):
            self.table = PostgisTable(cf, ("gis", name, "path"), spec.path)
            self.path: Any = self.table
        else:
            self.path = cf.resolve(spec.path)
            if not self.path.is_file():
                raise UserError(cf.problem(("gis", name, "path"), f"no such file: {self.path}"))
        required, optional = LAYERS[name]
        self.fields = {k: v for k, v in spec.fields.items() if k in (*required, *optional)}
        self.source_crs = self._source_crs()

    def _source_crs(self) -> Any:
        """The layer's CRS (pyproj), checking the file opens and holds the mapped fields."""
        import json

        import pyogrio
        from pyproj import CRS

        where = ("gis", self.name, "path")
        try:
            if self.table:
                found, names = self.table.crs, self.table.columns
            elif self._parquet:
                import pyarrow.parquet as pq

                schema = pq.read_schema(self.path)
                geo = json.loads((schema.metadata or {}).get(b"geo", b"{}"))
                column = geo.get("columns", {}).get(geo.get("primary_column", "geometry"), {})
                found = (
                    CRS.from_user_input(column["crs"])
                    if column.get("crs")
                    else (CRS.from_user_input("OGC:CRS84") if geo else None)
                )
                names = list(schema.names)
            else:
                info = pyogrio.read_info(self.path, layer=self.spec.layer)
                found = CRS.from_user_input(info["crs"]) if info["crs"] else None
                names = list(info["fields"])
        except Exception as exc:  # GDAL and Arrow raise many kinds; all mean "unreadable"
            raise UserError(
                self.cf.problem(where, f"cannot read {self.path.name}: {exc}")
            ) from None
        missing = [
            (k, field)
            for k, theirs in self.fields.items()
            for field in columns_of(theirs)
            if field not in names
        ]
        if missing:
            have = ", ".join(names)
            raise UserError(
                [
                    self.cf.problem(
                        ("gis", self.name, "fields", k),
                        f"no field {field!r} in {self.path.name} (fields: {have})",
                    )
                    for k, field in missing
                ]
            )
        if self.spec.crs:
            return CRS.from_user_input(self.spec.crs)
        if found is None:
            raise UserError(
                self.cf.problem(
                    ("gis", self.name, "crs"),
                    "the layer states no coordinate system: give `crs`, such as EPSG:3438",
                )
            )
        return found

    @property
    def _parquet(self) -> bool:
        return not self.table and self.path.suffix.lower() in (".parquet", ".geoparquet")

    @property
    def source(self) -> Source | TableSource:
        """Provenance of this layer."""
        as_of = self.spec.as_of.isoformat() if self.spec.as_of else None
        crs = self.source_crs.to_string()
        if self.table:
            return self.table.source(self.name, crs, as_of)
        digest = sha256_of_layer(self.path)
        return Source(self.name, self.path, self.spec.layer, crs, digest, as_of)

    def read(
        self,
        *,
        bbox: tuple[float, float, float, float] | None = None,
        where: dict[str, list[str]] | None = None,
    ) -> Any:
        """Features in `bbox` (measuring CRS) or matching `where` (our field → values), in feet."""
        where = {**self.spec.select, **(where or {})}
        frame = self._read_raw(self._to_file(bbox) if bbox else None, where)
        return self._ours(frame)

    def _read_raw(
        self, file_bbox: tuple[float, float, float, float] | None, where: dict[str, list[str]]
    ) -> Any:
        """The layer's own columns of the features in `file_bbox` (its CRS) matching `where`."""
        import geopandas as gpd

        columns = list(dict.fromkeys(c for v in self.fields.values() for c in columns_of(v)))
        if self.table:
            wanted = {self.fields[k]: v for k, v in where.items()}
            return self.table.read(columns, file_bbox, wanted, self.source_crs)
        if self._parquet:
            filters = [(self.fields[k], "in", v) for k, v in where.items()] or None
            # Parcels by id: only the row groups around them (the cache knows their boxes).
            field = self.fields.get("parcel_id")
            if not file_bbox and list(where) == ["parcel_id"] and isinstance(field, str):
                file_bbox = parquet_box(self.path, field, where["parcel_id"])
            wanted = [*columns, "geometry"]
            try:
                return gpd.read_parquet(self.path, columns=wanted, bbox=file_bbox, filters=filters)
            except ValueError:  # no bbox covering column: read, then keep what lies in the box
                frame = gpd.read_parquet(self.path, columns=wanted, filters=filters)
                if file_bbox:
                    frame = frame.cx[file_bbox[0] : file_bbox[2], file_bbox[1] : file_bbox[3]]
                return frame
        fids = self._by_id(file_bbox, where)
        if fids:
            return gpd.read_file(
                self.path, layer=self.spec.layer, fids=fids, columns=columns, engine="pyogrio"
            )
        sql = " AND ".join(
            f"{_ident(str(self.fields[k]))} IN ({', '.join(_quote(x) for x in values)})"
            for k, values in where.items()
        )
        return gpd.read_file(
            self.path,
            layer=self.spec.layer,
            bbox=file_bbox,
            where=sql or None,
            columns=columns,
            engine="pyogrio",
        )

    def _by_id(
        self, file_bbox: tuple[float, float, float, float] | None, where: dict[str, list[str]]
    ) -> list[int] | None:
        """The feature ids of parcels asked for by id alone in a GeoPackage, from the id cache.

        Without an index on the id column, the layer's own reader scans every row (~0.2 s for
        1,000,000 parcels); the cache (generator/gis/cache.py) answers from an index of its own.
        None: read as before (another store, another question, or a column the cache cannot serve).
        """
        field = self.fields.get("parcel_id")
        if file_bbox or list(where) != ["parcel_id"] or not isinstance(field, str):
            return None
        if self.path.suffix.lower() != ".gpkg" or not self.spec.layer or not where["parcel_id"]:
            return None
        return gpkg_fids(self.path, self.spec.layer, field, where["parcel_id"])

    def _ours(self, frame: Any) -> Any:
        """A frame of the layer's columns as ours: our field names, in the measuring CRS.

        A field mapped to a list of the layer's fields (`mail_lines`) becomes one column whose
        values are lists of the non-empty, trimmed texts of those fields, in order.
        """
        import pandas as pd

        if frame.crs is None:
            frame = frame.set_crs(self.source_crs)
        if not frame.crs.is_exact_same(self.crs):  # a county layer is often in it already
            frame = frame.to_crs(self.crs)
        # A free-form block becomes one column of lists, built before renaming frees the names.
        blocks = {
            ours: [lines_of(list(row)) for row in zip(*(frame[f] for f in theirs), strict=True)]
            for ours, theirs in self.fields.items()
            if isinstance(theirs, list)
        }
        single = {ours: field for ours, field in self.fields.items() if isinstance(field, str)}
        renamed = {field: ours for ours, field in single.items()}
        frame = frame.rename(columns=renamed)
        for ours in single:  # one layer field may serve two of ours
            if ours not in frame.columns:
                frame[ours] = frame[renamed.get(single[ours], ours)]
        for ours, lines in blocks.items():
            frame[ours] = pd.Series(lines, index=frame.index, dtype=object)
        return frame

    def _to_file(
        self, bbox: tuple[float, float, float, float]
    ) -> tuple[float, float, float, float]:
        from pyproj import Transformer

        if self.source_crs.is_exact_same(self.crs):
            return bbox
        transformer = Transformer.from_crs(self.crs, self.source_crs, always_xy=True)
        return transformer.transform_bounds(*bbox, densify_pts=21)


def _ident(name: str) -> str:
    """A field name as an SQL identifier: a name from the case is data, quoted whatever it holds."""
    return '"' + name.replace('"', '""') + '"'


def _quote(value: str) -> str:
    return "'" + str(value).replace("'", "''") + "'"
