"""The document builders: one module per kind of document, listed in `registry.py`."""
