"""An agent's process: launch, pipes, limits, pacing and the sandbox; the agent kit."""
