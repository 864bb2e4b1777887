"""Zoning Notices: legal notice packets for zoning-amendment hearings."""

__version__ = "0.1.0"
