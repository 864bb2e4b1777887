"""Rule packs: loading the extends chain, merging state and local law, and explaining it."""
