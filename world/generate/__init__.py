"""Mission templates: code that turns a seed and parameters into a level in the format.

`registry.TEMPLATES` lists them; `registry.generate("maze@3?rooms=12")` builds one.
"""
