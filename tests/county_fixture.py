"""A county-style parcel GeoPackage with the mailing addresses real assessor layers publish.

Forty-two lots of 120 by 180 ft around a subject in Oro Valley, Arizona, in NAD83 / Arizona
Central (ft) (EPSG:2223), written twice into one GeoPackage:

- `parcels_mail`: Pima County's shape (PARCEL, MAIL1 = owner, MAIL2..MAIL5 = a free-form block
  of lines); see data/parcel_schemas/pima-az.yaml;
- `parcels_split`: the same owners in Regrid's split fields (parcelnumb, owner, careof, mailadd,
  mail_address2, mail_city, mail_state2, mail_zip, mail_country); see regrid.yaml;
- `parcels_zip_number`: the split fields again with `mail_zip` an INTEGER column holding the
  five-digit ZIP, as a spreadsheet round trip leaves it (02108 is 2108; foreign or none: null).

Names are synthetic; the address SHAPES are real ones, each with where it was seen:
- "CITY ST" on one line and a ZIP+4 on the next, a care-of line first, the city written twice
  ("ORO VALLEY AZ ORO VALLEY AZ 85755") — the Pima County export issue 16 reports, and the
  paregion description "MAIL1 through MAIL5 contain the owner name and mailing address"
  (https://gis.pima.gov/data/contents/metadet.cfm?name=paregion);
- PO boxes, rural routes (RR 2 BOX 152), highway contract routes (HC 1 BOX 12), APO/FPO/DPO with
  AA/AE/AP, unit and PSC boxes: USPS Publication 28, sections 2, 225, 23 and 24
  (https://pe.usps.com/text/pub28/welcome.htm);
- foreign addresses with the country last, upper case (Canada "MONTREAL QC  H3A 3S7", Mexico
  with colonia and postal code before the city, the UK with the postcode after the town):
  USPS Publication 28 section 26 and the International Mail Manual;
- a ZIP that lost its leading zero ("2108" for 02108) as a number-typed export leaves it;
- the same owner at two different mailing addresses, two owners at one address, a parcel with
  no mailing address at all, one whose block stops after the street line, stray whitespace.

Every run with the same seed writes the same features. `write_county_fixture(path)` returns
what was written, so a test can compare what is read with what is meant.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

CRS = "EPSG:2223"  # NAD83 / Arizona Central (ft): international feet
ORIGIN = (993_000.0, 517_600.0)  # Oro Valley, AZ (lon -110.967, lat 32.419), in EPSG:2223
LOT = (120.0, 180.0)  # width, depth in feet
COLUMNS, ROWS = 7, 6
SUBJECT = "224170240"  # the middle lot (index 24 of 42)

_FIRST = ["AVERY", "BLAKE", "CORIN", "DANA", "EMERY", "FINLEY", "GRAY", "HOLLIS", "IVY", "JUNE"]
_LAST = ["ALDERWOOD", "BRIARCLIFF", "COPPERFIELD", "DUSTMAN", "EVERLY", "FARNHAM", "GOLDRING",
         "HAYWORTH", "IRONSIDE", "JUNIPERO", "KESTREL", "LARKSPUR", "MESQUITERO", "NORWYN"]  # fmt: skip
_STREETS = ["N ORACLE RD", "W NARANJA DR", "N LA CANADA DR", "W TANGERINE RD",
            "N FIRST AVE", "E LAMBERT LN", "W LINDA VISTA BLVD", "N CALLE BUENA VISTA"]  # fmt: skip


@dataclass(frozen=True)
class Owner:
    """One parcel's owner as the county wrote it: a name and a block, and the same split."""

    parcel: str
    name: str
    block: tuple[str | None, ...]  # MAIL2..MAIL5 as written (None: empty field)
    split: dict[str, str | None]  # Regrid's fields but owner/parcelnumb
    shape: str  # what the record is there to show


