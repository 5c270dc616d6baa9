"""Camera and table geometry, zones, the printable kit and tokens, saved profiles."""
