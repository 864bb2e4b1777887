"""`python -m tools.sample_town [OUT_DIR]`: write every sample town (default `data/gis`)."""

import sys

from tools.sample_town.geopackage import main

sys.exit(main())
