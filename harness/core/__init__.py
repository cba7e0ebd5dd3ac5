"""The vocabulary every part shares: protocol, bounds, keys, tracks, records and their seal."""
