"""Who must be notified: owners from the parcel layer and the other recipients the pack names.

Each rule of kind `recipients` selects a group — owners of the subject parcels, owners of land
within R feet of the perimeter of the subject area, abutting owners (across a street or
railroad where the law says so), owners whose lots a text change makes nonconforming, and the
persons a `named` group takes from the case (councils and agencies a layer found, holders and
registered persons the clerk lists). Letters go to owners, not parcels: one recipient per
normalized owner name and mailing address, listing all of that owner's parcels.

- `model`: the Recipient and RecipientList types, name and address comparison;
- `core`: `collect()`, which runs the rest in order, merges and flags;
- `layer_facts`: the facts the pack has the GIS layers answer;
- `owners`: the owner groups, selected from the parcel layer;
- `listed`: the named groups and an assessor's radius list;
- `writers`: recipients.csv and recipients.geojson.
"""

from generator.recipients.core import bindings, collect
from generator.recipients.model import (
    ADDRESS_COLUMNS,
    Recipient,
    RecipientList,
    normalize_address,
    normalize_name,
)
from generator.recipients.writers import CSV_FIELDS, to_csv, to_geojson

__all__ = [
    "ADDRESS_COLUMNS",
    "CSV_FIELDS",
    "Recipient",
    "RecipientList",
    "bindings",
    "collect",
    "normalize_address",
    "normalize_name",
    "to_csv",
    "to_geojson",
]
