"""The multiplayer track's world: several players in one world, their turns and the match's judge."""
