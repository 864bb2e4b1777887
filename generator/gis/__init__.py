"""GIS: reading county layers, the sample towns, and maps of a change.

Distances are measured in a projected coordinate system in feet (the pack's or the case's
`measure_crs`); layers in longitude/latitude are reprojected first, never measured in degrees.
"""
