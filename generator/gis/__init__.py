"""GIS: reading county layers, and drawing the map of a change.

Distances are measured in a projected coordinate system in feet (the pack's or the case's
`measure_crs`); layers in longitude/latitude are reprojected first, never measured in degrees.
"""
