"""What a map is drawn from: its layers in feet of a projected CRS, made valid before use."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry


@dataclass(frozen=True)
class MapLayers:
    """The layers of one map, in feet of a projected CRS (x east, y north)."""

    subject: BaseGeometry
    change_label: str
    parcels: Sequence[BaseGeometry] = ()
    notified: Sequence[BaseGeometry] = ()
    buffer: BaseGeometry | None = None
    buffer_label: str = ""
    districts: Sequence[tuple[BaseGeometry, str]] = ()
    streets: Sequence[tuple[BaseGeometry, str]] = ()
    boundaries: Sequence[tuple[BaseGeometry, str]] = ()
    water: Sequence[tuple[BaseGeometry, str]] = ()
    extent: tuple[float, float, float, float] | None = None
    # Legend wording in place of the notice map's, for a map drawn for another purpose (a
    # protest map's marked parcels are signers, not notified owners).
    legend: Mapping[str, str] | None = None


def _valid(layers: MapLayers) -> MapLayers:
    """The layers with invalid geometries (self-touching rings, as county data has) made valid."""

    def fix(geoms: Sequence[BaseGeometry]) -> list[BaseGeometry]:
        arr = np.array(list(geoms), dtype=object)
        if not len(arr):
            return []
        bad = ~shapely.is_valid(arr)
        arr[bad] = shapely.make_valid(arr[bad])
        return list(arr)

    def fix_named(pairs: Sequence[tuple[BaseGeometry, str]]) -> list[tuple[BaseGeometry, str]]:
        return list(zip(fix([g for g, _ in pairs]), [n for _, n in pairs], strict=True))

    return replace(
        layers,
        subject=fix([layers.subject])[0],
        parcels=fix(layers.parcels),
        notified=fix(layers.notified),
        buffer=None if layers.buffer is None else fix([layers.buffer])[0],
        districts=fix_named(layers.districts),
        streets=fix_named(layers.streets),
        boundaries=fix_named(layers.boundaries),
        water=fix_named(layers.water),
    )
