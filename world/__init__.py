"""The world: levels, navigation mesh, simulation, macro actions and objectives."""
