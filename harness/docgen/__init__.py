"""The documents and schemas derived from the declarations in code."""
