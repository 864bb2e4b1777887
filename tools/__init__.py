"""Developer tools, kept out of the product package: the sample data the demo and tests read."""
