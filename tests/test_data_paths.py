"""Issue 18: newspaper profiles, parcel schema presets and packs outside the project.

Each folder is named by its environment variable, else by `[paths]` of `notices.toml` in the
working folder, else it is the project's; a folder named but missing is exit 2 with the name of
what named it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator import paths
from generator.errors import UserError
from generator.inputs import load_case
from tests.conftest import CASES, ROOT, write_case


def _profile(folder: Path) -> None:
    folder.mkdir(parents=True)
    text = (ROOT / "data" / "newspapers" / "newport-daily-news.yaml").read_text()
    text = text.replace("id: newport-daily-news", "id: clerk-gazette")
    text = text.replace("name: The Newport Daily News", "name: The Clerk's Own Gazette")
    (folder / "clerk-gazette.yaml").write_text(text)


def _preset(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "ep-assessor.yaml").write_text(
        "description: East Providence assessor's parcel layer, as the sample town writes it.\n"
        "fields: {parcel_id: PIN, owner_name: OWNER1, owner_name2: OWNER2,"
        " mail_address1: MAIL_ADDR1, mail_address2: MAIL_ADDR2, mail_city: MAIL_CITY,"
        " mail_state: MAIL_STATE, mail_zip: MAIL_ZIP, site_address: SITE_ADDR}\n"
        "published_by: [{name: City of East Providence (test), url: https://example.org}]\n"
    )


def _newport_with_own_paper(tmp_path: Path) -> Path:
    text = (CASES / "newport-2027-map-01.yaml").read_text()
    return write_case(
        tmp_path, text.replace("profile: newport-daily-news", "profile: clerk-gazette")
    )


def _ep_with_preset(tmp_path: Path) -> Path:
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    text, n = re.subn(
        r"(  parcels: \{path: [^,]+, layer: parcels, as_of: 2026-11-02, )fields: \{[^}]*\}",
        r"\1schema: ep-assessor, fields: {municipality: TOWN, zoning: ZONING,"
        r" lot_area_sqft: LOT_SQFT, frontage_ft: FRONT_FT}",
        text,
    )
    assert n == 1
    # The clerk's folder replaces the project's profiles: this case is about the parcel preset.
    text = text.replace("  profile: east-providence-post\n", "")
    return write_case(tmp_path, text, "ep-preset.yaml")


def test_a_profile_and_a_preset_in_folders_the_environment_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _profile(tmp_path / "papers")
    _preset(tmp_path / "presets")
    monkeypatch.setenv("NOTICES_NEWSPAPERS", str(tmp_path / "papers"))
    monkeypatch.setenv("NOTICES_PARCEL_SCHEMAS", str(tmp_path / "presets"))
    cf = load_case(_newport_with_own_paper(tmp_path))
    assert cf.case.newspaper and cf.case.newspaper.name == "The Clerk's Own Gazette"
    parcels = load_case(_ep_with_preset(tmp_path)).case.gis.parcels  # type: ignore[union-attr]
    assert parcels.fields["owner_name"] == "OWNER1" and parcels.fields["zoning"] == "ZONING"
    found = paths.data_paths()
    assert found["newspapers"] == {"path": str(tmp_path / "papers"), "from": "$NOTICES_NEWSPAPERS"}
    assert found["jurisdictions"] == {"path": "jurisdictions", "from": "project"}


def test_the_same_folders_named_by_notices_toml_in_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("NOTICES_NEWSPAPERS", "NOTICES_PARCEL_SCHEMAS", "NOTICES_JURISDICTIONS"):
        monkeypatch.delenv(name, raising=False)
    _profile(tmp_path / "data" / "papers")
    _preset(tmp_path / "presets")
    (tmp_path / "notices.toml").write_text(
        '[paths]\nnewspapers = "data/papers"\nparcel_schemas = "presets"\n'
    )
    case = _newport_with_own_paper(tmp_path)
    preset_case = _ep_with_preset(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert load_case(case).case.newspaper.name == "The Clerk's Own Gazette"  # type: ignore[union-attr]
    assert load_case(preset_case).case.gis.parcels.fields["owner_name"] == "OWNER1"  # type: ignore[union-attr]
    assert paths.data_paths()["parcel_schemas"]["from"] == "notices.toml"
    # The project's own profiles are not searched after the clerk's folder.
    with pytest.raises(
        UserError, match="no newspaper profile 'newport-daily-news'; known: clerk-gazette"
    ):
        load_case(CASES / "newport-2027-map-01.yaml")


def _run(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("NOTICES_")}
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd, capture_output=True, text=True, check=False,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
    )  # fmt: skip


@pytest.mark.parametrize("variable", ["NOTICES_NEWSPAPERS", "NOTICES_JURISDICTIONS"])
def test_a_folder_the_environment_names_that_does_not_exist_is_exit_2(
    tmp_path: Path, variable: str
) -> None:
    case = str(CASES / "newport-2027-map-01.yaml")
    done = _run(ROOT, {variable: str(tmp_path / "nowhere")}, "explain", "--case", case)
    assert done.returncode == 2, done.stderr
    assert f"${variable}: no such folder: {tmp_path / 'nowhere'}" in done.stderr


def test_a_folder_notices_toml_names_that_does_not_exist_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "notices.toml").write_text('[paths]\nparcel_schemas = "gone"\n')
    done = _run(tmp_path, {}, "explain", "--case", str(CASES / "ep-2027-za-03.yaml"))
    assert done.returncode == 2, done.stderr
    assert f"notices.toml: paths.parcel_schemas: no such folder: {tmp_path / 'gone'}" in done.stderr
    (tmp_path / "notices.toml").write_text('[paths]\nnewspaper = "x"\n')
    done = _run(tmp_path, {}, "explain", "us-ri")
    assert done.returncode == 2 and "paths.newspaper: unknown" in done.stderr
