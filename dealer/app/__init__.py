"""The application: the command line, the live loop, resuming, checks before a round."""
