"""`harness mcp` and `harness tools`: one episode served as tools to a model."""
