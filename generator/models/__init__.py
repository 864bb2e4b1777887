"""Typed, validated models of what people write: cases and rule packs."""