@dataclass
class CountyFixture:
    """What `write_county_fixture` wrote."""

    path: Path
    subject: str = SUBJECT
    crs: str = CRS
    mail_layer: str = "parcels_mail"
    split_layer: str = "parcels_split"
    number_zip_layer: str = "parcels_zip_number"
    owners: list[Owner] = field(default_factory=list)

    def by_shape(self, shape: str) -> list[Owner]:
        """The owners written to show `shape`."""
        return [o for o in self.owners if o.shape == shape]


def _split(
    address1: str | None,
    city: str | None,
    state: str | None,
    zip_code: str | None,
    *,
    address2: str | None = None,
    careof: str | None = None,
    country: str | None = None,
) -> dict[str, str | None]:
    return {
        "careof": careof,
        "mailadd": address1,
        "mail_address2": address2,
        "mail_city": city,
        "mail_state2": state,
        "mail_zip": zip_code,
        "mail_country": country,
    }


# (shape, owner name, MAIL2..MAIL5, the same split). Names synthetic, shapes real (see above).
SPECIAL: list[tuple[str, str, tuple[str | None, ...], dict[str, str | None]]] = [
    ("zip+4 on its own line", "QUILLFEATHER ROSALIND M",
     ("1234 W ORACLE RD", "ORO VALLEY AZ", "85755-1234", None),
     _split("1234 W ORACLE RD", "ORO VALLEY", "AZ", "85755-1234")),
    ("city repeated", "THISTLEWOOD OSWIN & MARGO",
     ("10555 N LA CANADA DR", "ORO VALLEY AZ ORO VALLEY AZ 85755", None, None),
     _split("10555 N LA CANADA DR", "ORO VALLEY", "AZ", "85755")),
    ("care-of", "PEMBERLY FAMILY TRUST",
     ("C/O FIRST DESERT FIDUCIARY CO", "PO BOX 3456", "TUCSON AZ", "85722-3456"),
     _split("PO BOX 3456", "TUCSON", "AZ", "85722-3456", careof="FIRST DESERT FIDUCIARY CO")),
    ("attention line", "SAGUARO RETAIL PARTNERS LP",
     ("ATTN: PROPERTY TAX DEPT", "2200 E CAMELBACK RD STE 400", "PHOENIX AZ 85016", None),
     _split("2200 E CAMELBACK RD STE 400", "PHOENIX", "AZ", "85016",
            careof="ATTN: PROPERTY TAX DEPT")),
    ("po box", "WREN HOLLOWAY J", ("PO BOX 68", "CATALINA AZ 85738", None, None),
     _split("PO BOX 68", "CATALINA", "AZ", "85738")),
    ("rural route", "MARLOWE HENRIK", ("RR 2 BOX 152", "HOLLAND IA 50642", None, None),
     _split("RR 2 BOX 152", "HOLLAND", "IA", "50642")),
    ("highway contract route", "OKAFOR-BELL TAMSIN", ("HC 1 BOX 12", "ARIVACA AZ 85601", None, None),
     _split("HC 1 BOX 12", "ARIVACA", "AZ", "85601")),
    ("apo", "FENWICK SGT DORIAN", ("UNIT 2050 BOX 4190", "APO AP 96278-2050", None, None),
     _split("UNIT 2050 BOX 4190", "APO", "AP", "96278-2050")),
    ("fpo", "LINDQVIST PO2 MAREN", ("PSC 473 BOX 12", "FPO AP", "96349", None),
     _split("PSC 473 BOX 12", "FPO", "AP", "96349")),
    ("dpo", "ACHTERBERG CLARA", ("UNIT 8400 BOX 0048", "DPO AE 09498-0048", None, None),
     _split("UNIT 8400 BOX 0048", "DPO", "AE", "09498-0048")),
    ("foreign canada", "BEAUCHEMIN LUC & ELODIE",
     ("1500 RUE UNIVERSITY APT 1201", "MONTREAL QC  H3A 3S7", "CANADA", None),
     _split("1500 RUE UNIVERSITY APT 1201", "MONTREAL", "QC", "H3A 3S7", country="CANADA")),
    ("foreign mexico", "VILLASEÑOR ITZEL",
     ("AV PASEO DE LA REFORMA 505", "COL CUAUHTEMOC", "06500 CIUDAD DE MEXICO CDMX", "MEXICO"),
     _split("AV PASEO DE LA REFORMA 505", "CIUDAD DE MEXICO", "CDMX", "06500",
            address2="COL CUAUHTEMOC", country="MEXICO")),
    ("foreign uk", "ASHCOMBE NIGEL",
     ("FLAT 4", "22 HIGH STREET", "OXFORD OX1 4AH", "UNITED KINGDOM"),
     _split("FLAT 4", "OXFORD", None, "OX1 4AH", address2="22 HIGH STREET",
            country="UNITED KINGDOM")),
    ("zip lost its leading zero", "CABOT-LOWELL PRISCILLA",
     ("45 BEACON ST APT 3", "BOSTON MA", "2108", None),
     _split("45 BEACON ST APT 3", "BOSTON", "MA", "2108")),
    ("same owner, two addresses", "DESERT BLOOM HOLDINGS LLC",
     ("PO BOX 1000", "PHOENIX AZ 85001-1000", None, None),
     _split("PO BOX 1000", "PHOENIX", "AZ", "85001-1000")),
    ("same owner, two addresses", "DESERT BLOOM HOLDINGS LLC",
     ("4400 N SCOTTSDALE RD STE 9", "SCOTTSDALE AZ 85251", None, None),
     _split("4400 N SCOTTSDALE RD STE 9", "SCOTTSDALE", "AZ", "85251")),
    ("two owners, one address", "STRAND ROBERTA",
     ("7000 N ORACLE RD UNIT 12", "TUCSON AZ 85704", None, None),
     _split("7000 N ORACLE RD UNIT 12", "TUCSON", "AZ", "85704")),
    ("two owners, one address", "ESPARZA MATEO",
     ("7000 N ORACLE RD UNIT 12", "TUCSON AZ 85704", None, None),
     _split("7000 N ORACLE RD UNIT 12", "TUCSON", "AZ", "85704")),
    ("no mailing address", "UNKNOWN HEIRS OF TALBOT", (None, None, None, None),
     _split(None, None, None, None)),
    ("block stops after the street", "GRISWALD ANSEL", ("880 W ROLLER COASTER RD", None, None, None),
     _split("880 W ROLLER COASTER RD", None, "AZ", None)),
    ("stray whitespace and case", "MOTT  SYBIL ",
     ("  3300 n  Campbell ave\t", "tucson az", " 85719 ", ""),
     _split("  3300 n  Campbell ave\t", "tucson", "az", " 85719 ")),
    ("space number", "RIDGEWAY CALLUM", ("1302 W MIRACLE MILE SPC 17", "TUCSON AZ 85705", None, None),
     _split("1302 W MIRACLE MILE SPC 17", "TUCSON", "AZ", "85705")),
    ("out of state", "HALVORSEN INGRID", ("500 5TH AVE FL 12", "NEW YORK NY 10110", None, None),
     _split("500 5TH AVE FL 12", "NEW YORK", "NY", "10110")),
]  # fmt: skip


