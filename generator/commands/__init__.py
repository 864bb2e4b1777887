"""The commands of `notices`, one module each; `generator.cli` lists them and imports one when it runs."""
