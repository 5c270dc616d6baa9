"""What the dealer says: the voice, the narration of verdicts, and the languages."""
