"""The whole packet as one zip, streamed as it is written.

Only the packet's own files go in: the manifest, every document and the lint report it lists,
and the edited copies it records; nothing else the folder may hold (a history folder, a file
dropped there by hand). The zip is the same bytes for the same packet: names sorted, every
entry dated 1980-01-01 with the same permissions, the same compression.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route

from generator.web.workspace import Workspace

CHUNK = 256 * 1024
EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip can hold: no build time leaks in


class _Pipe:
    """A file the zip writes to and the response drains: nothing is held but the last chunk."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.offset = 0

    def write(self, data: bytes) -> int:
        self.parts.append(bytes(data))
        self.offset += len(data)
        return len(data)

    def tell(self) -> int:
        return self.offset

    def flush(self) -> None:
        pass

    def drain(self) -> bytes:
        data, self.parts = b"".join(self.parts), []
        return data


def packet_names(workspace: Workspace, case_id: str) -> list[str]:
    """The names of a built packet's files, from its manifest, sorted (404 if never built)."""
    manifest_path = workspace.packet_file(case_id, "manifest.json")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    names = {"manifest.json"}
    names |= {d["path"] for d in manifest.get("documents", [])}
    names |= {e["path"] for e in manifest.get("edited", [])}
    return sorted(names)


def zip_stream(files: list[tuple[str, Path]]) -> Iterator[bytes]:
    """The zip of `files` (name in the zip, path), yielded a chunk at a time."""
    pipe = _Pipe()
    with zipfile.ZipFile(pipe, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as zf:  # type: ignore[arg-type]
        for name, path in files:
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            info.create_system = 3  # the same bytes on any system that serves it
            with path.open("rb") as src, zf.open(info, "w") as dst:
                while block := src.read(CHUNK):
                    dst.write(block)
                    yield pipe.drain()
        yield pipe.drain()
    yield pipe.drain()


def packet_zip(request: Request) -> StreamingResponse:
    """GET /cases/{case_id}/packet.zip: every file of the packet in one zip."""
    workspace: Workspace = request.app.state.workspace
    case_id = request.path_params["case_id"]
    # A file the manifest lists but the folder lacks is a 404, not a zip silently short of it.
    files = [(n, workspace.packet_file(case_id, n)) for n in packet_names(workspace, case_id)]
    return StreamingResponse(
        zip_stream(files),
        media_type="application/zip",
        headers={"content-disposition": f'attachment; filename="{case_id}-packet.zip"'},
    )


routes = [Route("/cases/{case_id}/packet.zip", packet_zip, name="packet_zip")]
