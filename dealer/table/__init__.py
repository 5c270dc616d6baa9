"""The table: what the camera's views mean for the turn, and the dealer session that judges it."""
