"""Rendering: one context, Jinja2 templates for HTML and text, docxtpl for DOCX, WeasyPrint for PDF."""
