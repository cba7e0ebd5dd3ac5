"""The Doom world: maps read from WAD files, played on ViZDoom."""
