"""Frames in, card readings out. Knows nothing of the rules."""
