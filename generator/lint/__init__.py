"""The notice linter: reads a notice in any output format and checks it for the required clauses."""
