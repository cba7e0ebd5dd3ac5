"""Run pages: an HTML page per episode (a batch's index page is `harness.suite.index_page`).

Pages are built from the record alone (its header carries the map), so they can be
re-rendered at any time with `harness page`.
"""

from harness.pages.episode import write_episode_page, write_episode_page_safely

__all__ = ["write_episode_page", "write_episode_page_safely"]
