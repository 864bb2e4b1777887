"""The GIS layers a case may name, and the fields we read from each.

A county names its fields its own way; the case (`gis.<layer>.fields`) maps our names to the
layer's. Required fields must be mapped; the rest are read when mapped.
"""

from __future__ import annotations

LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # layer: (required fields, optional fields)
    "parcels": (
        ("parcel_id", "owner_name", "mail_address1", "mail_city", "mail_state", "mail_zip"),
        (
            "owner_name2",
            "mail_address2",
            "site_address",
            "municipality",
            "zoning",
            "lot_area_sqft",
            "frontage_ft",
        ),
    ),
    "zoning": (("district",), ("name",)),
    "streets": (("name",), ("kind",)),  # kind: street | railroad | highway
    "municipal_boundaries": (("name",), ("state", "council_address")),
    "water_sources": (("name",), ("town", "agency", "agency_address", "survey_filed")),
    "military_airport_vicinity": (("name",), ("kind",)),
    "noise_zones": (("name",), ("kind",)),  # kind: high_noise | accident_potential
    # An assessor's certified radius list (CSV or XLSX) where the county has no GIS layer.
    "radius_list": (
        ("parcel_id", "owner_name", "mail_address1", "mail_city", "mail_state", "mail_zip"),
        ("owner_name2", "mail_address2", "site_address", "distance_ft"),
    ),
}