def _ordinary(rng: random.Random) -> tuple[str, tuple[str | None, ...], dict[str, str | None]]:
    """A local owner mailing at a street address in Oro Valley or Tucson, written the usual way."""
    name = f"{rng.choice(_LAST)} {rng.choice(_FIRST)}"
    street = f"{rng.randrange(100, 13000)} {rng.choice(_STREETS)}"
    city, zip5 = rng.choice([("ORO VALLEY", "85737"), ("ORO VALLEY", "85755"), ("TUCSON", "85704")])
    if rng.random() < 0.5:
        block = (street, f"{city} AZ", f"{zip5}-{rng.randrange(1000, 9999)}", None)
        zip_code = block[2]
    else:
        block = (street, f"{city} AZ {zip5}", None, None)
        zip_code = zip5
    return name, block, _split(street, city, "AZ", zip_code)


def write_county_fixture(path: Path, seed: int = 16) -> CountyFixture:
    """Write the fixture GeoPackage to `path` (both layers) and return what it holds."""
    import geopandas as gpd
    from shapely.geometry import box

    rng = random.Random(seed)  # noqa: S311 - fixture data, not secrets
    cells = [(c, r) for r in range(ROWS) for c in range(COLUMNS)]
    specials = list(SPECIAL)
    rng.shuffle(specials)
    # The special shapes on the lots nearest the subject: every one of them gets a letter.
    subject = int(SUBJECT[5:8])
    others = [i for i in range(len(cells)) if i != subject]
    nearest = sorted(others, key=lambda i: _gap(cells[i], cells[subject]))
    special_of = dict(zip(nearest, specials, strict=False))
    fixture = CountyFixture(path)
    geoms, mail_rows, split_rows = [], [], []
    for i, (c, r) in enumerate(cells):
        parcel = f"22417{i:03d}0"
        if parcel == SUBJECT:
            shape, name, block, split = ("subject", "SONORAN VISTA DEVELOPMENT LLC",
                                         ("1 W ORACLE RD", "ORO VALLEY AZ", "85737-0001", None),
                                         _split("1 W ORACLE RD", "ORO VALLEY", "AZ", "85737-0001"))  # fmt: skip
        elif i in special_of:
            shape, name, block, split = special_of[i]
        else:
            shape = "ordinary"
            name, block, split = _ordinary(rng)
        x, y = ORIGIN[0] + c * LOT[0], ORIGIN[1] + r * LOT[1]
        geoms.append(box(x, y, x + LOT[0], y + LOT[1]))
        mail_rows.append({"PARCEL": parcel, "MAIL1": name, **dict(zip(("MAIL2", "MAIL3", "MAIL4", "MAIL5"), block, strict=True))})  # fmt: skip
        split_rows.append({"parcelnumb": parcel, "owner": name, "owner2": None, **split, "address": f"{100 + i} W NARANJA DR"})  # fmt: skip
        fixture.owners.append(Owner(parcel, name, tuple(block), split, shape))
    path.unlink(missing_ok=True)
    gpd.GeoDataFrame(mail_rows, geometry=geoms, crs=CRS).to_file(
        path, layer=fixture.mail_layer, driver="GPKG", engine="pyogrio"
    )
    gpd.GeoDataFrame(split_rows, geometry=geoms, crs=CRS).to_file(
        path, layer=fixture.split_layer, driver="GPKG", engine="pyogrio", append=True
    )
    numbers = [
        {**row, "mail_zip": _zip_number(row["mail_zip"], row["mail_country"])} for row in split_rows
    ]
    frame = gpd.GeoDataFrame(numbers, geometry=geoms, crs=CRS)
    frame["mail_zip"] = frame["mail_zip"].astype("Int64")
    frame.to_file(
        path, layer=fixture.number_zip_layer, driver="GPKG", engine="pyogrio", append=True
    )
    return fixture


def _gap(cell: tuple[int, int], other: tuple[int, int]) -> float:
    """The distance in feet between two lots of the grid (0 for neighbours)."""
    dx = max(abs(cell[0] - other[0]) - 1, 0) * LOT[0]
    dy = max(abs(cell[1] - other[1]) - 1, 0) * LOT[1]
    return (dx * dx + dy * dy) ** 0.5


def _zip_number(zip_code: str | None, country: str | None) -> int | None:
    digits = (zip_code or "").strip()[:5]
    return int(digits) if digits.isdigit() and not country else None
