"""Every pack and sample case states its measuring CRS and that CRS's foot, and pyproj agrees.

Issue 16, item 6: the Arizona pack said its EPSG:2223 was in US survey feet; EPSG:2223
(NAD83 / Arizona Central (ft)) is in international feet. The two feet differ by 2 ppm, harmless
at 300 ft and wrong as a statement. The unit is now data (`measure_unit`), checked here against
pyproj's definition of each CRS, and refused at run time when a pack or case states it wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pyproj import CRS

from generator.errors import UserError
from generator.gis.layers import measuring_crs
from generator.models.base import validate
from generator.models.case import Case
from generator.models.layers import UNIT_NAMES
from generator.models.pack import Pack
from generator.paths import ROOT
from generator.yamlio import load, loads

PACKS = sorted((ROOT / "jurisdictions").rglob("*.yaml"))
SAMPLE_CASES = sorted((ROOT / "cases").glob("*.yaml")) + sorted(
    (ROOT / "tests" / "cases").glob("*.yaml")
)


def _axis_units(name: str) -> set[str]:
    return {axis.unit_name for axis in CRS.from_user_input(name).axis_info}


def _stated(data: dict) -> tuple[str | None, str | None]:
    return data.get("measure_crs"), data.get("measure_unit")


@pytest.mark.parametrize("path", PACKS, ids=lambda p: p.stem)
def test_each_packs_stated_unit_is_its_crs_unit(path: Path) -> None:
    data = load(path).data
    if not isinstance(data, dict) or "measure_crs" not in data:
        return  # a municipal pack measures in its state's CRS
    crs, unit = _stated(data)
    assert unit in UNIT_NAMES, f"{path.name}: state `measure_unit` beside `measure_crs`"
    assert _axis_units(str(crs)) == {UNIT_NAMES[unit]}, path.name


def test_every_state_pack_states_a_crs_and_arizonas_is_in_international_feet() -> None:
    stated = {p.stem: _stated(load(p).data) for p in PACKS if p.parent.name == "jurisdictions"}
    assert stated["us-az"] == ("EPSG:2223", "foot")
    for pack in ("us-nc", "us-ok", "us-ri"):
        assert stated[pack][1] == "us_survey_foot", pack


@pytest.mark.parametrize("path", SAMPLE_CASES, ids=lambda p: p.stem)
def test_each_sample_cases_measuring_crs_is_in_the_foot_it_states(path: Path) -> None:
    gis = (load(path).data or {}).get("gis") or {}
    crs, unit = _stated(gis)
    if crs is None:
        return  # measured in the pack's CRS, checked above
    assert unit is not None, f"{path.name}: state `gis.measure_unit` beside `gis.measure_crs`"
    assert _axis_units(str(crs)) == {UNIT_NAMES[unit]}, path.name
    measuring_crs(str(crs), "gis.measure_crs", unit)


def test_a_unit_the_crs_contradicts_is_refused_at_run_time() -> None:
    with pytest.raises(UserError, match="EPSG:2223 is in foot, not US survey foot"):
        measuring_crs("EPSG:2223", "pack us-az: measure_crs", "us_survey_foot")
    with pytest.raises(UserError, match="EPSG:3438 is in us survey foot, not foot"):
        measuring_crs("EPSG:3438", "gis.measure_crs", "foot")
    assert measuring_crs("EPSG:3438", "gis.measure_crs", "us_survey_foot").to_epsg() == 3438


def test_a_pack_states_its_crs_and_unit_together() -> None:
    text = (ROOT / "jurisdictions" / "us-az.yaml").read_text()
    without_unit = "\n".join(
        line for line in text.splitlines() if not line.startswith("measure_unit:")
    )
    with pytest.raises(UserError, match="`measure_crs` and `measure_unit` are stated together"):
        validate(Pack, loads(without_unit, "us-az.yaml"))
    wrong = text.replace("measure_unit: foot ", "measure_unit: meter")
    with pytest.raises(UserError, match="measure_unit"):
        validate(Pack, loads(wrong, "us-az.yaml"))


def test_a_case_states_a_unit_only_with_its_crs() -> None:
    text = (ROOT / "cases" / "az-2027-map-01.yaml").read_text()
    text = "\n".join(line for line in text.splitlines() if not line.startswith("  measure_crs:"))
    with pytest.raises(UserError, match="`measure_unit` states the unit of `measure_crs`"):
        validate(Case, loads(text, "az-2027-map-01.yaml"))
