"""Sample towns: realistic, deterministic GIS layers for the sample cases, one GeoPackage a town.

The sample cases name their subject parcels by id; the recipients and map capabilities need the
land around them. This package lays out one small town per jurisdiction from
`data/sample_towns.yaml` and writes `data/gis/<town-id>.gpkg` with the layers `parcels`,
`zoning`, `streets`, `municipal_boundaries`, `water_sources` and, for Saguaro Wells,
`airport_zones`:

- `ri-east-providence` (EPSG:3438): Rumford, around Pawtucket Avenue and Greenwood Avenue, with
  the Pawtucket line along Armistice Boulevard and Turner Reservoir more than 2,000 ft from the
  subject; two lots begin exactly 200.0 ft and 200.01 ft from the subject (edge tests).
- `ri-newport` (EPSG:3438): One Mile Corner, Broadway and Bliss Road, the LB district south of
  Bliss Road, wide R-20 lots to the south, Middletown beyond Eustis Avenue, Easton Pond.
- `ok-sample-city` (EPSG:2267): platted 50-ft lots with alleys (Block 12, Westside Addition),
  the BNSF railroad, the Town of Prairie View across Rockwell Avenue.
- `az-saguaro-wells` (written in EPSG:4326; measure in EPSG:2223): west of Luke AFB, farms east
  of the Beardsley Canal (a canal parcel), subdivisions and the town center to the west,
  unincorporated Maricopa County south of the town limits, and Luke AFB's vicinity, high noise
  and accident potential zones.
- `nc-shelby` (EPSG:2264): East Marion Street backing onto a 110-ft railroad corridor, East
  Dixon Boulevard, Earl Road with a 104-ft right-of-way, the Town of Patterson Springs south.

Blocks lie between street rights-of-way (gaps with no parcel) and are cut into one or two tiers
of lots; the subjects are placed where the cases say, with the cases' ids, districts, areas and
owners. Owners and mailing addresses come from a random generator seeded with the town id, so
every run gives the same features and attributes: about a tenth of owners own several parcels
(their names and addresses sometimes written with other spacing or case), about a quarter of
parcels mail elsewhere than the site, and about one in twelve out of state.

Run `python -m tools.sample_town [OUT_DIR]` (default `data/gis`).

The steps, one module each: `town` (the spec and the records a layout fills in), `streets`
(rights-of-way and the blocks between them), `lots` (blocks cut into lots around the cases'
subjects), `assessor` (districts, site addresses, parcel numbers), `owners` (names and mailing
addresses), `layers` (the town as GeoDataFrames) and `geopackage` (the files, the command line).
"""

from __future__ import annotations

from tools.sample_town.geopackage import generate, main, write_town
from tools.sample_town.layers import LAYER_FIELDS, build_town
from tools.sample_town.town import load_spec

__all__ = ["LAYER_FIELDS", "build_town", "generate", "load_spec", "main", "write_town"]
