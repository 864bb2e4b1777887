"""A clerk's SVG map, made safe to publish: the drawing stays, nothing that runs or fetches does.

An SVG file can run script (`<script>`, `onload=`), fetch other files (`href`, CSS `url()` and
`@import`), embed a web page (`<foreignObject>`) and declare entities. The packet publishes the
clerk's map beside the notices and draws it into their PDFs, so `clean()` rebuilds it from an
allow-list: the SVG elements that draw, their drawing attributes, links only to the file's own
parts (`#id`) or to an image embedded as PNG, JPEG, GIF or WebP data, and style sheets with no
escapes, no at-rules and no function but colors, transforms and `url(#id)`. Everything else is
left out. The XML is read without DTD, entities or network, and written without them.
"""

from __future__ import annotations

import re

from lxml import etree

_SVG = "http://www.w3.org/2000/svg"
_XLINK = "http://www.w3.org/1999/xlink"
_XML = "http://www.w3.org/XML/1998/namespace"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ELEMENTS = _words(
    """svg g defs symbol use switch title desc style
    path rect circle ellipse line polyline polygon text tspan textPath image
    clipPath mask pattern marker linearGradient radialGradient stop
    filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix
    feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB
    feFuncG feFuncR feGaussianBlur feMerge feMergeNode feMorphology feOffset fePointLight
    feSpecularLighting feSpotLight feTile feTurbulence"""
)
_UNWRAPPED = frozenset({"a"})  # a link's drawing stays; the link goes
_REFERRING = frozenset({"use", "image", "textPath"})  # drawn only from what they link to

_ATTRIBUTES = _words(
    """id class style lang space type media version baseProfile
    x y x1 y1 x2 y2 cx cy r rx ry fx fy fr width height d points pathLength transform viewBox
    preserveAspectRatio dx dy rotate textLength lengthAdjust startOffset method spacing side
    gradientUnits gradientTransform spreadMethod offset patternUnits patternContentUnits
    patternTransform clipPathUnits maskUnits maskContentUnits markerUnits markerWidth
    markerHeight refX refY orient systemLanguage
    filterUnits primitiveUnits in in2 result stdDeviation mode operator k1 k2 k3 k4 values
    tableValues slope intercept amplitude exponent order kernelMatrix divisor bias targetX
    targetY edgeMode preserveAlpha surfaceScale diffuseConstant specularConstant
    specularExponent kernelUnitLength scale xChannelSelector yChannelSelector radius
    baseFrequency numOctaves seed stitchTiles azimuth elevation z pointsAtX pointsAtY pointsAtZ
    limitingConeAngle
    alignment-baseline baseline-shift clip clip-path clip-rule color color-interpolation
    color-interpolation-filters color-rendering direction display dominant-baseline fill
    fill-opacity fill-rule filter flood-color flood-opacity font font-family font-size
    font-size-adjust font-stretch font-style font-variant font-weight image-rendering
    isolation letter-spacing lighting-color marker marker-end marker-mid marker-start mask
    mix-blend-mode opacity overflow paint-order shape-rendering stop-color stop-opacity stroke
    stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit
    stroke-opacity stroke-width text-anchor text-decoration text-rendering transform-origin
    unicode-bidi vector-effect visibility word-spacing writing-mode"""
)
# The functions a drawing's style or attributes need: colors, transforms, lengths, selectors,
# `url(#id)`.
_FUNCTIONS = _words(
    """rgb rgba hsl hsla calc var url matrix translate translatex translatey scale scalex
    scaley rotate skewx skewy not is where nth-child nth-last-child nth-of-type
    nth-last-of-type"""
)
_FUNCTION = re.compile(r"([A-Za-z_-][\w-]*)\s*\(")
_URL = re.compile(r"url\(\s*(['\"]?)([^)'\"]*)\1\s*\)", re.IGNORECASE)
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_RASTER = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*", re.IGNORECASE)


class SvgError(ValueError):
    """The file is not an SVG image that can be read."""


