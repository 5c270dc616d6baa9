"""What the dealer shows: the table view drawn for the players, fed live."""
