"""The commands about levels: check, generate, templates, levels, export."""
