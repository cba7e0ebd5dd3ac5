"""`harness compare`: suites of several agents side by side, and whether a difference is real."""
