"""The Doom world: ViZDoom missions behind the same face as the shipped world."""
