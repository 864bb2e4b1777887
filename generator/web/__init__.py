"""`notices serve`: the clerk's web page over the same pipeline as the command line.

Server-rendered pages (the project's Jinja templates in `templates/web/`), one vendored script
(htmx) for the small interactions, nothing fetched from elsewhere: it works offline. The pages
only call the pipeline's stages (load, prepare, build, lint); they decide nothing of their own.
"""
