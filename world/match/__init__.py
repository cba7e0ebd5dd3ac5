"""The multiplayer track's world: several players in one world, their turns, the judge."""
