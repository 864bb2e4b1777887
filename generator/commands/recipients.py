"""`notices recipients`: who must be notified of a case, and the map; or a parcel layer inspected."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from generator.cli import OUT, _run
from generator.errors import EXIT_OK


@click.command()
@click.argument("case", required=False, type=click.Path(path_type=Path, dir_okay=False))
@OUT
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--inspect",
    "inspect_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Instead: list the fields of this parcel layer and the preset that fits it.",
)
@click.option("--layer", "layer_name", help="With --inspect: the layer of a multi-layer file.")
def recipients(
    case: Path | None,
    out_root: Path,
    fmt: str,
    inspect_path: Path | None,
    layer_name: str | None,
) -> None:
    """Write who must be notified of CASE, and the map: OUT/<case-id>/recipients.csv, .geojson, map.svg/.png.

    With --inspect LAYER, list the layer's fields with sample values and the field-map preset
    (`gis.parcels.schema`) that fits it, and print the `gis.parcels:` block to paste.
    """
    if inspect_path is not None:
        sys.exit(_run(False, None, lambda: _inspect(inspect_path, layer_name, fmt)))
    if case is None:
        raise click.UsageError("give a CASE, or --inspect LAYER")
    if layer_name is not None:
        raise click.UsageError("--layer goes with --inspect")

    def body() -> int:
        from generator.packet import write_recipients

        result = write_recipients(case, out_root)
        if fmt == "json":
            click.echo(json.dumps(result.manifest, indent=2, ensure_ascii=False))
            return EXIT_OK
        prov = result.manifest["recipients"]
        click.echo(f"{result.folder}: {result.manifest['count']} recipients")
        for rule in prov.get("rules", []):
            dist = f" within {rule['distance_ft']:g} ft" if rule.get("distance_ft") else ""
            click.echo(
                f"  {rule['rule']} ({rule['citation']}): {rule['group']}{dist}: {rule['parcels']} parcels"
            )
        for layer in prov.get("layers", []):
            as_of = layer["as_of"] or "not given"
            # A file is marked by its hash; a database table by its rows and change marker.
            marker = (
                f"sha256 {layer['sha256'][:12]}"
                if "sha256" in layer
                else f"table {layer['table']}, {layer['rows']:,} rows, change marker {layer['change_marker']}"
            )
            click.echo(f"  read {layer['path']} ({layer['crs']}; {marker}; as of {as_of})")
        for f in result.manifest["findings"]:
            click.echo(f"  {f['severity']} {f['code']}: {f['message']}")
        for name in result.kept:
            click.echo(f"  warning: an edited file was kept as {name}")
        return EXIT_OK

    sys.exit(_run(False, out_root / case.stem, body))


def _inspect(path: Path, layer: str | None, fmt: str) -> int:
    """`notices recipients --inspect`: a layer's fields and the preset that fits it."""
    import dataclasses

    from generator.gis.inspect import inspect_layer, paste_block, report

    ins = inspect_layer(path, layer)
    if fmt == "json":
        data = dataclasses.asdict(ins)
        data["path"] = str(ins.path)
        data["best"] = ins.best.preset if ins.best else None
        data["paste"] = paste_block(ins)
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(report(ins), nl=False)
    return EXIT_OK
