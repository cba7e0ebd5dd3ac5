"""Macro actions: their one declaration, their executors and how each one ends."""
