"""One episode: the live loop, its turns and outcome, snapshots, replay, the runner."""
