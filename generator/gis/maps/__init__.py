"""Maps of a proposed zoning change, for newspaper notices and mailed letters.

R.I.G.L. § 45-24-53(b) asks the notice of a specific map change for a map showing the existing
and proposed boundaries, zoning district boundaries, labeled streets and roads, and city and town
boundaries where appropriate; 11 O.S. § 43-104 asks for a map of the area to be affected with
street names or numbers, streams or other landmarks. The map is printed in a newspaper legal
notice and in mailed letters, so it is drawn in grays only, about 5.5 in wide, with every label
7 pt or larger at that size, and the same layers always give the same bytes.

Coordinates are feet in a projected CRS, x east and y north, drawn at equal aspect. Everything is
laid out first on paper (inches): the legend and the scale bar beside the map frame, where they
hide nothing, and labels placed greedily in order of importance so that they never overlap; then
drawn. The map draws no title: the documents print its caption beneath it. Matplotlib is imported only when
a map is drawn or measured: importing this module does not import it.

The modules: `map_layers` (what a map is drawn from), `style` (how it looks), `geometry`,
`frame` (extent, legend and scale bar), `labels` (label placement), `layout` (the whole plan on
paper, and what it shows), `drawing` (matplotlib, SVG and PNG).
"""

from __future__ import annotations

from generator.gis.maps.drawing import DPI, draw, draw_showing
from generator.gis.maps.layout import _plan as _plan  # the tests look at the layout itself
from generator.gis.maps.layout import shows
from generator.gis.maps.map_layers import MapLayers

__all__ = ["DPI", "MapLayers", "draw", "draw_showing", "shows"]
