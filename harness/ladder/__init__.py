"""Ratings over many matches (harness ladder) and round robins of matches (tournament)."""