def clean(data: bytes) -> bytes:
    """The SVG `data` with only its drawing kept; `SvgError` when it is not a readable SVG."""
    parser = etree.XMLParser(
        resolve_entities=False,
        load_dtd=False,
        no_network=True,
        remove_comments=True,
        remove_pis=True,
        huge_tree=False,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise SvgError(f"not readable as SVG: {exc}") from None
    if _name(root) != "svg":
        raise SvgError(f"not an SVG image: its root element is <{etree.QName(root).localname}>")
    out = etree.Element(f"{{{_SVG}}}svg", nsmap={None: _SVG, "xlink": _XLINK})
    _copy(root, out)
    return etree.tostring(out, xml_declaration=True, encoding="UTF-8")


def _name(node: etree._Element) -> str | None:
    """The SVG local name of an element (SVG namespace, or none), else None."""
    if not isinstance(node.tag, str):
        return None  # a comment, processing instruction or entity reference
    name = etree.QName(node)
    return name.localname if name.namespace in (_SVG, None) else None


def _copy(src: etree._Element, dst: etree._Element) -> None:
    """Copy the allowed attributes, text and children of `src` into `dst`."""
    tag = _name(src) or ""
    for key, value in src.attrib.items():
        kept = _attribute(key, value, tag)
        if kept is not None:
            dst.set(key, kept)
    if tag == "style":  # one style sheet, judged whole; it holds no elements
        dst.text = _css((src.text or "") + "".join(child.tail or "" for child in src)) or ""
        return
    _append_text(dst, src.text, tag)
    _copy_children(src, dst, tag)


def _copy_children(src: etree._Element, dst: etree._Element, tag: str) -> None:
    """Copy the allowed children of `src` to the end of `dst`, an element `tag`."""
    for child in src:
        name = _name(child)
        if name in _REFERRING and not _kept_href(child, name):
            name = None  # a `<use>` or `<image>` of another file: nothing of it is drawn
        if name in _ELEMENTS:
            _copy(child, etree.SubElement(dst, f"{{{_SVG}}}{name}"))
        elif name in _UNWRAPPED:
            _append_text(dst, child.text, tag)
            _copy_children(child, dst, tag)
        _append_text(dst, child.tail, tag)  # the parent's text, whether `child` stays or not


def _append_text(parent: etree._Element, text: str | None, tag: str) -> None:
    """Add `text` at the end of `parent`'s content, if an element `tag` shows text."""
    if not text or tag not in ("text", "tspan", "textPath", "title", "desc"):
        return
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def _kept_href(node: etree._Element, tag: str) -> bool:
    """True if `node` links to something `clean()` keeps (a part of this file, embedded raster)."""
    hrefs = [(k, v) for k, v in node.attrib.items() if etree.QName(k).localname == "href"]
    return bool(hrefs) and all(_attribute(k, v, tag) is not None for k, v in hrefs)


def _attribute(key: str, value: str, tag: str) -> str | None:
    """The value to write for an attribute of a `tag` element, or None to leave it out."""
    name = etree.QName(key)
    if name.namespace == _XML and name.localname in ("space", "lang"):
        return value
    if name.localname == "href" and name.namespace in (_XLINK, None):
        return value if _local_or_raster(value, tag) else None
    if name.namespace is not None or name.localname not in _ATTRIBUTES:
        return None  # event handlers (on*), xml:base, other vocabularies
    return _css(value)


def _local_or_raster(href: str, tag: str) -> bool:
    """A link to a part of this file, or an image embedded as raster data."""
    href = href.strip()
    if href.startswith("#"):
        return _css(href) is not None
    return tag == "image" and _RASTER.fullmatch(href) is not None


def _css(text: str) -> str | None:
    """A style sheet or attribute value without its comments, or None if it could fetch or run.

    Safe: no escape (which could spell anything), no at-rule (`@import`), and no function but
    colors, transforms, selectors and `url(#id)` (`image-set()` and `url()` fetch files).
    """
    text = _COMMENT.sub("", text)
    if "\\" in text or "@" in text or "<" in text:
        return None
    if any(f.lower() not in _FUNCTIONS for f in _FUNCTION.findall(text)):
        return None
    urls = _URL.findall(text)
    if len(urls) != len(re.findall(r"url\s*\(", text, re.IGNORECASE)):
        return None  # a url( the pattern could not read
    if not all(target.strip().startswith("#") for _, target in urls):
        return None
    return text
