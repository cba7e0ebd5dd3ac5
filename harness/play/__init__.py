"""`harness play`: a person plays one episode, in the terminal or a browser."""
