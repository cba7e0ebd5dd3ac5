"""`harness eval`: suites of episodes, end to end and stepwise, their figures and index page."""
