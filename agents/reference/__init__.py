"""The general reference agent: plays any level from the protocol's structured view alone.

It reads nothing but the messages it is sent (no level files, no level ids), so what it
achieves is proof that a level can be solved from what the observation shows.
"""
