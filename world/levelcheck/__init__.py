"""The level checker: every problem of a level file, from JSON to reachability.

Above the level format, the navigation mesh, the simulation's items and the objectives,
all of which it reads; nothing below it imports it (the world's face offers it).
"""
