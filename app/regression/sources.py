"""Where the regression workspace's data come from: :mod:`core.session.choice` (moved to core,
free of Qt, so that a session saves and rebuilds it); re-exported here for the workspace."""
from robust_subspace_lab.core.session.choice import (DIGITS, FOLDER, OPTION_SPECS, SCOPES, SIZE_CHOICES,
                                                     SOURCE_TITLES, SOURCES, SYNTHETIC, DataChoice, build,
                                                     describe, parse_size)

__all__ = ["SYNTHETIC", "DIGITS", "FOLDER", "SOURCES", "SOURCE_TITLES", "OPTION_SPECS", "SCOPES",
           "SIZE_CHOICES", "DataChoice", "build", "parse_size", "describe"]
