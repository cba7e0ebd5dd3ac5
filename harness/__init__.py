"""The harness: runs agents, speaks the protocol, records, scores and renders runs."""

__version__ = "0.1.0"
