"""Run pages: an HTML page per episode and an index page per batch of episodes.

Pages are built from the record alone (its header carries the map), so they can be
re-rendered at any time with `harness page`.
"""

from harness.pages.episode import write_episode_page, write_episode_page_safely
from harness.pages.index import EpisodeSummary, write_index_page

__all__ = ["EpisodeSummary", "write_episode_page", "write_episode_page_safely",
           "write_index_page"]
