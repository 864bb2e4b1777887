"""A PDF written as its pages are made, for the thousands of pages of a mail merge.

ReportLab and pikepdf each hold every page of a document as objects until it is saved: for
10,000 letters, hundreds of MB and most of the time. Here each page's objects go to the output
the moment the page is finished; what stays in memory is an offset per object and the glyphs
drawn so far. Shared pages (a letter's typeset body) are copied in once, as Form XObjects, before
the first page; the font — one TrueType face as a CID font (Identity-H), subset to the glyphs
drawn — is written after the last, since only then is it known which glyphs those are.

The same drawing gives the same bytes: objects are numbered in the order they are made, the
file's /ID is the MD5 of everything before it, and the font subset keeps no timestamp.
"""

from __future__ import annotations

import hashlib
import io
import zlib
from pathlib import Path
from typing import Any, BinaryIO

FONT_NAME = b"/F1"  # the only font: every page's resources name it so
OBJECTS_PER_STREAM = 100  # page dictionaries packed (and compressed) together, as PDF 1.5 allows


def number(v: float) -> bytes:
    """A coordinate as the content stream writes it: up to 3 decimals, no exponent."""
    if v == int(v):
        return b"%d" % v
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return (text if text not in ("-0", "") else "0").encode()


class Writer:
    """A PDF 1.7 file written object by object to `out`, with a compressed cross-reference."""

    def __init__(self, out: BinaryIO, reserved: int = 0) -> None:
        """Start the file; object numbers 1..`reserved` are the caller's to `put`."""
        self._out = out
        self._md5 = hashlib.md5()  # noqa: S324 -- the file's /ID, a fingerprint, not a secret
        self._at = 0
        # For each object: (1, offset) written in the file, (2, stream, index) in an object stream.
        self._where: list[tuple[int, int, int]] = [(0, 0, 0)] * reserved
        self._packed: list[tuple[int, bytes]] = []
        self._emit(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")

    def _emit(self, data: bytes) -> None:
        self._out.write(data)
        self._md5.update(data)
        self._at += len(data)

    def reserve(self) -> int:
        """A number for an object written later."""
        self._where.append((0, 0, 0))
        return len(self._where)

    def put(self, n: int, body: bytes) -> None:
        """Object `n` (reserved), its text written now."""
        self._where[n - 1] = (1, self._at, 0)
        self._emit(b"%d 0 obj\n%s\nendobj\n" % (n, body))

    def add(self, body: bytes) -> int:
        """A new object, written now; its number."""
        n = self.reserve()
        self.put(n, body)
        return n

    def add_packed(self, body: bytes) -> int:
        """A new object (no stream) packed with others into a compressed object stream."""
        n = self.reserve()
        self._packed.append((n, body))
        if len(self._packed) >= OBJECTS_PER_STREAM:
            self._flush_packed()
        return n

    def _flush_packed(self) -> None:
        if not self._packed:
            return
        packed, self._packed = self._packed, []
        heads, bodies, at = [], [], 0
        for n, body in packed:
            heads.append(b"%d %d" % (n, at))
            bodies.append(body)
            at += len(body) + 1
        head = b" ".join(heads) + b"\n"
        data = head + b"\n".join(bodies) + b"\n"
        stream = self.add(
            stream_object(data, b"/Type /ObjStm /N %d /First %d" % (len(packed), len(head)))
        )
        for index, (n, _) in enumerate(packed):
            self._where[n - 1] = (2, stream, index)

    def finish(self, root: int) -> None:
        """The cross-reference stream and trailer, naming `root` the catalog."""
        self._flush_packed()
        xref = self.reserve()
        self._where[xref - 1] = (1, self._at, 0)
        rows = b"".join(
            b"\x00\x00\x00\x00\x00\xff\xff"
            if kind == 0
            else bytes([kind]) + a.to_bytes(4, "big") + b.to_bytes(2, "big")
            for kind, a, b in self._where
        )
        ident = self._md5.hexdigest().encode()
        entries = b"/Type /XRef /Size %d /W [1 4 2] /Index [0 %d] /Root %d 0 R /ID [<%s> <%s>]" % (
            xref + 1,
            xref + 1,
            root,
            ident,
            ident,
        )
        free = b"\x00\x00\x00\x00\x00\xff\xff"  # object 0, the head of the free list
        body = stream_object(free + rows, entries)
        self._emit(b"%d 0 obj\n%s\nendobj\nstartxref\n%d\n%%%%EOF\n" % (xref, body, self._at))


def stream_object(data: bytes, entries: bytes = b"", *, flate: bool = True) -> bytes:
    """A stream object's text: `entries` of its dictionary, and `data`, compressed."""
    if flate:
        data = zlib.compress(data)
        entries += b" /Filter /FlateDecode"
    return b"<< %s /Length %d >>\nstream\n%s\nendstream" % (entries.strip(), len(data), data)


def copy_forms(pages: list[list[Any]]) -> tuple[Any, dict[tuple[int, int], int]]:
    """Pages of other PDFs (pikepdf pages, grouped by source) as Form XObjects in one new PDF.

    Returns that PDF (written out by `write_copied`) and each form's object number, keyed by
    (source, page index).
    """
    import pikepdf

    holder = pikepdf.new()
    forms = {
        (s, i): holder.copy_foreign(page.as_form_xobject()).objgen[0]
        for s, source in enumerate(pages)
        for i, page in enumerate(source)
    }
    return holder, forms


def write_copied(writer: Writer, holder: Any) -> tuple[int, int]:
    """Every object `copy_forms` made, under its own number; (catalog, page tree) are free.

    The numbers of the holder's catalog and page tree are returned for the caller's own.
    """
    import pikepdf

    root, tree = holder.Root.objgen[0], holder.Root.Pages.objgen[0]
    for obj in holder.objects:
        n = obj.objgen[0]
        if n in (root, tree):
            continue
        if isinstance(obj, pikepdf.Stream):
            raw = obj.read_raw_bytes()
            entries = pikepdf.Dictionary(obj.stream_dict)
            if pikepdf.Name.Filter not in entries:  # a page made a form: its contents joined
                raw = zlib.compress(raw)
                entries.Filter = pikepdf.Name.FlateDecode
            entries.Length = len(raw)
            writer.put(n, b"%s\nstream\n%s\nendstream" % (entries.unparse(), raw))
        else:
            writer.put(n, obj.unparse(resolved=True))
    return root, tree


class Font:
    """One TrueType face drawn as a CID font: text encoded by glyph id, the glyphs used kept."""

    def __init__(self, face: Any) -> None:
        """`face`: ReportLab's parsed TrueType face (its glyph ids, widths and metrics)."""
        self.face = face
        self.used: dict[int, int] = {}  # glyph id -> the character it was drawn for
        self._hex = _Glyphs(face.charToGlyph, self.used)

    def encode(self, text: str) -> bytes:
        """`text` as a hex string of glyph ids (missing characters as .notdef)."""
        return b"<" + b"".join(map(self._hex.__getitem__, text)) + b">"

    def write(self, writer: Writer, n: int) -> None:
        """The font as object `n`: the Type0 font, its CID font, descriptor, subset and CMap."""
        face = self.face
        used = sorted(self.used)
        name = b"ZNMAIL+" + face.name  # a subset is named with a six-letter tag
        widths = b" ".join(b"%d [%s]" % (g, number(self._width(g))) for g in used)
        descriptor = writer.add(
            b"<< /Type /FontDescriptor /FontName /%s /Flags %d /FontBBox [%s] /ItalicAngle %s"
            b" /Ascent %s /Descent %s /CapHeight %s /StemV %d /FontFile2 %d 0 R >>"
            % (
                name,
                face.flags,
                b" ".join(number(v) for v in face.bbox),
                number(face.italicAngle),
                number(face.ascent),
                number(face.descent),
                number(face.capHeight),
                face.stemV,
                writer.add(self._subset(used)),
            )
        )
        cid = writer.add(
            b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s"
            b" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
            b" /FontDescriptor %d 0 R /DW %s /W [%s] /CIDToGIDMap /Identity >>"
            % (name, descriptor, number(face.defaultWidth), widths)
        )
        unicode_map = writer.add(stream_object(self._to_unicode(used)))
        writer.put(
            n,
            b"<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H"
            b" /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>" % (name, cid, unicode_map),
        )

    def _width(self, g: int) -> float:
        return self.face.charWidths.get(self.used[g], self.face.defaultWidth)

    def _subset(self, used: list[int]) -> bytes:
        """The face cut down to the glyphs drawn, each keeping its id (the CIDs drawn)."""
        from fontTools import subset
        from fontTools.ttLib import TTFont

        options = subset.Options()
        options.retain_gids = True
        options.layout_features = []
        options.name_IDs = []
        options.notdef_outline = True
        options.drop_tables += ["FFTM"]  # FontForge's timestamps: no reader needs them
        # recalcTimestamp off: the same glyphs give the same bytes
        font = TTFont(Path(self.face.filename), recalcTimestamp=False, lazy=True)
        subsetter = subset.Subsetter(options)
        subsetter.populate(gids=used)
        subsetter.subset(font)
        buffer = io.BytesIO()
        font.save(buffer)
        data = buffer.getvalue()
        return stream_object(data, b"/Length1 %d" % len(data))

    def _to_unicode(self, used: list[int]) -> bytes:
        """The CMap that tells a reader which character each glyph id stands for."""
        lines = [
            b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
            b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
            b"/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
            b"1 begincodespacerange <0000> <ffff> endcodespacerange",
        ]
        for k in range(0, len(used), 100):  # at most 100 entries a block
            block = used[k : k + 100]
            lines.append(b"%d beginbfchar" % len(block))
            lines += [b"<%04x> <%s>" % (g, _utf16(self.used[g])) for g in block]
            lines.append(b"endbfchar")
        lines.append(b"endcmap CMapName currentdict /CMap defineresource pop end end")
        return b"\n".join(lines)


class _Glyphs(dict):
    """Each character's glyph id in hex, found (and its glyph noted as used) when first drawn."""

    def __init__(self, glyph: dict[int, int], used: dict[int, int]) -> None:
        super().__init__()
        self._glyph, self._used = glyph, used

    def __missing__(self, c: str) -> bytes:
        g = self._glyph.get(ord(c), 0)
        self._used.setdefault(g, ord(c))
        self[c] = b"%04x" % g
        return self[c]


def _utf16(code: int) -> bytes:
    return chr(code).encode("utf-16-be").hex().encode()


class Page:
    """The content of one page being drawn: text in the one font, in black."""

    def __init__(self, font: Font) -> None:
        """An empty page drawing with `font`."""
        self._font = font
        self._ops: list[bytes] = []
        self._size = 12.0

    def set_font(self, size: float) -> None:
        """The size the next lines are set in, in points."""
        self._size = size

    def draw(self, x: float, y: float, text: str) -> None:
        """`text` with its baseline starting at (`x`, `y`), in points from the bottom left."""
        self._ops.append(
            b"BT %s %s Tf %s %s Td %s Tj ET"
            % (FONT_NAME, number(self._size), number(x), number(y), self._font.encode(text))
        )

    def content(self) -> bytes:
        """The page's content stream, uncompressed."""
        return b"\n".join(self._ops)
