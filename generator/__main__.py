"""Allow `python -m generator`."""

from generator.entry import main

main()
