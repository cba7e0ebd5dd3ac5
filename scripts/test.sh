#!/usr/bin/env bash
# README's test command: install the project with its test extra, lint, run the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet -e '.[test]'
# The run-page browser test drives the system's Chromium (never a downloaded one).
command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null)
# Agents run in bubblewrap's sandbox; the hostile-agent tests need it.
command -v bwrap >/dev/null || (apt-get update -qq && apt-get install -y -qq bubblewrap >/dev/null)
python3 -m ruff check .
python3 -m pytest
